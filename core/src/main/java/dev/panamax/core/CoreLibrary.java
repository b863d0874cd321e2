package dev.panamax.core;

import dev.panamax.core.internal.BundledLibrary;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Path;

/**
 * libpanamax, the core's own native library (batch runner, fp16 kernels, CPU probes): shipped in
 * the jar under {@code native/linux-x86_64/}, extracted once to a content-addressed cache and
 * loaded with {@link SymbolLookup#libraryLookup(Path, Arena)}.
 */
public final class CoreLibrary {
    /** ABI version the Java side was written against; must equal {@code pmx_abi_version()}. */
    public static final int ABI_VERSION = 1;

    private static final class Holder {
        static final Path PATH = BundledLibrary.extract(CoreLibrary.class.getClassLoader(), "libpanamax.so",
                BundledLibrary.defaultCacheDir());
        static final SymbolLookup LOOKUP = SymbolLookup.libraryLookup(PATH, Arena.global());
        static {
            int version = (int) call(LOOKUP, "pmx_abi_version");
            if (version != ABI_VERSION) {
                throw new IllegalStateException("libpanamax ABI mismatch: library=" + PATH + " abiVersion=" + version
                        + " expected=" + ABI_VERSION);
            }
        }
    }

    private CoreLibrary() {}

    /** Where the loaded libpanamax lives on disk. */
    public static Path path() {
        return Holder.PATH;
    }

    /** Symbols of libpanamax. */
    public static SymbolLookup lookup() {
        return Holder.LOOKUP;
    }

    /** The address of an exported libpanamax symbol. */
    public static MemorySegment symbol(String name) {
        return Holder.LOOKUP.find(name).orElseThrow(() -> new IllegalStateException(
                "symbol not found: library=" + Holder.PATH + " symbol=" + name));
    }

    /** CPU features seen by the native side (cpuid through {@code __builtin_cpu_supports}). */
    public static CpuFeatures cpuFeatures() {
        return CpuFeatures.fromBits((int) call(Holder.LOOKUP, "pmx_cpu_features"));
    }

    private static long call(SymbolLookup lookup, String name) {
        MethodHandle h = Linker.nativeLinker().downcallHandle(
                lookup.find(name).orElseThrow(() -> new IllegalStateException("symbol not found: library=libpanamax symbol=" + name)),
                FunctionDescriptor.of(ValueLayout.JAVA_INT));
        try {
            return (int) h.invokeExact();
        } catch (Throwable t) {
            throw new IllegalStateException("call failed: " + name, t);
        }
    }
}
