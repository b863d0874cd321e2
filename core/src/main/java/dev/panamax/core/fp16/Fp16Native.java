package dev.panamax.core.fp16;

import dev.panamax.core.CoreLibrary;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The libpanamax fp16 kernels ({@code core/src/main/c/fp16.c}): F16C chosen at run time, a portable
 * C fallback, optional streaming stores and native threads. Linked lazily, so scalar and
 * Java-loop conversions never load the library.
 */
final class Fp16Native {
    /** Flag bits of {@code pmx_fp16_from_f32} / {@code pmx_fp16_to_f32}, as in fp16.c. */
    static final int STREAM = 1;
    static final int PORTABLE = 2;

    private Fp16Native() {}

    private static final class Handles {
        private static final FunctionDescriptor CONVERT = FunctionDescriptor.ofVoid(ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT, JAVA_INT);
        // CRITICAL_HEAP: no thread-state transition and heap arrays passed in place. Holds off
        // safepoints for the call, so callers keep each call short (see Fp16Converter.HEAP_CHUNK).
        static final MethodHandle FROM_F32_CRITICAL = link("pmx_fp16_from_f32", Linker.Option.critical(true));
        static final MethodHandle TO_F32_CRITICAL = link("pmx_fp16_to_f32", Linker.Option.critical(true));
        // STANDARD: for long calls on native memory, so the GC is never kept waiting.
        static final MethodHandle FROM_F32 = link("pmx_fp16_from_f32");
        static final MethodHandle TO_F32 = link("pmx_fp16_to_f32");
        static final boolean F16C;

        static {
            MethodHandle kernel = Linker.nativeLinker().downcallHandle(CoreLibrary.symbol("pmx_fp16_kernel"),
                    FunctionDescriptor.of(JAVA_INT), Linker.Option.critical(false));
            try {
                F16C = (int) kernel.invokeExact() == 1;
            } catch (Throwable t) {
                throw new ExceptionInInitializerError(t);
            }
        }

        private static MethodHandle link(String name, Linker.Option... options) {
            return Linker.nativeLinker().downcallHandle(CoreLibrary.symbol(name), CONVERT, options);
        }
    }

    /** True when the kernels run on F16C (false: the portable C path). */
    static boolean f16c() {
        return Handles.F16C;
    }

    /**
     * {@code count} floats at {@code src} to halves at {@code dst}. Heap segments need
     * {@code critical}; the caller has checked bounds, overlap and read-only.
     */
    static void toHalf(MemorySegment src, MemorySegment dst, long count, int flags, int threads, boolean critical) {
        try {
            if (critical) Handles.FROM_F32_CRITICAL.invokeExact(src, dst, count, flags, threads);
            else Handles.FROM_F32.invokeExact(src, dst, count, flags, threads);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("pmx_fp16_from_f32 failed: count=" + count, t);
        }
    }

    /** {@code count} halves at {@code src} to floats at {@code dst}; as {@link #toHalf}. */
    static void toFloat(MemorySegment src, MemorySegment dst, long count, int flags, int threads, boolean critical) {
        try {
            if (critical) Handles.TO_F32_CRITICAL.invokeExact(src, dst, count, flags, threads);
            else Handles.TO_F32.invokeExact(src, dst, count, flags, threads);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("pmx_fp16_to_f32 failed: count=" + count, t);
        }
    }
}
