package dev.panamax.cli;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

class HelpTest {
    @Test
    void helpListsEveryCommandTheLauncherRuns() {
        AbiCommandTest.Run r = AbiCommandTest.run("--help");
        assertEquals(0, r.exit(), r.err());
        for (String command : new String[] {"info", "abi", "bindgen", "help", "test", "bench SUITE"}) {
            assertTrue(r.out().lines().anyMatch(line -> line.stripLeading().startsWith(command)), command + " missing in:\n" + r.out());
        }
        for (String suite : new String[] {"calls", "memory", "batch", "opencl", "blas", "tensor"}) {
            assertTrue(r.out().contains(suite), suite + " missing in:\n" + r.out());
        }
    }
}
