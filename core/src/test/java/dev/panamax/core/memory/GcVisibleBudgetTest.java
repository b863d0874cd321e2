package dev.panamax.core.memory;

import dev.panamax.testsupport.ChildJvm;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The budget in fresh JVMs with small limits: unreachable handles must be collected in time with
 * no System.gc() (also under -XX:+DisableExplicitGC), and over the limit the error says what is held.
 */
class GcVisibleBudgetTest {
    @Test
    void droppedBuffersAreCollectedInTimeUnderDisableExplicitGc() throws Exception {
        // 2 GiB through a 128 MiB budget with a 64 MiB heap: impossible unless the GC frees as it goes
        ChildJvm r = ChildJvm.run(ChurnMain.class, List.of("-Xmx64m", "-XX:+UseG1GC", "-XX:+DisableExplicitGC",
                "-Dpanamax.memory.limit=128m", "-Dpanamax.leakDetection=DISABLED"), "2048", "4");
        assertEquals(0, r.exitCode(), r.output());
        assertTrue(r.output().contains("completed"), r.output());
    }

    @Test
    void droppedBuffersAreCollectedInTimeWithParallelGc() throws Exception {
        ChildJvm r = ChildJvm.run(ChurnMain.class, List.of("-Xmx64m", "-XX:+UseParallelGC", "-XX:+DisableExplicitGC",
                "-Dpanamax.memory.limit=128m", "-Dpanamax.leakDetection=DISABLED"), "1024", "4");
        assertEquals(0, r.exitCode(), r.output());
    }

    @Test
    void overTheLimitTheErrorSaysWhatIsHeldAndWhere() throws Exception {
        ChildJvm r = ChildJvm.run(OverLimitMain.class, List.of("-Xmx64m", "-Dpanamax.memory.limit=8m",
                "-Dpanamax.memory.maxWaitMillis=200", "-Dpanamax.leakDetection=PARANOID"));
        assertEquals(0, r.exitCode(), r.output());
        String out = r.output();
        assertTrue(out.contains("OOM: native memory budget exhausted: requested=4194304 reserved=6291456 limit=8388608"), out);
        assertTrue(out.contains("NativeBuffer: handles=3 bytes=6291456"), out);
        assertTrue(out.contains("topSites=[3x 6291456 bytes NativeBuffer at dev.panamax.core.memory.OverLimitMain.main(OverLimitMain.java"), out);
        assertTrue(out.contains("after release: ok"), out);
    }
}
