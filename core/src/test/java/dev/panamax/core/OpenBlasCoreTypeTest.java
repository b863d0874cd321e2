package dev.panamax.core;

import org.junit.jupiter.api.Test;

import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.*;

class OpenBlasCoreTypeTest {
    private static final Set<String> SAPPHIRE_RAPIDS = Set.of("sse4_2", "avx", "avx2", "fma", "f16c", "avx512f", "avx512dq",
            "avx512cd", "avx512bw", "avx512vl", "avx512_bf16", "amx_tile");

    @Test
    void intelAvx512RunsSkylakeXAndAvx2RunsHaswell() {
        assertEquals(Optional.of("SkylakeX"), OpenBlasCoreType.forCpu("GenuineIntel", SAPPHIRE_RAPIDS));
        assertEquals(Optional.of("Haswell"), OpenBlasCoreType.forCpu("GenuineIntel", Set.of("avx", "avx2", "fma")));
    }

    @Test
    void otherCpusAreLeftToOpenBlas() {
        assertEquals(Optional.empty(), OpenBlasCoreType.forCpu("AuthenticAMD", SAPPHIRE_RAPIDS), "OpenBLAS names Zen cores itself");
        assertEquals(Optional.empty(), OpenBlasCoreType.forCpu("GenuineIntel", Set.of("sse4_2", "avx")), "no AVX2: nothing to force");
        assertEquals(Optional.empty(), OpenBlasCoreType.forCpu("GenuineIntel", Set.of("avx2")), "AVX2 without FMA");
    }

    @Test
    void readsTheFirstProcessorOfCpuInfo() {
        var info = OpenBlasCoreType.CpuInfo.parse(Stream.of("processor\t: 0", "vendor_id\t: GenuineIntel", "cpu family\t: 6",
                "flags\t\t: fpu avx2 fma avx512f", "", "processor\t: 1", "vendor_id\t: Other", "flags\t\t: none"));
        assertEquals("GenuineIntel", info.orElseThrow().vendor());
        assertTrue(info.orElseThrow().flags().containsAll(Set.of("avx2", "fma", "avx512f")));
        assertTrue(OpenBlasCoreType.CpuInfo.parse(Stream.of("processor : 0")).isEmpty());
    }

    @Test
    void choosingTwiceGivesTheFirstAnswerAndNeverOverridesTheUser() {
        Optional<String> first = OpenBlasCoreType.chooseBeforeLoading();
        assertEquals(first, OpenBlasCoreType.chooseBeforeLoading());
        if (System.getenv(OpenBlasCoreType.VARIABLE) != null) assertEquals(Optional.empty(), first);
    }
}
