package dev.panamax.cli;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

class OpenBlasProbeTest {
    @Test
    void anSse3CoreOnAnAvx2CpuIsCalledOutWithTheFix() {
        String warning = OpenBlasProbe.olderThanCpu("Prescott", true);
        assertTrue(warning.contains("WARNING") && warning.contains("OPENBLAS_CORETYPE=Haswell"), warning);
    }

    @Test
    void aCoreThatMatchesTheCpuIsNotWarnedAbout() {
        assertEquals("", OpenBlasProbe.olderThanCpu("Zen", true));
        assertEquals("", OpenBlasProbe.olderThanCpu("SkylakeX", true));
        assertEquals("", OpenBlasProbe.olderThanCpu("Prescott", false), "a CPU without AVX2 runs what it can");
    }

    @Test
    void theInfoLineNamesTheCore() {
        String line = OpenBlasProbe.line(OpenBlasProbe.LIBRARY);
        assertTrue(line.startsWith("openblas"), line);
        assertTrue(line.contains("core ") || line.contains("not available"), line);
    }
}
