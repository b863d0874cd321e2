package dev.panamax.bench.calls;

import dev.panamax.core.call.NativeLibrary;
import dev.panamax.core.internal.BundledLibrary;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.file.Path;

/**
 * libpanamax_bench.so (bench/src/main/c), extracted from the benchmark jar once and reached four
 * ways: raw hand-written FFM, Panamax, JNI ({@link JniCalls}) and JNA ({@link JnaCalls}).
 */
final class BenchLibrary {
    static final Path PATH = BundledLibrary.extract(BenchLibrary.class.getClassLoader(), "libpanamax_bench.so",
            BundledLibrary.defaultCacheDir());
    static final NativeLibrary PANAMAX = NativeLibrary.load(PATH);
    private static final SymbolLookup RAW = SymbolLookup.libraryLookup(PATH, Arena.global());

    private BenchLibrary() {}

    /** A raw FFM downcall handle, written by hand as an FFM user would. */
    static MethodHandle raw(String symbol, FunctionDescriptor descriptor, Linker.Option... options) {
        MemorySegment address = RAW.find(symbol).orElseThrow(() -> new IllegalStateException("missing " + symbol + " in " + PATH));
        return Linker.nativeLinker().downcallHandle(address, descriptor, options);
    }
}
