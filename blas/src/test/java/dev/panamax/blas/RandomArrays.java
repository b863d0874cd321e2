package dev.panamax.blas;

import java.util.Random;

/** Uniform values in [-1, 1) for the BLAS tests, the same sequence for a given seed. */
class RandomArrays {
    final Random rnd;

    RandomArrays(long seed) {
        rnd = new Random(seed);
    }

    float[] floats(int n) {
        float[] a = new float[n];
        for (int i = 0; i < n; i++) a[i] = rnd.nextFloat() * 2 - 1;
        return a;
    }

    double[] doubles(int n) {
        double[] a = new double[n];
        for (int i = 0; i < n; i++) a[i] = rnd.nextDouble() * 2 - 1;
        return a;
    }
}
