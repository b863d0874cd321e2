package dev.panamax.tensor.cpu;

import dev.panamax.tensor.Backends;
import dev.panamax.tensor.Tensor;
import dev.panamax.testsupport.ChildJvm;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A thread budget libgomp could not start is refused by name before any thread starts. */
class ThreadSettingTest {
    @Test
    void aBudgetBeyondTheLimitIsRefusedNamingTheSettingAndTheRange() {
        assertEquals(8, ThreadBudget.resolve("8", 2));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ThreadBudget.resolve("100000", 2));
        assertEquals("panamax.threads=100000: expected 1 to 8 threads (4 per available processor, 2 here; more only wait "
                + "for cores, and libgomp ends the process when it cannot start one)", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ThreadBudget.resolve("9", 2));
        assertThrows(IllegalArgumentException.class, () -> ThreadBudget.resolve("99999999999999999999", 2));
        IllegalArgumentException cli = assertThrows(IllegalArgumentException.class, () -> ThreadBudget.check("--threads", -3));
        assertTrue(cli.getMessage().startsWith("--threads=-3: expected 1 to " + ThreadBudget.maximum() + " threads"), cli.getMessage());
        assertEquals(ThreadBudget.maximum(), ThreadBudget.check("--threads", ThreadBudget.maximum()));
    }

    @Test
    void aHugeSettingFailsClearlyInsteadOfEndingTheJvm() throws Exception {
        ChildJvm child = ChildJvm.run(UseTheCpuBackend.class, List.of("-Dpanamax.threads=100000"));
        assertEquals(3, child.exitCode(), child.output());
        assertTrue(child.output().contains("refused: panamax.threads=100000: expected 1 to "), child.output());
    }

    /** Computes on the default backend; exits 3 with the message when it is refused. */
    public static final class UseTheCpuBackend {
        public static void main(String[] args) {
            try {
                Backends.use(CpuBackend.NAME);
                try (Tensor t = Tensor.arange(dev.panamax.tensor.DType.F32, 0, 1 << 20, 1)) {
                    System.out.println("sum " + t.sum().item());
                }
            } catch (IllegalArgumentException e) {
                System.out.println("refused: " + e.getMessage());
                System.exit(3);
            }
        }
    }
}
