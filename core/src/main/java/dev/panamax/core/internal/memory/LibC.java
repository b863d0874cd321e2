package dev.panamax.core.internal.memory;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * The C allocator ({@code malloc}, {@code aligned_alloc}, {@code calloc}, {@code free}) through FFM downcalls. They are
 * short, never call back into Java and never block on Java, so they are linked as critical calls.
 * {@code calloc} is preferred for zeroed memory because glibc skips the memset for fresh pages.
 */
public final class LibC {
    private static final MethodHandle MALLOC;
    private static final MethodHandle ALIGNED_ALLOC;
    private static final MethodHandle CALLOC;
    private static final MethodHandle FREE;
    private static final MethodHandle MADVISE;
    private static final long HUGE_PAGE = 2L << 20;
    private static final int MADV_HUGEPAGE = 14;

    static {
        Linker linker = Linker.nativeLinker();
        var lookup = linker.defaultLookup();
        var critical = Linker.Option.critical(false);
        MALLOC = linker.downcallHandle(lookup.find("malloc").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG), critical);
        ALIGNED_ALLOC = linker.downcallHandle(lookup.find("aligned_alloc").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG), critical);
        CALLOC = linker.downcallHandle(lookup.find("calloc").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG), critical);
        FREE = linker.downcallHandle(lookup.find("free").orElseThrow(),
                FunctionDescriptor.ofVoid(ValueLayout.JAVA_LONG), critical);
        MADVISE = lookup.find("madvise").map(f -> linker.downcallHandle(f,
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT),
                critical)).orElse(null);
    }

    /**
     * Asks the kernel to back the 2 MiB-aligned interior of a large block with transparent huge
     * pages (when THP is in {@code madvise} mode): one page fault per 2 MiB instead of per 4 KiB.
     * Advisory; failures are ignored.
     */
    public static void adviseHugePages(long address, long bytes) {
        if (MADVISE == null) return;
        long start = (address + HUGE_PAGE - 1) & -HUGE_PAGE;
        long end = (address + bytes) & -HUGE_PAGE;
        if (end - start < HUGE_PAGE) return;
        try {
            int ignored = (int) MADVISE.invokeExact(start, end - start, MADV_HUGEPAGE);
        } catch (Throwable t) {
            throw new AssertionError("madvise downcall failed", t);
        }
    }

    private LibC() {}

    /** {@code malloc(bytes)}; 0 when the C allocator is out of memory. */
    public static long malloc(long bytes) {
        try {
            return (long) MALLOC.invokeExact(bytes);
        } catch (Throwable t) {
            throw new AssertionError("malloc downcall failed", t);
        }
    }

    /**
     * {@code aligned_alloc(alignment, bytes)}: {@code alignment} a power of two, {@code bytes} a
     * multiple of it; 0 when the C allocator is out of memory.
     */
    public static long alignedAlloc(long alignment, long bytes) {
        try {
            return (long) ALIGNED_ALLOC.invokeExact(alignment, bytes);
        } catch (Throwable t) {
            throw new AssertionError("aligned_alloc downcall failed", t);
        }
    }

    /** {@code calloc(1, bytes)}: zeroed memory; 0 when the C allocator is out of memory. */
    public static long calloc(long bytes) {
        try {
            return (long) CALLOC.invokeExact(1L, bytes);
        } catch (Throwable t) {
            throw new AssertionError("calloc downcall failed", t);
        }
    }

    /** {@code free(address)}; 0 is ignored as in C. */
    public static void free(long address) {
        try {
            FREE.invokeExact(address);
        } catch (Throwable t) {
            throw new AssertionError("free downcall failed", t);
        }
    }
}
