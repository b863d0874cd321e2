package dev.panamax.core.fp16;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

class Fp16ReferenceTest {
    private static String hex(int bits) {
        return String.format("0x%08x", bits);
    }

    @Test
    void goldenValues() {
        assertEquals(0x3e00, Fp16Reference.toHalf(1.5f));
        assertEquals(0x7bff, Fp16Reference.toHalf(65504f));                  // max half
        assertEquals(0x7bff, Fp16Reference.toHalf(65519.996f));              // just below the overflow tie
        assertEquals(0x7c00, Fp16Reference.toHalf(65520f));                  // tie rounds to even = Inf
        assertEquals((short) 0xfc00, Fp16Reference.toHalf(Float.NEGATIVE_INFINITY));
        assertEquals(0x3c00, Fp16Reference.toHalf(1f + 0x1p-11f));           // tie, down to even
        assertEquals(0x3c02, Fp16Reference.toHalf(1f + 0x3p-11f));           // tie, up to even
        assertEquals(0x0001, Fp16Reference.toHalf(0x1p-24f));                // smallest subnormal
        assertEquals(0x0000, Fp16Reference.toHalf(0x1p-25f));                // tie, down to even zero
        assertEquals(0x0001, Fp16Reference.toHalf(Math.nextUp(0x1p-25f)));
        assertEquals(0x0003, Fp16Reference.toHalf(0x1.8p-23f));              // 1.5 * 2^-23 = 3 * 2^-24, exact
        assertEquals(0x0002, Fp16Reference.toHalf(0x1.8p-24f));              // tie 1.5 ulp, up to even
        assertEquals(0x0400, Fp16Reference.toHalf(Math.nextDown(0x1p-14f))); // rounds up into the smallest normal
        assertEquals((short) 0x8000, Fp16Reference.toHalf(-0f));
        assertEquals((short) 0x8000, Fp16Reference.toHalf(-Float.MIN_VALUE));
        assertEquals(0x7e00, Fp16Reference.toHalf(Float.NaN));
        assertEquals(0x7e00, Fp16Reference.toHalf(Float.intBitsToFloat(0x7f800001)));  // signalling NaN quieted
        assertEquals((short) 0xfe01, Fp16Reference.toHalf(Float.intBitsToFloat(0xff802000)));

        assertEquals(1.5f, Fp16Reference.toFloat((short) 0x3e00));
        assertEquals(0x1p-24f, Fp16Reference.toFloat((short) 0x0001));
        assertEquals(0x1.ff8p-15f, Fp16Reference.toFloat((short) 0x03ff));  // largest subnormal
        assertEquals(Float.floatToRawIntBits(-0f), Float.floatToRawIntBits(Fp16Reference.toFloat((short) 0x8000)));
        assertEquals(0x7fc02000, Float.floatToRawIntBits(Fp16Reference.toFloat((short) 0x7c01)));
    }

    @Test
    void everyHalfWidensLikeTheJdkAndRoundTrips() {
        for (int i = 0; i < 65536; i++) {
            short h = (short) i;
            float ref = Fp16Reference.toFloat(h);
            float jdk = Float.float16ToFloat(h);
            assertEquals(Float.floatToRawIntBits(jdk), Float.floatToRawIntBits(ref), () -> "half=" + hex(h & 0xffff));
            // every half survives the round trip; a signalling NaN comes back quiet (bit 9 set), as in the JDK
            boolean nan = (i & 0x7c00) == 0x7c00 && (i & 0x3ff) != 0;
            short expected = (short) (nan ? i | 0x200 : i);
            assertEquals(expected, Fp16Reference.toHalf(ref), () -> "half=" + hex(h & 0xffff));
            assertEquals(expected, Float.floatToFloat16(jdk), () -> "half=" + hex(h & 0xffff));
        }
    }

    @Test
    void tenMillionFloatsNarrowLikeTheJdk() {
        float[] f = Fp16Samples.floats();
        for (float v : f) {
            short ref = Fp16Reference.toHalf(v);
            short jdk = Float.floatToFloat16(v);
            if (ref != jdk) {
                fail("float=" + hex(Float.floatToRawIntBits(v)) + " reference=" + hex(ref & 0xffff) + " jdk=" + hex(jdk & 0xffff));
            }
        }
    }
}
