package dev.panamax.tensor.reference;

import dev.panamax.core.fp16.Fp16;
import dev.panamax.tensor.DType;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** Reads and writes one element of any dtype: floating types as double, integers as long. */
final class Elements {
    private Elements() {}

    static double get(MemorySegment s, DType t, long i) {
        return switch (t) {
            case F32 -> s.getAtIndex(ValueLayout.JAVA_FLOAT, i);
            case F16 -> Fp16.toFloat(s.getAtIndex(ValueLayout.JAVA_SHORT, i));
            case I32 -> s.getAtIndex(ValueLayout.JAVA_INT, i);
            case I64 -> s.getAtIndex(ValueLayout.JAVA_LONG, i);
        };
    }

    static long getLong(MemorySegment s, DType t, long i) {
        return switch (t) {
            case I32 -> s.getAtIndex(ValueLayout.JAVA_INT, i);
            case I64 -> s.getAtIndex(ValueLayout.JAVA_LONG, i);
            case F32, F16 -> (long) get(s, t, i);
        };
    }

    /**
     * Stores {@code v}: rounded to nearest even for f32/f16; for integers Java's narrowing
     * conversion (truncated toward zero, NaN becomes 0, values beyond the type's range saturate at
     * its bounds), the rule every backend follows.
     */
    static void set(MemorySegment s, DType t, long i, double v) {
        switch (t) {
            case F32 -> s.setAtIndex(ValueLayout.JAVA_FLOAT, i, (float) v);
            case F16 -> s.setAtIndex(ValueLayout.JAVA_SHORT, i, Fp16.toHalf((float) v));
            case I32 -> s.setAtIndex(ValueLayout.JAVA_INT, i, (int) v);
            case I64 -> s.setAtIndex(ValueLayout.JAVA_LONG, i, (long) v);
        }
    }

    /** Stores integer {@code v}: the low bits for integer types (two's complement wrap), one rounding to float otherwise. */
    static void setLong(MemorySegment s, DType t, long i, long v) {
        switch (t) {
            case I32 -> s.setAtIndex(ValueLayout.JAVA_INT, i, (int) v);
            case I64 -> s.setAtIndex(ValueLayout.JAVA_LONG, i, v);
            case F32 -> s.setAtIndex(ValueLayout.JAVA_FLOAT, i, (float) v);
            case F16 -> s.setAtIndex(ValueLayout.JAVA_SHORT, i, Fp16.toHalf((float) v));
        }
    }
}
