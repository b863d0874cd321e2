package dev.panamax.core.fp16;

import java.util.SplittableRandom;

/** Test inputs: every half, and 10 million floats with every special value and rounding boundary. */
final class Fp16Samples {
    static final int RANDOM_FLOATS = 10_000_000;
    private static float[] floats;

    private Fp16Samples() {}

    /** The 65,536 half bit patterns, 0x0000 to 0xffff. */
    static short[] allHalves() {
        short[] h = new short[65536];
        for (int i = 0; i < h.length; i++) h[i] = (short) i;
        return h;
    }

    /**
     * 10,000,000 floats (seed fixed): specials, every half value, every tie between neighbouring
     * halves and the floats one ulp either side of it, then random bit patterns (all of float,
     * NaNs included) and random values in and around the half range.
     */
    static synchronized float[] floats() {
        if (floats != null) return floats;
        float[] f = new float[RANDOM_FLOATS];
        int n = 0;
        float[] specials = {0f, -0f, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, Float.NaN,
                Float.intBitsToFloat(0x7f800001), Float.intBitsToFloat(0xff800001), Float.intBitsToFloat(0x7fbfffff),
                Float.intBitsToFloat(0x7fc00000), Float.intBitsToFloat(0xffffffff), Float.intBitsToFloat(0x7f802000),
                Float.intBitsToFloat(0x7f801fff), Float.MIN_VALUE, -Float.MIN_VALUE, Float.MAX_VALUE, -Float.MAX_VALUE,
                Float.MIN_NORMAL, 65504f, 65519.996f, 65520f, -65520f, 0x1p-14f, Math.nextDown(0x1p-14f),
                Math.nextUp(0x1p-14f), 0x1p-24f, 0x1p-25f, Math.nextUp(0x1p-25f), Math.nextDown(0x1p-25f),
                0x1.8p-24f, 0x1.8p-25f, 1f, 1.5f, 1f + 0x1p-11f, 1f + 0x3p-11f, 0x1.ffep15f};
        for (float s : specials) f[n++] = s;
        for (int h = 0; h < 65536; h++) {
            float value = Float.float16ToFloat((short) h);
            f[n++] = value;
            if (Float.isFinite(value) && (h & 0x7fff) != 0x7bff) {
                // the exact tie between this half and the next one away from zero, and its neighbours
                float next = Float.float16ToFloat((short) (h + 1));
                float tie = (float) (((double) value + next) / 2);
                f[n++] = tie;
                f[n++] = Math.nextUp(tie);
                f[n++] = Math.nextDown(tie);
            }
        }
        SplittableRandom random = new SplittableRandom(20250101L);
        while (n < f.length) {
            if ((n & 1) == 0) {
                f[n++] = Float.intBitsToFloat(random.nextInt());
            } else {
                int sign = random.nextInt(2) << 31;
                int exponent = random.nextInt(98, 146);   // 2^-29 .. 2^18: around every half boundary
                f[n++] = Float.intBitsToFloat(sign | exponent << 23 | random.nextInt(1 << 23));
            }
        }
        floats = f;
        return f;
    }
}
