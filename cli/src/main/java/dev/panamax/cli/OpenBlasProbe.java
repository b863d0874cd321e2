package dev.panamax.cli;

import dev.panamax.core.CoreLibrary;
import dev.panamax.core.OpenBlasCoreType;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * The OpenBLAS line of {@code panamax info}: build configuration, the kernel core it chose for this
 * CPU (and whether Panamax chose it, {@link OpenBlasCoreType}) and its thread count, read with three
 * hand-written FFM downcalls.
 */
final class OpenBlasProbe {
    /** OpenBLAS's soname (Debian package libopenblas0-pthread). */
    static final String LIBRARY = "libopenblas.so.0";

    private OpenBlasProbe() {}

    /** One line for {@code panamax info}; never throws for a missing library. */
    static String line(String library) {
        OpenBlasCoreType.chooseBeforeLoading(); // as the cpu backend and the BLAS binding do before they load it
        SymbolLookup blas;
        try {
            blas = SymbolLookup.libraryLookup(library, Arena.global());
        } catch (IllegalArgumentException e) {
            return "openblas     not available: cannot load " + library + " (apt-get install libopenblas0-pthread)";
        }
        try {
            String config = cString(blas, library, "openblas_get_config");
            String core = cString(blas, library, "openblas_get_corename");
            int threads = (int) Linker.nativeLinker()
                    .downcallHandle(find(blas, library, "openblas_get_num_threads"), FunctionDescriptor.of(JAVA_INT))
                    .invokeExact();
            String chosen = OpenBlasCoreType.chooseBeforeLoading().map(c -> ", " + OpenBlasCoreType.VARIABLE + "=" + c + " set by Panamax for this CPU")
                    .orElse(System.getenv(OpenBlasCoreType.VARIABLE) != null ? ", " + OpenBlasCoreType.VARIABLE + "=" + System.getenv(OpenBlasCoreType.VARIABLE) + " set by you" : "");
            return String.format("openblas     %s (core %s%s, %d threads)%s", config.strip(), core.strip(), chosen, threads,
                    olderThanCpu(core.strip(), CoreLibrary.cpuFeatures().avx2()));
        } catch (IllegalStateException e) {
            return "openblas     " + library + " loaded but unusable: " + e.getMessage();
        } catch (Throwable t) {
            throw new IllegalStateException("OpenBLAS probe failed: library=" + library, t);
        }
    }

    /** OpenBLAS's cores without AVX2 kernels: on an AVX2 CPU, a sign its detection did not know the CPU. */
    private static final java.util.Set<String> PRE_AVX2_CORES = java.util.Set.of("prescott", "core2", "penryn", "dunnington",
            "nehalem", "atom", "katmai", "coppermine", "northwood", "banias", "opteron", "barcelona", "bobcat", "sandybridge",
            "bulldozer", "piledriver", "steamroller");

    /** A warning when OpenBLAS runs kernels older than the CPU can, with the setting that fixes it; else "". */
    static String olderThanCpu(String core, boolean cpuHasAvx2) {
        if (!cpuHasAvx2 || !PRE_AVX2_CORES.contains(core.toLowerCase(java.util.Locale.ROOT))) return "";
        return "\n             WARNING: core " + core + " has no AVX2 kernels though this CPU has AVX2: OpenBLAS did not"
                + " recognise the CPU; run with " + OpenBlasCoreType.VARIABLE + "=Haswell (or SkylakeX with AVX-512)";
    }

    private static String cString(SymbolLookup blas, String library, String function) throws Throwable {
        MemorySegment s = (MemorySegment) Linker.nativeLinker()
                .downcallHandle(find(blas, library, function), FunctionDescriptor.of(ADDRESS))
                .invokeExact();
        return s.equals(MemorySegment.NULL) ? "?" : s.reinterpret(4096).getString(0);
    }

    private static MemorySegment find(SymbolLookup lookup, String library, String name) {
        return lookup.find(name).orElseThrow(() -> new IllegalStateException("symbol " + name + " missing from " + library));
    }
}
