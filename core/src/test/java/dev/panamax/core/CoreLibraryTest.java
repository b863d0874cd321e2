package dev.panamax.core;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;

import static org.junit.jupiter.api.Assertions.*;

class CoreLibraryTest {
    @Test
    void loadsBundledLibraryAndReadsCpuFeatures() {
        assertTrue(Files.isRegularFile(CoreLibrary.path()));
        CpuFeatures f = CoreLibrary.cpuFeatures();
        // every x86-64 machine this runs on since 2008 has SSE4.2; AVX2 implies AVX
        assertTrue(!f.avx2() || f.avx(), f.toString());
        assertNotNull(CoreLibrary.symbol("pmx_abi_version"));
        assertThrows(IllegalStateException.class, () -> CoreLibrary.symbol("pmx_no_such_symbol"));
    }
}
