package dev.panamax.tensor.misuse;

import dev.panamax.tensor.Backends;
import dev.panamax.tensor.DType;
import dev.panamax.tensor.Shape;
import dev.panamax.tensor.Tensor;
import dev.panamax.tensor.TensorScope;
import dev.panamax.tensor.spi.Backend;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * Random tensor ops, valid and not, from several threads at once (each thread its own tensors): every
 * op runs on the {@code cpu} backend and on the {@code reference} oracle over the same inputs (every
 * dtype, empty and broadcast shapes, NaN, infinities, integer extremes), and both must end the same:
 * one dtype, one shape and the same values (integers exactly, floats to rounding, NaN for NaN), or
 * both an {@link IllegalArgumentException} with the same message. Any other exception, a crash or a
 * disagreement fails the run (exit 1).
 *
 * <p>Half the ops also run backward from {@code sum(result)} and compare every input's gradient.
 *
 * <p>Arguments: seed, threads (4), operations per thread (300). The seed is printed first; the same
 * seed draws the same operations per thread.
 */
public final class RandomTensorOps {
    private static final DType[] DTYPES = DType.values();
    private static final String[] OPS = {"add", "sub", "mul", "div", "pow", "maximum", "minimum", "eq", "lt", "where",
            "add double", "mul double", "mul long", "div long", "gt double", "lt long", "pow double", "cast", "relu", "exp",
            "neg", "abs", "sum", "sum all", "mean", "max", "min", "argmax", "softmax", "logSoftmax", "layerNorm", "matmul",
            "arange", "arange count", "full", "zeros", "reshape", "indexSelect", "crossEntropy", "fill", "addInPlace long", "mulInPlace double", "subInPlace", "divInPlace", "slice", "select", "permute", "unsqueeze"};

    private final Backend cpu = Backends.get("cpu");
    private final Backend reference = Backends.get("reference");
    private final Map<String, AtomicLong> outcomes = new ConcurrentHashMap<>();
    private final List<String> failures = java.util.Collections.synchronizedList(new ArrayList<>());

    public static void main(String[] args) throws Exception {
        long seed = args.length > 0 ? Long.parseLong(args[0]) : new Random().nextLong();
        int threads = args.length > 1 ? Integer.parseInt(args[1]) : 4;
        int ops = args.length > 2 ? Integer.parseInt(args[2]) : 300;
        System.out.println("random tensor ops: seed=" + seed + " threads=" + threads + " opsPerThread=" + ops);
        RandomTensorOps r = new RandomTensorOps();
        r.run(seed, threads, ops);
        System.out.println("random tensor ops: seed=" + seed + " " + new TreeMap<>(r.outcomes));
        if (!r.failures.isEmpty()) {
            r.failures.stream().limit(20).forEach(System.out::println);
            throw new AssertionError(r.failures.size() + " op(s) disagreed or failed unclearly; first: " + r.failures.getFirst());
        }
    }

    private void run(long seed, int threads, int ops) throws InterruptedException {
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            SplittableRandom random = new SplittableRandom(seed * 1_000_003L + t);
            workers.add(Thread.ofPlatform().name("tensor-ops-" + t).start(() -> {
                try {
                    start.await();
                    for (int i = 0; i < ops; i++) oneOp(random.split(), i);
                } catch (Throwable e) {
                    failures.add(Thread.currentThread().getName() + ": " + e);
                }
            }));
        }
        start.countDown();
        for (Thread w : workers) w.join();
    }

    /** How an input lies in memory: dense, a transposed view, or every other element of a wider tensor. */
    private enum Layout { CONTIGUOUS, TRANSPOSED, STRIDED }

    /** The values an op starts from, made alike on each backend. */
    private record Input(DType dtype, int[] dims, double[] values, Layout layout) {
        /** The input on the current backend; a floating one requires gradients when {@code leaves} is given (its leaf added). */
        Tensor make(List<Tensor> leaves) {
            int n = values.length;
            Tensor t;
            if (dtype.isFloating()) {
                float[] v = new float[n];
                for (int i = 0; i < n; i++) v[i] = (float) values[i];
                t = Tensor.of(v, dims.length == 0 ? new int[] {1} : dims);
            } else {
                long[] v = new long[n];
                for (int i = 0; i < n; i++) v[i] = (long) values[i];
                t = Tensor.of(v, dims.length == 0 ? new int[] {1} : dims);
            }
            if (dims.length == 0) t = t.reshape();
            t = t.cast(dtype);
            if (leaves != null && dtype.isFloating()) {
                t = t.detach().requiresGrad(true);
                leaves.add(t);
            }
            return switch (layout) {
                case CONTIGUOUS -> t;
                case TRANSPOSED -> t.rank() < 2 ? t : t.transpose(-1, -2).contiguous().transpose(-1, -2);
                case STRIDED -> t.rank() < 1 ? t : Tensor.stack(List.of(t, t), -1).select(-1, 1);
            };
        }

        @Override
        public String toString() {
            return dtype.label() + Arrays.toString(dims) + (layout == Layout.CONTIGUOUS ? "" : " " + layout.name().toLowerCase());
        }
    }

    private static Input input(SplittableRandom r) {
        DType dtype = DTYPES[r.nextInt(DTYPES.length)];
        int rank = r.nextInt(4);
        int[] dims = new int[rank];
        int n = 1;
        for (int i = 0; i < rank; i++) {
            dims[i] = r.nextInt(10) == 0 ? 0 : 1 + r.nextInt(4);
            n *= dims[i];
        }
        double[] v = new double[n];
        for (int i = 0; i < n; i++) v[i] = value(r, dtype);
        return new Input(dtype, dims, v, Layout.values()[r.nextInt(Layout.values().length)]);
    }

    private static double value(SplittableRandom r, DType dtype) {
        if (!dtype.isFloating()) {
            return switch (r.nextInt(8)) {
                case 0 -> dtype == DType.I32 ? Integer.MAX_VALUE : 1L << 40;
                case 1 -> dtype == DType.I32 ? Integer.MIN_VALUE : -(1L << 40);
                case 2 -> 0;
                default -> r.nextInt(-20, 21);
            };
        }
        return switch (r.nextInt(12)) {
            case 0 -> Double.NaN;
            case 1 -> Double.POSITIVE_INFINITY;
            case 2 -> Double.NEGATIVE_INFINITY;
            case 3 -> 0;
            case 4 -> r.nextDouble(-3e4, 3e4);
            default -> r.nextDouble(-4, 4);
        };
    }

    /** One op on both backends; records how it ended. */
    private void oneOp(SplittableRandom r, int index) {
        String op = OPS[r.nextInt(OPS.length)];
        Input a = input(r);
        Input b = r.nextInt(3) == 0 ? input(r) : new Input(DTYPES[r.nextInt(DTYPES.length)], a.dims, values(r, a), Layout.CONTIGUOUS);
        int axis = r.nextInt(-4, 4);
        double scalar = value(r, DType.F32);
        long integer = r.nextInt(5) == 0 ? r.nextLong() : r.nextInt(-5, 6);
        DType to = DTYPES[r.nextInt(DTYPES.length)];
        boolean grad = r.nextBoolean();
        int[] ints = new int[3]; // slice bounds and step, select index: small, or extremes
        for (int i = 0; i < ints.length; i++) {
            ints[i] = switch (r.nextInt(6)) {
                case 0 -> Integer.MAX_VALUE;
                case 1 -> Integer.MIN_VALUE;
                default -> r.nextInt(-5, 6);
            };
        }
        boolean keepDim = r.nextBoolean();
        double step = r.nextInt(1, 4) * (r.nextBoolean() ? 1 : -1e9);
        int[] zeros = r.nextInt(3) == 0 ? new int[] {1 << 30, 1 << 30, 1 << 30} : a.dims;
        Function<Tensor[], Tensor> f = x -> switch (op) {
            case "add" -> x[0].add(x[1]);
            case "sub" -> x[0].sub(x[1]);
            case "mul" -> x[0].mul(x[1]);
            case "div" -> x[0].div(x[1]);
            case "pow" -> x[0].pow(x[1]);
            case "maximum" -> x[0].maximum(x[1]);
            case "minimum" -> x[0].minimum(x[1]);
            case "eq" -> x[0].eq(x[1]);
            case "lt" -> x[0].lt(x[1]);
            case "where" -> Tensor.where(x[0], x[1], x[0]);
            case "add double" -> x[0].add(scalar);
            case "mul double" -> x[0].mul(scalar);
            case "mul long" -> x[0].mul(integer);
            case "div long" -> x[0].div(integer);
            case "gt double" -> x[0].gt(scalar);
            case "lt long" -> x[0].lt(integer);
            case "pow double" -> x[0].pow(scalar);
            case "cast" -> x[0].cast(to);
            case "relu" -> x[0].relu();
            case "exp" -> x[0].exp();
            case "neg" -> x[0].neg();
            case "abs" -> x[0].abs();
            case "sum" -> x[0].sum(axis, keepDim);
            case "sum all" -> x[0].sum();
            case "mean" -> x[0].mean(axis, false);
            case "max" -> x[0].max(axis, false);
            case "min" -> x[0].min(axis, true);
            case "argmax" -> x[0].argmax(axis);
            case "softmax" -> x[0].softmax(axis);
            case "logSoftmax" -> x[0].logSoftmax(axis);
            case "layerNorm" -> x[0].layerNorm(null, null, 1e-5);
            case "matmul" -> x[0].matmul(x[1].rank() >= 2 ? x[1].transpose(-1, -2) : x[1]);
            case "arange" -> Tensor.arange(to, scalar, scalar + step * (integer % 40), step); // values beyond i32 and f16, few elements
            case "arange count" -> Tensor.arange(to, scalar, scalar + 1e10 * step, step); // more elements than a tensor holds
            case "full" -> Tensor.full(to, scalar * integer, a.dims);
            case "zeros" -> Tensor.zeros(to, zeros);
            case "reshape" -> x[0].reshape(-1, Math.max(1, (int) (integer & 3)));
            case "indexSelect" -> x[0].indexSelect(axis, x[1].reshape(-1));
            case "crossEntropy" -> Tensor.crossEntropy(x[0], x[1].reshape(-1));
            case "fill" -> x[0].contiguous().mul(1L).fill(scalar * integer);
            case "addInPlace long" -> x[0].contiguous().mul(1L).addInPlace(integer);
            case "mulInPlace double" -> x[0].contiguous().mul(1L).mulInPlace(scalar);
            case "slice" -> x[0].slice(axis, ints[0], ints[1], ints[2]).mul(1L);
            case "select" -> x[0].select(axis, ints[0]).mul(1L);
            case "permute" -> x[0].permute(axis, ints[0], ints[1]).mul(1L);
            case "unsqueeze" -> x[0].unsqueeze(ints[0]).squeeze(axis).mul(1L);
            case "subInPlace" -> x[0].contiguous().mul(1L).subInPlace(x[1]);
            case "divInPlace" -> x[0].contiguous().mul(1L).divInPlace(x[1]);
            default -> throw new IllegalStateException("unknown op " + op);
        };
        String what = "op#" + index + " " + op + "(" + a + ", " + b + ", axis=" + axis + ", scalar=" + scalar + ", integer=" + integer
                + ", to=" + to + ", grad=" + grad + ")";
        Ending expected = end(reference, f, a, b, grad);
        Ending actual = end(cpu, f, a, b, grad);
        outcomes.computeIfAbsent(expected.refusal() != null ? "refused" : "computed", k -> new AtomicLong()).incrementAndGet();
        if (expected.unclear() != null || actual.unclear() != null) {
            failures.add(what + ": unclear failure: reference=" + expected.unclear() + " cpu=" + actual.unclear());
            return;
        }
        String disagreement = expected.disagreement(actual);
        if (disagreement != null) failures.add(what + ": " + disagreement);
    }

    /** b's values: a's shape, drawn for b's dtype. */
    private static double[] values(SplittableRandom r, Input a) {
        double[] v = new double[a.values.length];
        DType t = DTYPES[r.nextInt(DTYPES.length)];
        for (int i = 0; i < v.length; i++) v[i] = value(r, t);
        return v;
    }

    /** How an op ended on one backend: values, or a refusal's message, or something unclear. */
    private record Ending(DType dtype, Shape shape, double[] values, long[] longs, String refusal, String unclear) {
        String disagreement(Ending o) {
            if (!java.util.Objects.equals(refusal, o.refusal)) return "refusals differ: reference=" + refusal + " cpu=" + o.refusal;
            if (refusal != null) return null;
            if (dtype != o.dtype || !shape.equals(o.shape) || (values != null && values.length != o.values.length)) return "results differ: reference " + dtype + shape + " cpu " + o.dtype + o.shape;
            if (longs != null) return Arrays.equals(longs, o.longs) ? null : "integers differ: reference=" + Arrays.toString(longs)
                    + " cpu=" + Arrays.toString(o.longs);
            double scale = 0;
            for (double e : values) if (Double.isFinite(e)) scale = Math.max(scale, Math.abs(e));
            double tol = dtype == DType.F16 ? 2e-3 : 1e-4;
            for (int i = 0; i < values.length; i++) {
                double e = values[i], a = o.values[i];
                if (Double.isNaN(e) && Double.isNaN(a) || e == a) continue;
                if (Double.isFinite(e) && Double.isFinite(a) && Math.abs(e - a) <= tol * Math.max(Math.abs(e), 1e-3 * scale + 1)) continue;
                return "element " + i + ": reference=" + e + " cpu=" + a;
            }
            return null;
        }
    }

    /**
     * The op on {@code backend}; with {@code grad}, floating inputs require gradients and the values
     * compared are the result's followed by each leaf's gradient of {@code sum(result)}.
     */
    private static Ending end(Backend backend, Function<Tensor[], Tensor> f, Input a, Input b, boolean grad) {
        List<Tensor> leaves = grad ? new ArrayList<>() : null;
        try (var _ = TensorScope.open(); var _ = Backends.using(backend)) {
            Tensor out;
            try {
                out = f.apply(new Tensor[] {a.make(leaves), b.make(leaves)});
            } catch (IllegalArgumentException refused) {
                if (refused.getMessage() == null || refused.getMessage().isBlank()) return unclear(refused);
                return new Ending(null, null, null, null, refused.getMessage(), null);
            }
            if (!out.dtype().isFloating()) return new Ending(out.dtype(), out.shape(), null, out.toLongArray(), null, null);
            double[] values = out.toDoubleArray();
            if (out.requiresGrad()) {
                out.sum().backward();
                for (Tensor leaf : leaves) {
                    double[] g = leaf.grad() == null ? new double[0] : leaf.grad().toDoubleArray();
                    double[] both = Arrays.copyOf(values, values.length + g.length);
                    System.arraycopy(g, 0, both, values.length, g.length);
                    values = both;
                }
            }
            return new Ending(out.dtype(), out.shape(), values, null, null, null);
        } catch (RuntimeException | Error e) {
            return unclear(e);
        } finally {
            if (leaves != null) for (Tensor leaf : leaves) leaf.zeroGrad();
        }
    }

    private static Ending unclear(Throwable e) {
        StackTraceElement at = e.getStackTrace().length == 0 ? null : e.getStackTrace()[0];
        return new Ending(null, null, null, null, null, e + " at " + at);
    }
}
