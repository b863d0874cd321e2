package dev.panamax.core.fp16;

import java.lang.foreign.MemorySegment;

/**
 * IEEE binary16 ("half", fp16) conversion: one value at a time, or in bulk at memory bandwidth.
 *
 * <pre>{@code
 * short h = Fp16.toHalf(1.5f);                       // 0x3e00
 * short[] halves = Fp16.toHalf(weights);             // float[] -> short[]
 * Fp16.toFloat(halfSegment, 0, floatSegment, 0, n);  // native memory, byte offsets
 * }</pre>
 *
 * Round to nearest even; -0, infinities and subnormals are kept; a NaN stays a NaN (quieted, see
 * {@link Fp16Reference}). Bulk methods use {@link Fp16Converter#auto()}, which picks the fastest
 * measured path for the operands and size; segments hold native-order values at byte offsets.
 */
public final class Fp16 {
    private Fp16() {}

    /** The half nearest to {@code value}, as its 16 bits (the JDK intrinsic: F16C on x86-64). */
    public static short toHalf(float value) {
        return Float.floatToFloat16(value);
    }

    /** The float equal to the half {@code half}. */
    public static float toFloat(short half) {
        return Float.float16ToFloat(half);
    }

    /** A new array with the halves of every float in {@code src}. */
    public static short[] toHalf(float[] src) {
        short[] dst = new short[src.length];
        Fp16Converter.auto().toHalf(src, 0, dst, 0, src.length);
        return dst;
    }

    /** A new array with the floats of every half in {@code src}. */
    public static float[] toFloat(short[] src) {
        float[] dst = new float[src.length];
        Fp16Converter.auto().toFloat(src, 0, dst, 0, src.length);
        return dst;
    }

    /** See {@link Fp16Converter#toHalf(float[], int, short[], int, int)}. */
    public static void toHalf(float[] src, int srcIndex, short[] dst, int dstIndex, int count) {
        Fp16Converter.auto().toHalf(src, srcIndex, dst, dstIndex, count);
    }

    /** See {@link Fp16Converter#toHalf(float[], int, MemorySegment, long, int)}. */
    public static void toHalf(float[] src, int srcIndex, MemorySegment dst, long dstOffset, int count) {
        Fp16Converter.auto().toHalf(src, srcIndex, dst, dstOffset, count);
    }

    /** See {@link Fp16Converter#toHalf(MemorySegment, long, short[], int, int)}. */
    public static void toHalf(MemorySegment src, long srcOffset, short[] dst, int dstIndex, int count) {
        Fp16Converter.auto().toHalf(src, srcOffset, dst, dstIndex, count);
    }

    /** See {@link Fp16Converter#toHalf(MemorySegment, long, MemorySegment, long, long)}. */
    public static void toHalf(MemorySegment src, long srcOffset, MemorySegment dst, long dstOffset, long count) {
        Fp16Converter.auto().toHalf(src, srcOffset, dst, dstOffset, count);
    }

    /** See {@link Fp16Converter#toFloat(short[], int, float[], int, int)}. */
    public static void toFloat(short[] src, int srcIndex, float[] dst, int dstIndex, int count) {
        Fp16Converter.auto().toFloat(src, srcIndex, dst, dstIndex, count);
    }

    /** See {@link Fp16Converter#toFloat(short[], int, MemorySegment, long, int)}. */
    public static void toFloat(short[] src, int srcIndex, MemorySegment dst, long dstOffset, int count) {
        Fp16Converter.auto().toFloat(src, srcIndex, dst, dstOffset, count);
    }

    /** See {@link Fp16Converter#toFloat(MemorySegment, long, float[], int, int)}. */
    public static void toFloat(MemorySegment src, long srcOffset, float[] dst, int dstIndex, int count) {
        Fp16Converter.auto().toFloat(src, srcOffset, dst, dstIndex, count);
    }

    /** See {@link Fp16Converter#toFloat(MemorySegment, long, MemorySegment, long, long)}. */
    public static void toFloat(MemorySegment src, long srcOffset, MemorySegment dst, long dstOffset, long count) {
        Fp16Converter.auto().toFloat(src, srcOffset, dst, dstOffset, count);
    }
}
