package dev.panamax.cli.demo;

import dev.panamax.tensor.DType;
import dev.panamax.tensor.Npy;
import dev.panamax.tensor.Tensor;
import dev.panamax.tensor.TensorScope;
import dev.panamax.tensor.data.Spirals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Points with class labels, held in Java arrays: {@code n} rows of {@code d} float features
 * ({@code x}, row-major) and one class in {@code [0, classes)} per row ({@code y}).
 *
 * <pre>{@code
 * LabeledData spiral = LabeledData.spirals(0);                     // 3 classes, 3,000 points in 2-D
 * LabeledData mine = LabeledData.load(Path.of("data.npz"));        // np.savez("data.npz", x=x, y=y)
 * LabeledData.Split s = mine.split(0.2, 0);                         // 80% train, 20% validation
 * }</pre>
 */
public record LabeledData(String description, float[] x, long[] y, int n, int d, int classes) {
    /**
     * Mixed into the seed of the split, so that the split's shuffle is not the one that placed the
     * generated spiral's rows (the same seed would put one class alone in the validation rows).
     */
    static final long SPLIT_SALT = 0x5B11_7A11_D5EEDL;

    /** Points per class of the generated spiral. */
    static final int SPIRAL_POINTS_PER_CLASS = 1000;

    public LabeledData {
        if (x.length != (long) n * d || y.length != n) {
            throw new IllegalArgumentException("labeled data: x has " + x.length + " values and y " + y.length
                    + " labels; expected n*d = " + (long) n * d + " and n = " + n);
        }
    }

    /** Training and validation rows, disjoint. */
    public record Split(LabeledData train, LabeledData validation) {}

    /** The generated 3-class spiral (embedded: nothing is downloaded), seeded. */
    public static LabeledData spirals(long seed) {
        Spirals s = Spirals.generate(SPIRAL_POINTS_PER_CLASS, 3, 0.2, seed);
        return new LabeledData("3-class spiral (generated, seed " + seed + ")", s.points(), s.labels(), s.size(), 2, s.classes());
    }

    /**
     * Reads a NumPy {@code .npz} archive holding a float array {@code x} of shape (n, d) and an
     * integer array {@code y} of n class labels (0, 1, ...).
     *
     * @throws DataFileException naming the file, what is wrong and what was expected
     */
    public static LabeledData load(Path file) throws DataFileException {
        if (!Files.exists(file)) throw new DataFileException(file, "no such file");
        if (Files.isDirectory(file)) throw new DataFileException(file, "is a directory, not a .npz file");
        // everything read or converted here is freed when the scope closes; only Java arrays leave it
        try (var _ = TensorScope.open()) {
            Map<String, Tensor> arrays;
            try {
                arrays = Npy.readNpz(file);
            } catch (NoSuchFileException e) {
                throw new DataFileException(file, "no such file");
            } catch (IOException | RuntimeException e) {
                String why = String.valueOf(e.getMessage());
                if (why.startsWith(file + ": ")) why = why.substring(file.toString().length() + 2); // named once, in front
                throw new DataFileException(file, "cannot be read as a NumPy .npz archive: " + why);
            }
            return fromArrays(file, arrays);
        }
    }

    private static LabeledData fromArrays(Path file, Map<String, Tensor> arrays) throws DataFileException {
        if (arrays.isEmpty()) {
            throw new DataFileException(file, "holds no arrays (is it a .npz archive?); " + DataFileException.EXPECTED);
        }
        Tensor xs = arrays.get("x"), ys = arrays.get("y");
        if (xs == null || ys == null) {
            throw new DataFileException(file, "has no array named '" + (xs == null ? "x" : "y") + "' (it holds "
                    + arrays.keySet() + "); " + DataFileException.EXPECTED);
        }
        if (!xs.dtype().isFloating()) {
            throw new DataFileException(file, "x is " + xs.dtype().label() + " " + xs.shape()
                    + "; expected a float array (float16, float32 or float64; in NumPy: x.astype(np.float32))");
        }
        if (xs.rank() != 2 || xs.dim(0) == 0 || xs.dim(1) == 0) {
            throw new DataFileException(file, "x has shape " + xs.shape() + "; expected (n, d) with n >= 1 rows and d >= 1 features");
        }
        if (ys.dtype().isFloating()) {
            throw new DataFileException(file, "y is " + ys.dtype().label() + " " + ys.shape()
                    + "; expected integer class labels 0, 1, ... (in NumPy: y.astype(np.int64))");
        }
        int n = xs.dim(0), d = xs.dim(1);
        if (ys.rank() != 1 || ys.dim(0) != n) {
            throw new DataFileException(file, "y has shape " + ys.shape() + "; expected (" + n + "), one label per row of x " + xs.shape());
        }
        if (n < 2) throw new DataFileException(file, "has " + n + " row; expected at least 2 (some to train on, some to validate)");
        float[] x = xs.cast(DType.F32).toFloatArray();
        for (int i = 0; i < x.length; i++) {
            if (!Float.isFinite(x[i])) {
                throw new DataFileException(file, "x[" + i / d + ", " + i % d + "] is " + x[i] + "; expected finite numbers");
            }
        }
        long[] y = ys.toLongArray();
        long max = 0;
        for (int i = 0; i < n; i++) {
            if (y[i] < 0) throw new DataFileException(file, "y[" + i + "] is " + y[i] + "; expected class labels 0, 1, ...");
            max = Math.max(max, y[i]);
        }
        if (max < 1) throw new DataFileException(file, "y has a single class (" + max + "); expected at least 2 classes");
        if (max >= 100_000) {
            throw new DataFileException(file, "y has a label of " + max + "; expected class labels 0, 1, ... below 100000");
        }
        String name = file.getFileName() == null ? file.toString() : file.getFileName().toString();
        return new LabeledData(name, x, y, n, d, (int) max + 1);
    }

    /**
     * A seeded random split: {@code validationFraction} of the rows (at least one) for validation,
     * the rest (at least one) for training.
     */
    public Split split(double validationFraction, long seed) {
        if (!(validationFraction > 0 && validationFraction < 1)) {
            throw new IllegalArgumentException("validation fraction " + validationFraction + ": expected between 0 and 1");
        }
        int[] order = new int[n];
        for (int i = 0; i < n; i++) order[i] = i;
        var rng = new SplittableRandom(seed ^ SPLIT_SALT);
        for (int i = n - 1; i > 0; i--) {
            int j = rng.nextInt(i + 1);
            int t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        int validation = (int) Math.min(n - 1, Math.max(1, Math.round(n * validationFraction)));
        return new Split(rows(Arrays.copyOfRange(order, validation, n), "training"),
                rows(Arrays.copyOfRange(order, 0, validation), "validation"));
    }

    private LabeledData rows(int[] which, String part) {
        float[] xs = new float[which.length * d];
        long[] ys = new long[which.length];
        for (int i = 0; i < which.length; i++) {
            System.arraycopy(x, which[i] * d, xs, i * d, d);
            ys[i] = y[which[i]];
        }
        return new LabeledData(description + ", " + part, xs, ys, which.length, d, classes);
    }

    /** The features as a new f32 tensor (n, d) on the current backend. */
    public Tensor features() {
        return Tensor.of(x, n, d);
    }

    /** The labels as a new i64 tensor (n) on the current backend. */
    public Tensor labels() {
        return Tensor.of(y, n);
    }
}
