package dev.panamax.spark;

import org.apache.spark.SparkConf;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The executor's budget from Spark's settings, and which GPU a task's address picks (no Spark job runs). */
class ExecutorMemoryBudgetTest {
    @Test
    void theSparkSettingIsInTheSettingsCatalogue() {
        assertTrue(dev.panamax.core.SettingCatalogue.all().contains(SparkSettings.EXECUTOR_MEMORY),
                "panamax.spark.executorMemory found by the catalogue's ServiceLoader");
    }

    @Test
    void theBudgetIsTheMemoryOverheadSharedByTheTaskSlots() {
        var budget = ExecutorMemoryBudget.from(new SparkConf(false).set("spark.executor.memoryOverhead", "1g").set("spark.executor.cores", "4"));
        assertEquals(1L << 30, budget.bytes());
        assertEquals(4, budget.taskSlots());
        assertEquals(((1L << 30) - (64L << 20)) / 4, budget.perTaskBytes(64L << 20));
    }

    @Test
    void withoutAnOverheadSparksDefaultIsTenPercentOfTheExecutorsMemoryAtLeast384m() {
        assertEquals(384L << 20, ExecutorMemoryBudget.from(new SparkConf(false).set("spark.master", "local[2]")).bytes());
        var big = ExecutorMemoryBudget.from(new SparkConf(false).set("spark.master", "local[3,2]").set("spark.executor.memory", "10g"));
        assertEquals(1024L << 20, big.bytes());
        assertEquals(3, big.taskSlots());
    }

    @Test
    void aBatchThatDoesNotFitNamesTheBudgetItsSourceAndTheBatchThatFits() {
        var budget = new ExecutorMemoryBudget(1000, "spark.executor.memoryOverhead=1000", 2);
        budget.check(4, 100, 200);
        var e = assertThrows(BatchTooLargeException.class, () -> budget.check(5, 100, 200));
        assertEquals("a batch of 5 rows needs 500 bytes of native memory (100 per row); each of the executor's 2 task slots has 400 bytes:"
                + " 1000 from spark.executor.memoryOverhead=1000, less the model's 200 bytes, shared by 2 slots. Expected a batch size of"
                + " at most 4, or raise spark.executor.memoryOverhead (or -Dpanamax.spark.executorMemory)", e.getMessage());
    }

    @Test
    void aTasksGpuAddressPicksThatGpuAmongTheOpenClDevices() {
        List<String> devices = List.of("pthread-AMD EPYC The pocl project", "NVIDIA H100 NVIDIA Corporation", "NVIDIA H100 NVIDIA Corporation");
        assertEquals(1, OpenClGpus.pick(devices, "0"));
        assertEquals(2, OpenClGpus.pick(devices, "1"));
        var e = assertThrows(IllegalStateException.class, () -> OpenClGpus.pick(devices, "2"));
        assertTrue(e.getMessage().startsWith("Spark assigned GPU address=2, but the OpenCL devices here have 2 GPU(s)"), e.getMessage());
        assertThrows(IllegalStateException.class, () -> OpenClGpus.pick(devices, "gpu0"));
    }
}
