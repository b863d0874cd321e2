package dev.panamax.core.fp16;

import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_FLOAT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_SHORT_UNALIGNED;

/**
 * The JDK conversions in plain loops. Over arrays C2 turns these into F16C / AVX-512 vector code;
 * over segments (JDK 25) they stay scalar, which is why segments go to the native kernel.
 */
final class Fp16Loops {
    private Fp16Loops() {}

    static void toHalf(float[] src, int srcIndex, short[] dst, int dstIndex, int count) {
        for (int i = 0; i < count; i++) dst[dstIndex + i] = Float.floatToFloat16(src[srcIndex + i]);
    }

    static void toFloat(short[] src, int srcIndex, float[] dst, int dstIndex, int count) {
        for (int i = 0; i < count; i++) dst[dstIndex + i] = Float.float16ToFloat(src[srcIndex + i]);
    }

    static void toHalf(MemorySegment src, long srcOffset, MemorySegment dst, long dstOffset, long count) {
        for (long i = 0; i < count; i++) {
            dst.set(JAVA_SHORT_UNALIGNED, dstOffset + 2 * i, Float.floatToFloat16(src.get(JAVA_FLOAT_UNALIGNED, srcOffset + 4 * i)));
        }
    }

    static void toFloat(MemorySegment src, long srcOffset, MemorySegment dst, long dstOffset, long count) {
        for (long i = 0; i < count; i++) {
            dst.set(JAVA_FLOAT_UNALIGNED, dstOffset + 4 * i, Float.float16ToFloat(src.get(JAVA_SHORT_UNALIGNED, srcOffset + 2 * i)));
        }
    }
}
