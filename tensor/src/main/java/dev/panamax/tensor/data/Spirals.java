package dev.panamax.tensor.data;

import dev.panamax.tensor.Tensor;

import java.util.SplittableRandom;

/**
 * The classic interleaved spirals, a small data set no straight line separates: class {@code k}'s
 * points lie on the arm {@code r * (sin t, cos t)} with {@code r} evenly from 0 to 1 and
 * {@code t} evenly from {@code 4k} to {@code 4k + 4} plus Gaussian noise. The same seed gives the
 * same points; the rows come shuffled (seeded), so any prefix holds every class.
 *
 * <pre>{@code
 * Spirals s = Spirals.generate(1000, 3, 0.2, 0);   // 3,000 points in 2-D, 3 classes
 * Tensor x = s.x();                                 // f32 (3000, 2)
 * Tensor y = s.y();                                 // i64 (3000), labels 0..2
 * }</pre>
 */
public final class Spirals {
    private final float[] points;
    private final long[] labels;
    private final int classes;

    private Spirals(float[] points, long[] labels, int classes) {
        this.points = points;
        this.labels = labels;
        this.classes = classes;
    }

    /**
     * {@code perClass} points on each of {@code classes} arms, noise of standard deviation
     * {@code noise} on the angle (0.2 is the usual), seeded.
     */
    public static Spirals generate(int perClass, int classes, double noise, long seed) {
        if (perClass < 2) throw new IllegalArgumentException("spirals: perClass=" + perClass + ", expected at least 2");
        if (classes < 1) throw new IllegalArgumentException("spirals: classes=" + classes + ", expected at least 1");
        if (!(noise >= 0) || Double.isInfinite(noise)) throw new IllegalArgumentException("spirals: noise=" + noise + ", expected a finite value >= 0");
        int n = Math.multiplyExact(perClass, classes);
        var rng = new SplittableRandom(seed);
        int[] order = new int[n];
        for (int i = 0; i < n; i++) order[i] = i;
        for (int i = n - 1; i > 0; i--) {
            int j = rng.nextInt(i + 1);
            int t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        float[] points = new float[2 * n];
        long[] labels = new long[n];
        for (int k = 0; k < classes; k++) {
            for (int i = 0; i < perClass; i++) {
                double f = (double) i / (perClass - 1);
                double t = 4.0 * k + 4.0 * f + rng.nextGaussian() * noise;
                int row = order[k * perClass + i];
                points[2 * row] = (float) (f * Math.sin(t));
                points[2 * row + 1] = (float) (f * Math.cos(t));
                labels[row] = k;
            }
        }
        return new Spirals(points, labels, classes);
    }

    /** Number of points. */
    public int size() {
        return labels.length;
    }

    /** Number of classes. */
    public int classes() {
        return classes;
    }

    /** The points, row after row ({@code x0, y0, x1, y1, ...}); a copy. */
    public float[] points() {
        return points.clone();
    }

    /** The class of each point; a copy. */
    public long[] labels() {
        return labels.clone();
    }

    /** The points as a new f32 tensor of shape (size, 2), on the current backend. */
    public Tensor x() {
        return Tensor.of(points, labels.length, 2);
    }

    /** The labels as a new i64 tensor of shape (size), on the current backend. */
    public Tensor y() {
        return Tensor.of(labels, labels.length);
    }
}
