package dev.panamax.core.fp16;

import java.lang.foreign.MemorySegment;

/**
 * Bulk conversion between floats and IEEE binary16 halves with a fixed {@link Fp16Strategy} and
 * thread count. Arrays are addressed by element index; segments by byte offset (as in
 * {@link MemorySegment#copy}), holding native-order floats and halves with no alignment needed.
 * Every call checks bounds, a negative count, a read-only destination and overlapping operands
 * before it touches memory, and fails with key=value details.
 *
 * <pre>{@code
 * Fp16Converter.auto().toHalf(weights, 0, halfSegment, 0, weights.length);
 * Fp16Converter.of(Fp16Strategy.NATIVE_STREAMING, 2).toFloat(halfSegment, 0, floatSegment, 0, n);
 * }</pre>
 *
 * Results are bit-identical on every strategy (see {@link Fp16Reference} for the exact semantics).
 */
public final class Fp16Converter {
    /**
     * From this many fp32 bytes, AUTO uses streaming stores. Measured on arrays: at 4 MiB they lose
     * (half to float 26 vs 40 GB/s), at 8 MiB they break even, at 16 MiB they win (float to half
     * 34 vs 26 GB/s, half to float 25 vs 20); at 64 MiB they are what beats a plain copy.
     */
    static final long STREAMING_MIN_BYTES = 16L << 20;
    /** From this many fp32 bytes, AUTO runs the converter's threads. */
    static final long PARALLEL_MIN_BYTES = 32L << 20;
    /**
     * Below this many fp32 bytes (the 2 MiB L2 here), AUTO converts arrays with the JDK loop: in
     * cache it matches F16C on float to half and beats it on half to float (62 vs 54 GB/s at 1 MiB);
     * from 4 MiB the native kernel is ahead (toFloat 40 vs 31 GB/s at 4 MiB, 28 vs 21 at 8 MiB).
     */
    static final long ARRAY_NATIVE_MIN_BYTES = 2L << 20;
    /** Below this many elements, AUTO converts segments in Java: cheaper than one crossing. */
    static final long NATIVE_MIN_COUNT = 32;
    /**
     * Elements per thread in one critical call on heap memory (8 MiB of floats, about 0.4 ms): a
     * critical call holds off safepoints, so long heap conversions are cut into such calls.
     */
    static final long HEAP_CHUNK = 2L << 20;
    /** From this many elements, native-only conversions use a standard call, which lets the GC run. */
    static final long STANDARD_CALL_MIN_COUNT = 1L << 20;

    private static final Fp16Converter AUTO = new Fp16Converter(Fp16Strategy.AUTO, defaultThreads());

    private final Fp16Strategy strategy;
    private final int threads;

    private Fp16Converter(Fp16Strategy strategy, int threads) {
        this.strategy = strategy;
        this.threads = threads;
    }

    /**
     * The default converter: strategy AUTO, threads from {@code -Dpanamax.fp16.threads} (default 2,
     * or 1 on a single-CPU machine), used only for inputs of 32 MiB (fp32 side) or more. Measured
     * at 64 MiB, two streaming threads beat one by 1.1-1.6x in 7 of 8 runs; they need a free core,
     * so under heavy load they tie or lose, and {@code -Dpanamax.fp16.threads=1} turns them off.
     */
    public static Fp16Converter auto() {
        return AUTO;
    }

    /** A converter with the given strategy; {@code threads} (1..64) split native conversions. */
    public static Fp16Converter of(Fp16Strategy strategy, int threads) {
        if (strategy == null) throw new NullPointerException("strategy");
        Fp16Checks.threads(threads);
        if (strategy == Fp16Strategy.JAVA && threads != 1) {
            throw new IllegalArgumentException("fp16 strategy=JAVA threads=" + threads + ": threads apply to native strategies only");
        }
        return new Fp16Converter(strategy, threads);
    }

    /** This converter's strategy. */
    public Fp16Strategy strategy() {
        return strategy;
    }

    /** Threads a native conversion is split over (AUTO: for large inputs only). */
    public int threads() {
        return threads;
    }

    // ------------------------------------------------------------------ float -> half

    /** {@code count} floats from {@code src[srcIndex..]} to halves in {@code dst[dstIndex..]}. */
    public void toHalf(float[] src, int srcIndex, short[] dst, int dstIndex, int count) {
        Fp16Checks.floats("src", src, srcIndex, count);
        Fp16Checks.halves("dst", dst, dstIndex, count);
        if (count == 0) return;
        if (javaLoop(count, true)) {
            Fp16Loops.toHalf(src, srcIndex, dst, dstIndex, count);
        } else {
            convertNative(true, MemorySegment.ofArray(src).asSlice(4L * srcIndex, 4L * count),
                    MemorySegment.ofArray(dst).asSlice(2L * dstIndex, 2L * count), count);
        }
    }

    /** {@code count} floats from {@code src[srcIndex..]} to halves at byte {@code dstOffset} of {@code dst}. */
    public void toHalf(float[] src, int srcIndex, MemorySegment dst, long dstOffset, int count) {
        Fp16Checks.floats("src", src, srcIndex, count);
        toHalf(MemorySegment.ofArray(src), 4L * srcIndex, dst, dstOffset, count);
    }

    /** {@code count} floats at byte {@code srcOffset} of {@code src} to halves in {@code dst[dstIndex..]}. */
    public void toHalf(MemorySegment src, long srcOffset, short[] dst, int dstIndex, int count) {
        Fp16Checks.halves("dst", dst, dstIndex, count);
        toHalf(src, srcOffset, MemorySegment.ofArray(dst), 2L * dstIndex, count);
    }

    /** {@code count} floats at byte {@code srcOffset} of {@code src} to halves at byte {@code dstOffset} of {@code dst}. */
    public void toHalf(MemorySegment src, long srcOffset, MemorySegment dst, long dstOffset, long count) {
        Fp16Checks.segment("src", src, srcOffset, count, 4);
        Fp16Checks.segment("dst", dst, dstOffset, count, 2);
        Fp16Checks.writable(dst);
        if (count == 0) return;
        MemorySegment from = src.asSlice(srcOffset, 4 * count);
        MemorySegment to = dst.asSlice(dstOffset, 2 * count);
        Fp16Checks.disjoint(from, to);
        if (javaLoop(count, false)) Fp16Loops.toHalf(from, 0, to, 0, count);
        else convertNative(true, from, to, count);
    }

    // ------------------------------------------------------------------ half -> float

    /** {@code count} halves from {@code src[srcIndex..]} to floats in {@code dst[dstIndex..]}. */
    public void toFloat(short[] src, int srcIndex, float[] dst, int dstIndex, int count) {
        Fp16Checks.halves("src", src, srcIndex, count);
        Fp16Checks.floats("dst", dst, dstIndex, count);
        if (count == 0) return;
        if (javaLoop(count, true)) {
            Fp16Loops.toFloat(src, srcIndex, dst, dstIndex, count);
        } else {
            convertNative(false, MemorySegment.ofArray(src).asSlice(2L * srcIndex, 2L * count),
                    MemorySegment.ofArray(dst).asSlice(4L * dstIndex, 4L * count), count);
        }
    }

    /** {@code count} halves from {@code src[srcIndex..]} to floats at byte {@code dstOffset} of {@code dst}. */
    public void toFloat(short[] src, int srcIndex, MemorySegment dst, long dstOffset, int count) {
        Fp16Checks.halves("src", src, srcIndex, count);
        toFloat(MemorySegment.ofArray(src), 2L * srcIndex, dst, dstOffset, count);
    }

    /** {@code count} halves at byte {@code srcOffset} of {@code src} to floats in {@code dst[dstIndex..]}. */
    public void toFloat(MemorySegment src, long srcOffset, float[] dst, int dstIndex, int count) {
        Fp16Checks.floats("dst", dst, dstIndex, count);
        toFloat(src, srcOffset, MemorySegment.ofArray(dst), 4L * dstIndex, count);
    }

    /** {@code count} halves at byte {@code srcOffset} of {@code src} to floats at byte {@code dstOffset} of {@code dst}. */
    public void toFloat(MemorySegment src, long srcOffset, MemorySegment dst, long dstOffset, long count) {
        Fp16Checks.segment("src", src, srcOffset, count, 2);
        Fp16Checks.segment("dst", dst, dstOffset, count, 4);
        Fp16Checks.writable(dst);
        if (count == 0) return;
        MemorySegment from = src.asSlice(srcOffset, 2 * count);
        MemorySegment to = dst.asSlice(dstOffset, 4 * count);
        Fp16Checks.disjoint(from, to);
        if (javaLoop(count, false)) Fp16Loops.toFloat(from, 0, to, 0, count);
        else convertNative(false, from, to, count);
    }

    // ------------------------------------------------------------------ paths

    private boolean javaLoop(long count, boolean arrays) {
        return switch (strategy) {
            case JAVA -> true;
            case NATIVE, NATIVE_STREAMING -> false;
            // C2 vectorizes the array loop, as fast as F16C while the data is in L2; the segment
            // loop stays scalar, so segments leave Java as soon as a crossing pays.
            case AUTO -> arrays ? 4 * count < ARRAY_NATIVE_MIN_BYTES : count < NATIVE_MIN_COUNT;
        };
    }

    private int flags(long count) {
        return switch (strategy) {
            case NATIVE_STREAMING -> Fp16Native.STREAM;
            case AUTO -> 4 * count >= STREAMING_MIN_BYTES ? Fp16Native.STREAM : 0;
            default -> 0;
        };
    }

    private int threadsFor(long count) {
        return strategy == Fp16Strategy.AUTO && 4 * count < PARALLEL_MIN_BYTES ? 1 : threads;
    }

    private void convertNative(boolean toHalf, MemorySegment src, MemorySegment dst, long count) {
        int flags = flags(count);
        int threads = threadsFor(count);
        if (src.isNative() && dst.isNative()) {
            call(toHalf, src, dst, count, flags, threads, count < STANDARD_CALL_MIN_COUNT);
            return;
        }
        long srcBytes = toHalf ? 4 : 2;
        long dstBytes = toHalf ? 2 : 4;
        long chunk = HEAP_CHUNK * threads;
        for (long done = 0; done < count; done += chunk) {
            long n = Math.min(chunk, count - done);
            call(toHalf, src.asSlice(done * srcBytes, n * srcBytes), dst.asSlice(done * dstBytes, n * dstBytes), n, flags, threads, true);
        }
    }

    private static void call(boolean toHalf, MemorySegment src, MemorySegment dst, long count, int flags, int threads, boolean critical) {
        if (toHalf) Fp16Native.toHalf(src, dst, count, flags, threads, critical);
        else Fp16Native.toFloat(src, dst, count, flags, threads, critical);
    }

    private static int defaultThreads() {
        return dev.panamax.core.CoreSettings.FP16_THREADS.get();
    }

    @Override
    public String toString() {
        return "Fp16Converter[strategy=" + strategy + " threads=" + threads + "]";
    }
}
