package dev.panamax.bench.compute;

import dev.panamax.core.internal.BundledLibrary;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/** The C STREAM triad of libpanamax_bench.so ({@code stream_triad.c}) over three native arrays of floats. */
final class StreamTriad implements AutoCloseable {
    private static final MethodHandle TRIAD;

    static {
        var path = BundledLibrary.extract(StreamTriad.class.getClassLoader(), "libpanamax_bench.so", BundledLibrary.defaultCacheDir());
        SymbolLookup lib = SymbolLookup.libraryLookup(path, Arena.global());
        TRIAD = Linker.nativeLinker().downcallHandle(lib.findOrThrow("pmx_bench_stream_triad"),
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.ADDRESS,
                        ValueLayout.JAVA_FLOAT, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT));
    }

    private final Arena arena = Arena.ofShared();
    private final MemorySegment a, b, c;
    private final long n;
    private final int threads;

    StreamTriad(long n, int threads) {
        this.n = n;
        this.threads = threads;
        a = arena.allocate(ValueLayout.JAVA_FLOAT, n);
        b = arena.allocate(ValueLayout.JAVA_FLOAT, n);
        c = arena.allocate(ValueLayout.JAVA_FLOAT, n);
        b.fill((byte) 1);
        c.fill((byte) 2);
        a.fill((byte) 0);
    }

    /** One triad; returns GB/s (12 bytes per element: two reads, one write). */
    double run() throws Throwable {
        long t = System.nanoTime();
        int status = (int) TRIAD.invokeExact(a, b, c, 3.0f, n, threads);
        long ns = System.nanoTime() - t;
        if (status != 0) throw new IllegalStateException("stream triad could not start its threads");
        return 12.0 * n / ns;
    }

    @Override
    public void close() {
        arena.close();
    }
}
