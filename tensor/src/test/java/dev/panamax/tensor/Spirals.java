package dev.panamax.tensor;

import java.util.SplittableRandom;

/** The classic 3-arm spiral: {@code n} points per class in 2-D, with noise, seeded. */
final class Spirals {
    final float[] x;
    final long[] y;

    Spirals(int perClass, int classes, long seed) {
        var rng = new SplittableRandom(seed);
        x = new float[perClass * classes * 2];
        y = new long[perClass * classes];
        for (int c = 0; c < classes; c++) {
            for (int i = 0; i < perClass; i++) {
                double r = (double) i / perClass;
                double angle = c * 4.0 + r * 4.0 + rng.nextGaussian() * 0.2;
                int row = c * perClass + i;
                x[2 * row] = (float) (r * Math.sin(angle));
                x[2 * row + 1] = (float) (r * Math.cos(angle));
                y[row] = c;
            }
        }
    }
}
