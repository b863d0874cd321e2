package dev.panamax.cli.demo;

import dev.panamax.tensor.Tensor;

import java.util.Arrays;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * Procedurally drawn 16x16 grey images of shape outlines (square, circle, triangle, cross) of random
 * size and place, with a little noise; {@code labels[i]} is the shape of image {@code i}.
 */
record ShapeImages(float[] pixels, int[] labels) {
    static final int SIZE = 16;
    static final List<String> NAMES = List.of("square", "circle", "triangle", "cross");
    static final int CLASSES = NAMES.size();

    static ShapeImages draw(int n, RandomGenerator rng) {
        float[] pixels = new float[n * SIZE * SIZE];
        int[] labels = new int[n];
        for (int i = 0; i < n; i++) {
            labels[i] = rng.nextInt(CLASSES);
            float[] image = new float[SIZE * SIZE];
            double r = 3 + rng.nextDouble() * 3.5, cx = r + 1 + rng.nextDouble() * (SIZE - 2 * r - 2), cy = r + 1 + rng.nextDouble() * (SIZE - 2 * r - 2);
            for (int y = 0; y < SIZE; y++) {
                for (int x = 0; x < SIZE; x++) {
                    double dx = x - cx, dy = y - cy;
                    boolean on = switch (labels[i]) {
                        case 0 -> Math.abs(Math.max(Math.abs(dx), Math.abs(dy)) - r) < 0.6;
                        case 1 -> Math.abs(Math.hypot(dx, dy) - r) < 0.6;
                        case 2 -> (Math.abs(dy - r) < 0.6 && Math.abs(dx) <= r) || (dy <= r + 0.5 && dy >= -r - 0.5
                                && Math.abs(Math.abs(dx) - (dy + r) / 2) < 0.6);
                        default -> (Math.abs(dx) < 0.6 || Math.abs(dy) < 0.6) && Math.abs(dx) <= r && Math.abs(dy) <= r;
                    };
                    image[y * SIZE + x] = (on ? 1f : 0f) + (float) (rng.nextGaussian() * 0.1);
                }
            }
            System.arraycopy(image, 0, pixels, i * SIZE * SIZE, SIZE * SIZE);
        }
        return new ShapeImages(pixels, labels);
    }

    int n() {
        return labels.length;
    }

    int label(int i) {
        return labels[i];
    }

    /** Images {@code first .. first + count - 1} as {@code (count, 1, 16, 16)}. */
    Tensor images(int first, int count) {
        return Tensor.of(Arrays.copyOfRange(pixels, first * SIZE * SIZE, (first + count) * SIZE * SIZE), count, 1, SIZE, SIZE);
    }

    /** Their labels, {@code (count)} int64. */
    Tensor labels(int first, int count) {
        long[] l = new long[count];
        for (int i = 0; i < count; i++) l[i] = labels[first + i];
        return Tensor.of(l, count);
    }
}
