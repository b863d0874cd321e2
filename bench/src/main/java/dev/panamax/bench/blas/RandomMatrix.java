package dev.panamax.bench.blas;

import java.util.Random;

/** Matrices of uniform floats in [-0.5, 0.5) for the product benchmarks, the same for a given seed. */
final class RandomMatrix {
    private RandomMatrix() {}

    /** An n×n matrix (n·n floats). */
    static float[] square(int n, long seed) {
        Random rnd = new Random(seed);
        float[] m = new float[n * n];
        for (int i = 0; i < m.length; i++) m[i] = rnd.nextFloat() - 0.5f;
        return m;
    }
}
