package dev.panamax.core.fp16;

/**
 * The exact reference conversion between IEEE binary32 and binary16, written with integer bit
 * manipulation only. It is the oracle every fast path (the JDK loops, the F16C and portable C
 * kernels) is tested against; it is slow and not meant for bulk work.
 *
 * <p>Semantics are those of the x86 F16C instructions (and of HotSpot's intrinsics for
 * {@link Float#floatToFloat16} / {@link Float#float16ToFloat}): round to nearest, ties to even;
 * signed zeros, infinities and subnormals kept; a NaN stays a NaN of the same sign whose payload is
 * truncated to the high bits and whose quiet bit is set.
 */
public final class Fp16Reference {
    private Fp16Reference() {}

    /** The binary16 value nearest to {@code value} (ties to even), as its 16 bits. */
    public static short toHalf(float value) {
        int bits = Float.floatToRawIntBits(value);
        int sign = (bits >>> 16) & 0x8000;
        int abs = bits & 0x7fff_ffff;
        if (abs > 0x7f80_0000) {                          // NaN: quiet it, keep the top payload bits
            return (short) (sign | 0x7e00 | ((abs >>> 13) & 0x3ff));
        }
        if (abs >= 0x477f_f000) {                         // >= 65520 = max half + 1/2 ulp: overflows to Inf
            return (short) (sign | 0x7c00);
        }
        if (abs >= 0x3880_0000) {                         // >= 2^-14: a normal half
            int rebiased = abs - (112 << 23);             // exponent bias 127 -> 15
            int lsb = (rebiased >>> 13) & 1;
            return (short) (sign | ((rebiased + 0xfff + lsb) >>> 13));
        }
        if (abs <= 0x3300_0000) {                         // <= 2^-25: the tie at 2^-25 goes to even zero
            return (short) sign;
        }
        int exponent = abs >>> 23;                        // 102..112: a subnormal half
        int significand = (abs & 0x7f_ffff) | 0x80_0000;
        int shift = 126 - exponent;                       // 14..24
        int quotient = significand >>> shift;
        int remainder = significand & ((1 << shift) - 1);
        int halfway = 1 << (shift - 1);
        if (remainder > halfway || (remainder == halfway && (quotient & 1) != 0)) {
            quotient++;                                   // may carry into the smallest normal, which is right
        }
        return (short) (sign | quotient);
    }

    /** The float equal to the binary16 value {@code half} (exact; a NaN comes back quiet). */
    public static float toFloat(short half) {
        int h = half & 0xffff;
        int sign = (h & 0x8000) << 16;
        int exponent = (h >>> 10) & 0x1f;
        int significand = h & 0x3ff;
        int bits;
        if (exponent == 0x1f) {                           // Inf, or NaN with the quiet bit set
            bits = sign | 0x7f80_0000 | (significand << 13) | (significand != 0 ? 0x40_0000 : 0);
        } else if (exponent != 0) {                       // normal
            bits = sign | ((exponent + 112) << 23) | (significand << 13);
        } else if (significand == 0) {                    // signed zero
            bits = sign;
        } else {                                          // subnormal half: a normal float
            int shift = Integer.numberOfLeadingZeros(significand) - 21;   // leading 1 to bit 10
            bits = sign | ((113 - shift) << 23) | (((significand << shift) & 0x3ff) << 13);
        }
        return Float.intBitsToFloat(bits);
    }
}
