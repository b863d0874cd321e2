package dev.panamax.bench.opencl;

import dev.panamax.core.internal.BundledLibrary;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;

import static java.lang.foreign.ValueLayout.ADDRESS;

/**
 * OpenCL objects that lead nowhere: the ICD loader reaches a driver through the dispatch table an
 * object points to, and these point to a table whose every entry is {@code bench_cl_success}
 * (libpanamax_bench.so), which returns CL_SUCCESS and does nothing. A binding's calls on them go all the
 * way through the binding and the loader, exactly as on a real device, and then return at once: what is
 * left of a dispatch is what the binding costs. Every binding adopts the same objects
 * ({@link ClObjects}); none of them releases anything.
 */
final class NullDriver implements AutoCloseable {
    /** Entries in the table: more than the loader's dispatch table has (OpenCL 3.0 and its extensions). */
    private static final int ENTRIES = 512;

    private final Arena arena = Arena.ofConfined();
    private final ClObjects objects;

    NullDriver() {
        var library = BundledLibrary.extract(NullDriver.class.getClassLoader(), "libpanamax_bench.so",
                BundledLibrary.defaultCacheDir());
        MemorySegment success = SymbolLookup.libraryLookup(library, arena).find("bench_cl_success")
                .orElseThrow(() -> new IllegalStateException("libpanamax_bench.so has no bench_cl_success: " + library));
        MemorySegment table = arena.allocate(ADDRESS, ENTRIES);
        for (int i = 0; i < ENTRIES; i++) table.setAtIndex(ADDRESS, i, success);
        // an ICD object begins with the address of its dispatch table
        MemorySegment object = arena.allocate(ADDRESS);
        object.set(ADDRESS, 0, table);
        objects = new ClObjects(object, object, object, object, object);
    }

    /** The objects, one for every role: context, queue, program, kernel and buffer. */
    ClObjects objects() {
        return objects;
    }

    @Override
    public void close() {
        arena.close();
    }
}
