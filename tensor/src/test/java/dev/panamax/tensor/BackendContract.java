package dev.panamax.tensor;

import dev.panamax.tensor.reference.ReferenceBackend;
import dev.panamax.tensor.spi.Backend;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The contract every backend signs: each op, on the same random inputs (contiguous, transposed,
 * sliced and broadcast layouts; every dtype it takes), gives what the {@code reference} backend
 * gives, values and gradients, to float rounding. A backend's test subclasses this and names the
 * backend:
 *
 * <pre>{@code
 * class CpuBackendContractTest extends BackendContract {
 *     @Override
 *     protected Backend candidate() {
 *         return Backends.get("cpu");
 *     }
 * }
 * }</pre>
 */
public abstract class BackendContract extends ScopedTest {
    /** The backend under test. */
    protected abstract Backend candidate();

    /** Relative and absolute tolerance of float results (reference rounds once from double). */
    protected double tolerance() {
        return 2e-5;
    }

    private final Backend reference = new ReferenceBackend();

    // ------------------------------------------------------------------ inputs

    /** How an input is laid out in memory before the op sees it. */
    protected enum Layout { CONTIGUOUS, TRANSPOSED, SLICED, BROADCAST }

    /** A random input: dtype, dims, value range, layout. */
    protected record Input(DType dtype, int[] dims, double low, double high, Layout layout, boolean grad) {
        Input requiresGrad() {
            return new Input(dtype, dims, low, high, layout, true);
        }

        Input as(Layout l) {
            return new Input(dtype, dims, low, high, l, grad);
        }
    }

    protected static Input f32(int... dims) {
        return new Input(DType.F32, dims, -2, 2, Layout.CONTIGUOUS, false);
    }

    protected static Input positive(int... dims) {
        return new Input(DType.F32, dims, 0.1, 3, Layout.CONTIGUOUS, false);
    }

    protected static Input ints(DType dtype, int low, int high, int... dims) {
        return new Input(dtype, dims, low, high, Layout.CONTIGUOUS, false);
    }

    /** The same values on {@code backend}, laid out as asked. */
    private static Tensor make(Backend backend, Input in, long seed) {
        var rng = new SplittableRandom(seed);
        // lay out a larger or transposed base, then view it to the asked dims
        int[] dims = in.dims;
        try (var use = Backends.using(backend); var off = Autograd.noGrad()) {
            Tensor t = switch (in.layout) {
                case CONTIGUOUS -> base(in, dims, rng);
                case TRANSPOSED -> {
                    if (dims.length < 2) yield base(in, dims, rng);
                    int[] swapped = dims.clone();
                    swapped[dims.length - 1] = dims[dims.length - 2];
                    swapped[dims.length - 2] = dims[dims.length - 1];
                    yield base(in, swapped, rng).transpose(-1, -2);
                }
                case SLICED -> {
                    if (dims.length == 0) yield base(in, dims, rng);
                    int[] wider = dims.clone();
                    wider[dims.length - 1] = dims[dims.length - 1] * 2 + 1;
                    yield base(in, wider, rng).slice(-1, 1, wider[dims.length - 1], 2);
                }
                case BROADCAST -> {
                    if (dims.length == 0) yield base(in, dims, rng);
                    int[] one = dims.clone();
                    one[0] = 1;
                    yield base(in, one, rng).expand(dims);
                }
            };
            return in.grad ? t.detach().requiresGrad(true) : t;
        }
    }

    private static Tensor base(Input in, int[] dims, SplittableRandom rng) {
        int n = 1;
        for (int d : dims) n *= d;
        if (in.dtype.isFloating()) {
            float[] v = new float[n];
            for (int i = 0; i < n; i++) v[i] = (float) (in.low + (in.high - in.low) * rng.nextDouble());
            Tensor t = Tensor.of(v, dims.length == 0 ? new int[0] : dims);
            return dims.length == 0 ? t.reshape() : in.dtype == DType.F32 ? t : t.cast(in.dtype);
        }
        long[] v = new long[n];
        for (int i = 0; i < n; i++) v[i] = (long) in.low + rng.nextLong((long) (in.high - in.low));
        Tensor t = Tensor.of(v, dims);
        return in.dtype == DType.I64 ? t : t.cast(in.dtype);
    }

    // ------------------------------------------------------------------ the check

    /**
     * Runs {@code op} on both backends over the same inputs and compares the results; with inputs
     * that require gradients, also backward of {@code sum(result * r)} for a random {@code r} and
     * every input's gradient.
     */
    protected final void agree(String what, Function<Tensor[], Tensor> op, Input... inputs) {
        long seed = what.hashCode();
        Result expected = run(reference, op, inputs, seed);
        Result actual = run(candidate(), op, inputs, seed);
        assertEquals(expected.shape, actual.shape, what + ": shape");
        assertEquals(expected.dtype, actual.dtype, what + ": dtype");
        close(what + ": values", expected.values, actual.values, expected.dtype);
        for (int i = 0; i < expected.grads.size(); i++) {
            close(what + ": gradient of input " + i, expected.grads.get(i), actual.grads.get(i), DType.F32);
        }
    }

    private record Result(Shape shape, DType dtype, double[] values, List<double[]> grads) {}

    private Result run(Backend backend, Function<Tensor[], Tensor> op, Input[] inputs, long seed) {
        try (var s = TensorScope.open(); var use = Backends.using(backend)) {
            Tensor[] xs = new Tensor[inputs.length];
            for (int i = 0; i < inputs.length; i++) xs[i] = make(backend, inputs[i], seed * 31 + i);
            Tensor out = op.apply(xs);
            if (out.backend() != backend) fail("result on backend " + out.backend().name() + ", expected " + backend.name());
            double[] values = out.toDoubleArray();
            List<double[]> grads = new ArrayList<>();
            if (out.requiresGrad()) {
                Tensor weights = make(backend, f32(out.dims()), seed + 7).cast(out.dtype());
                out.mul(weights).sum().backward();
                for (Tensor x : xs) {
                    if (!x.requiresGrad()) continue;
                    grads.add(x.grad() == null ? new double[0] : x.grad().toDoubleArray());
                    x.zeroGrad();
                }
            }
            return new Result(out.shape(), out.dtype(), values, grads);
        }
    }

    private void close(String what, double[] expected, double[] actual, DType dtype) {
        assertEquals(expected.length, actual.length, what + ": element count");
        double tol = dtype == DType.F16 ? 2e-3 : dtype.isFloating() ? tolerance() : 0;
        double scale = 0;
        for (double e : expected) if (Double.isFinite(e)) scale = Math.max(scale, Math.abs(e));
        for (int i = 0; i < expected.length; i++) {
            double e = expected[i], a = actual[i];
            if (Double.isNaN(e) && Double.isNaN(a)) continue;
            if (e == a) continue;
            // relative to the element, and to the array's scale for sums that cancel
            if (Math.abs(e - a) <= tol * Math.max(Math.abs(e), 1e-3 * scale + 1)) continue;
            fail(what + ": element " + i + " expected " + e + " but was " + a + " (tolerance " + tol + ")\nexpected "
                    + Arrays.toString(Arrays.copyOf(expected, Math.min(16, expected.length))) + "\nactual   "
                    + Arrays.toString(Arrays.copyOf(actual, Math.min(16, actual.length))));
        }
    }

    // ------------------------------------------------------------------ creation and copies

    @Test
    void fillsAndRanges() {
        agree("full", x -> Tensor.full(DType.F32, 2.5, 3, 4));
        agree("full i64", x -> Tensor.full(DType.I64, -7, 5));
        agree("full f16", x -> Tensor.full(DType.F16, 0.1, 9));
        agree("arange", x -> Tensor.arange(DType.F32, -1, 2, 0.25));
        agree("arange i32", x -> Tensor.arange(DType.I32, 0, 1000, 3));
    }

    @Test
    void castsBetweenEveryPair() {
        for (DType from : DType.values()) {
            for (DType to : DType.values()) {
                Input in = from.isFloating() ? new Input(from, new int[] {7, 5}, -300, 300, Layout.TRANSPOSED, false)
                        : ints(from, -1000, 1000, 7, 5).as(Layout.TRANSPOSED);
                agree("cast " + from + " to " + to, x -> x[0].cast(to).add(x[0].cast(to)), in);
            }
        }
        agree("cast gradient", x -> x[0].cast(DType.F16).cast(DType.F32).mul(x[0]), f32(4, 3).requiresGrad());
    }

    @Test
    void contiguousCopiesOfEveryLayout() {
        for (Layout l : Layout.values()) {
            agree("contiguous " + l, x -> x[0].contiguous().mul(1), f32(6, 5, 4).as(l));
        }
        agree("large copy", x -> x[0].contiguous().mul(1), f32(301, 257).as(Layout.TRANSPOSED));
    }

    // ------------------------------------------------------------------ elementwise

    @Test
    void unaryOps() {
        for (Layout l : Layout.values()) {
            Input any = f32(5, 7).as(l).requiresGrad();
            Input pos = positive(5, 7).as(l).requiresGrad();
            agree("neg " + l, x -> x[0].neg(), any);
            agree("exp " + l, x -> x[0].exp(), any);
            agree("log " + l, x -> x[0].log(), pos);
            agree("sqrt " + l, x -> x[0].sqrt(), pos);
            agree("abs " + l, x -> x[0].abs(), any);
            agree("relu " + l, x -> x[0].relu(), any);
            agree("gelu " + l, x -> x[0].gelu(), any);
            agree("sigmoid " + l, x -> x[0].sigmoid(), any);
            agree("tanh " + l, x -> x[0].tanh(), any);
        }
        agree("exp large", x -> x[0].exp(), f32(1023, 65));
        agree("gelu f16", x -> x[0].gelu(), new Input(DType.F16, new int[] {33}, -3, 3, Layout.CONTIGUOUS, false));
    }

    @Test
    void binaryOpsBroadcast() {
        int[][][] shapes = {{{4, 5}, {4, 5}}, {{4, 5}, {5}}, {{4, 1}, {1, 5}}, {{3, 4, 5}, {4, 1}}, {{2, 1, 5}, {3, 1}}, {{}, {4, 5}}};
        for (int[][] s : shapes) {
            String dims = Arrays.toString(s[0]) + Arrays.toString(s[1]);
            Input a = f32(s[0]).requiresGrad(), b = f32(s[1]).requiresGrad();
            agree("add " + dims, x -> x[0].add(x[1]), a, b);
            agree("sub " + dims, x -> x[0].sub(x[1]), a, b);
            agree("mul " + dims, x -> x[0].mul(x[1]), a, b);
            agree("div " + dims, x -> x[0].div(x[1]), a, positive(s[1]).requiresGrad());
            agree("pow " + dims, x -> x[0].pow(x[1]), positive(s[0]).requiresGrad(), b);
            agree("maximum " + dims, x -> x[0].maximum(x[1]), a, b);
            agree("minimum " + dims, x -> x[0].minimum(x[1]), a, b);
            agree("eq " + dims, x -> x[0].gt(0).eq(x[1].gt(0)), a, b);
            agree("lt " + dims, x -> x[0].lt(x[1]), a, b);
            agree("ge " + dims, x -> x[0].ge(x[1]), a, b);
        }
        for (Layout l : Layout.values()) {
            agree("mul " + l, x -> x[0].mul(x[1]), f32(6, 4).as(l).requiresGrad(), f32(6, 4).as(Layout.TRANSPOSED));
        }
        agree("add large", x -> x[0].add(x[1]), f32(513, 129), f32(129));
    }

    @Test
    void integerArithmetic() {
        for (DType t : new DType[] {DType.I32, DType.I64}) {
            Input a = ints(t, -50, 50, 6, 7), b = ints(t, 1, 9, 7);
            agree("add " + t, x -> x[0].add(x[1]), a, b);
            agree("sub " + t, x -> x[0].sub(x[1]), a, b);
            agree("mul " + t, x -> x[0].mul(x[1]), a, b);
            agree("div truncates " + t, x -> x[0].div(x[1]), a, b);
            agree("maximum " + t, x -> x[0].maximum(x[1]), a, b);
            agree("eq " + t, x -> x[0].eq(x[1]), a, b);
            agree("scalar " + t, x -> x[0].mul(3).add(-2).div(4), a);
        }
    }

    @Test
    void scalarOps() {
        Input a = f32(5, 6).as(Layout.TRANSPOSED).requiresGrad();
        agree("add scalar", x -> x[0].add(1.5), a);
        agree("sub scalar", x -> x[0].sub(0.25), a);
        agree("mul scalar", x -> x[0].mul(-3), a);
        agree("div scalar", x -> x[0].div(7), a);
        agree("pow scalar", x -> x[0].pow(3), positive(5, 6).requiresGrad());
        agree("pow fractional", x -> x[0].pow(0.5), positive(5, 6).requiresGrad());
        agree("gt scalar", x -> x[0].gt(0.3), a);
        agree("lt scalar", x -> x[0].lt(-0.3), a);
    }

    @Test
    void whereSelects() {
        agree("where", x -> Tensor.where(x[0].gt(0), x[1], x[2]), f32(4, 5), f32(4, 5).requiresGrad(), f32(5).requiresGrad());
        agree("where int cond", x -> Tensor.where(x[0], x[1], x[2]), ints(DType.I64, 0, 2, 4, 1), f32(4, 5).requiresGrad(),
                f32(1, 5).requiresGrad());
    }

    // ------------------------------------------------------------------ reductions

    @Test
    void reductionsOverEveryAxis() {
        for (Layout l : Layout.values()) {
            Input a = f32(3, 4, 5).as(l).requiresGrad();
            for (int axis = -3; axis < 3; axis++) {
                int ax = axis;
                agree("sum " + l + " axis " + ax, x -> x[0].sum(ax, false), a);
                agree("sum keepdim " + l + " axis " + ax, x -> x[0].sum(ax, true), a);
                agree("mean " + l + " axis " + ax, x -> x[0].mean(ax, true), a);
                agree("max " + l + " axis " + ax, x -> x[0].max(ax, false), a);
                agree("min " + l + " axis " + ax, x -> x[0].min(ax, true), a);
                agree("argmax " + l + " axis " + ax, x -> x[0].argmax(ax), a);
            }
            agree("sum all " + l, x -> x[0].sum(), a);
            agree("mean two axes " + l, x -> x[0].mean(new int[] {0, 2}, false), a);
            agree("max all " + l, x -> x[0].max(), a);
        }
        agree("sum i64", x -> x[0].sum(1, false), ints(DType.I64, -100, 100, 5, 9));
        agree("sum large", x -> x[0].sum(0, false), f32(1000, 33));
        agree("sum long rows", x -> x[0].sum(1, false), f32(7, 4099));
        agree("argmax ties first", x -> x[0].gt(0).argmax(1), f32(9, 8));
    }

    // ------------------------------------------------------------------ matmul

    @Test
    void matmulShapes() {
        int[][] mkn = {{1, 1, 1}, {2, 3, 4}, {5, 1, 7}, {17, 33, 9}, {64, 64, 64}, {3, 130, 2}};
        for (int[] d : mkn) {
            String s = Arrays.toString(d);
            agree("matmul " + s, x -> x[0].matmul(x[1]), f32(d[0], d[1]).requiresGrad(), f32(d[1], d[2]).requiresGrad());
            agree("matmul a^T " + s, x -> x[0].matmul(x[1]), f32(d[0], d[1]).as(Layout.TRANSPOSED).requiresGrad(), f32(d[1], d[2]));
            agree("matmul b^T " + s, x -> x[0].matmul(x[1]), f32(d[0], d[1]), f32(d[1], d[2]).as(Layout.TRANSPOSED).requiresGrad());
            agree("matmul sliced " + s, x -> x[0].matmul(x[1]), f32(d[0], d[1]).as(Layout.SLICED), f32(d[1], d[2]));
        }
        agree("matmul batched", x -> x[0].matmul(x[1]), f32(3, 4, 5).requiresGrad(), f32(3, 5, 2).requiresGrad());
        agree("matmul batch broadcast", x -> x[0].matmul(x[1]), f32(2, 3, 4, 5).requiresGrad(), f32(5, 6).requiresGrad());
        agree("matmul batch 1 vs n", x -> x[0].matmul(x[1]), f32(1, 4, 5).requiresGrad(), f32(3, 5, 2).requiresGrad());
        agree("matmul batch transposed", x -> x[0].matmul(x[1]), f32(3, 4, 5).as(Layout.TRANSPOSED), f32(3, 5, 2).as(Layout.BROADCAST));
        agree("matmul vector", x -> x[0].matmul(x[1]), f32(4, 5).requiresGrad(), f32(5).requiresGrad());
        agree("matmul vector left", x -> x[0].matmul(x[1]), f32(5).requiresGrad(), f32(5, 3).requiresGrad());
        agree("dot", x -> x[0].matmul(x[1]), f32(7).requiresGrad(), f32(7).requiresGrad());
        agree("matmul large", x -> x[0].matmul(x[1]), f32(200, 150), f32(150, 120));
        for (int k = 1; k <= 5; k++) {
            int kk = k;
            agree("matmul inner " + k, x -> x[0].matmul(x[1]), f32(37, kk).requiresGrad(), f32(kk, 29).as(Layout.TRANSPOSED).requiresGrad());
            agree("matmul inner " + k + " a^T", x -> x[0].matmul(x[1]), f32(37, kk).as(Layout.TRANSPOSED).requiresGrad(), f32(kk, 29));
            agree("matmul inner " + k + " batched", x -> x[0].matmul(x[1]), f32(3, 5, kk), f32(3, kk, 7).requiresGrad());
        }
        agree("matmul inner 3 wide", x -> x[0].matmul(x[1]), f32(9, 3), f32(3, 2500));
    }

    @Test
    void linearLayers() {
        for (Layout l : new Layout[] {Layout.CONTIGUOUS, Layout.TRANSPOSED, Layout.SLICED}) {
            agree("linear " + l, x -> Tensor.linear(x[0], x[1], x[2]), f32(9, 5).as(l).requiresGrad(), f32(4, 5).requiresGrad(),
                    f32(4).requiresGrad());
            agree("linear weight " + l, x -> Tensor.linear(x[0], x[1], x[2]), f32(9, 3).requiresGrad(), f32(7, 3).as(l).requiresGrad(),
                    f32(7).as(l).requiresGrad());
        }
        agree("linear without bias", x -> Tensor.linear(x[0], x[1], null), f32(6, 4).requiresGrad(), f32(3, 4).requiresGrad());
        agree("linear batched input", x -> Tensor.linear(x[0], x[1], x[2]), f32(2, 6, 4).requiresGrad(), f32(3, 4).requiresGrad(),
                f32(3).requiresGrad());
        agree("linear large", x -> Tensor.linear(x[0], x[1], x[2]), f32(300, 70).requiresGrad(), f32(90, 70).requiresGrad(),
                f32(90).requiresGrad());
    }

    // ------------------------------------------------------------------ movement and indexing

    @Test
    void viewsThenCompute() {
        agree("permute", x -> x[0].permute(2, 0, 1).mul(2), f32(2, 3, 4).requiresGrad());
        agree("reshape of transpose", x -> x[0].t().reshape(-1, 2).mul(x[0].t().reshape(-1, 2)), f32(4, 6).requiresGrad());
        agree("slice step", x -> x[0].slice(1, 1, 7, 3).exp(), f32(3, 8).requiresGrad());
        agree("select", x -> x[0].select(0, -1).tanh(), f32(3, 8).requiresGrad());
        agree("expand", x -> x[0].expand(4, 3, 5).sigmoid(), f32(3, 1).requiresGrad());
        agree("unsqueeze squeeze", x -> x[0].unsqueeze(1).mul(x[1]).squeeze(0), f32(1, 5).requiresGrad(), f32(3, 1).requiresGrad());
    }

    @Test
    void concatStackAndIndexSelect() {
        agree("concat axis 0", x -> Tensor.concat(List.of(x[0], x[1]), 0), f32(2, 3).requiresGrad(), f32(4, 3).as(Layout.TRANSPOSED).requiresGrad());
        agree("concat axis 1", x -> Tensor.concat(List.of(x[0], x[1], x[0]), 1), f32(2, 3).requiresGrad(), f32(2, 1).requiresGrad());
        agree("stack", x -> Tensor.stack(List.of(x[0], x[1]), 1), f32(3, 4).requiresGrad(), f32(3, 4).as(Layout.SLICED).requiresGrad());
        agree("indexSelect axis 0", x -> x[0].indexSelect(0, x[1]), f32(10, 4).requiresGrad(), ints(DType.I64, 0, 10, 13));
        agree("indexSelect axis 1 i32", x -> x[0].indexSelect(1, x[1]), f32(3, 6).as(Layout.TRANSPOSED).requiresGrad(), ints(DType.I32, 0, 6, 9));
        agree("indexSelect i64 table", x -> x[0].indexSelect(0, x[1]), ints(DType.I64, -9, 9, 5, 3), ints(DType.I64, 0, 5, 7));
        agree("embedding lookup", x -> x[0].indexSelect(0, x[1].reshape(-1)).reshape(2, 3, 4), f32(11, 4).requiresGrad(),
                ints(DType.I64, 0, 11, 2, 3));
    }

    // ------------------------------------------------------------------ composites

    @Test
    void compositesAndLosses() {
        for (Layout l : new Layout[] {Layout.CONTIGUOUS, Layout.TRANSPOSED}) {
            agree("softmax " + l, x -> x[0].softmax(-1), f32(6, 5).as(l).requiresGrad());
            agree("softmax axis 0 " + l, x -> x[0].softmax(0), f32(6, 5).as(l).requiresGrad());
            agree("logSoftmax " + l, x -> x[0].logSoftmax(1), f32(6, 5).as(l).requiresGrad());
            agree("layerNorm " + l, x -> x[0].layerNorm(x[1], x[2], 1e-5), f32(4, 6).as(l).requiresGrad(), f32(6).requiresGrad(), f32(6).requiresGrad());
        }
        agree("crossEntropy", x -> Tensor.crossEntropy(x[0], x[1]), f32(8, 3).requiresGrad(), ints(DType.I64, 0, 3, 8));
        agree("crossEntropy i32 labels", x -> Tensor.crossEntropy(x[0], x[1]), f32(5, 7).as(Layout.TRANSPOSED).requiresGrad(), ints(DType.I32, 0, 7, 5));
        agree("softmax large", x -> x[0].softmax(1), new Input(DType.F32, new int[] {300, 10}, -30, 30, Layout.CONTIGUOUS, false));
        agree("crossEntropy large", x -> Tensor.crossEntropy(x[0], x[1]), new Input(DType.F32, new int[] {4099, 5}, -30, 30,
                Layout.CONTIGUOUS, true), ints(DType.I64, 0, 5, 4099));
        agree("crossEntropy without gradient", x -> {
            try (var off = Autograd.noGrad()) {
                return Tensor.crossEntropy(x[0], x[1]);
            }
        }, f32(6, 4).as(Layout.SLICED), ints(DType.I32, 0, 4, 6));
    }

    // ------------------------------------------------------------------ fused optimizer updates

    @Test
    void adamUpdatesInOneKernel() {
        double[][] settings = {{0, 0}, {0.1, 0}, {0.1, 1}};
        for (double[] c : settings) {
            for (int[] dims : new int[][] {{7, 5}, {33000}}) {
                String what = "adam wd " + c[0] + (c[1] != 0 ? " decoupled " : " ") + Arrays.toString(dims);
                agree(what, x -> {
                    Tensor p = x[0].mul(1).detach().requiresGrad(true);
                    var adam = new dev.panamax.tensor.optim.Adam(List.of(p), 0.01, 0.8, 0.99, 1e-8, c[0], c[1] != 0);
                    for (int step = 0; step < 3; step++) {
                        adam.zeroGrad();
                        p.mul(x[1]).mul(p).sum().backward();
                        adam.step();
                    }
                    Tensor out = p.detach().mul(1);
                    adam.zeroGrad();
                    adam.close();
                    return out;
                }, f32(dims), f32(dims));
            }
        }
    }

    // ------------------------------------------------------------------ in place and sequences

    @Test
    void inPlaceUpdates() {
        agree("in place", x -> {
            Tensor t = x[0].contiguous().mul(1);
            t.addInPlace(x[1]).mulInPlace(0.5).subInPlace(x[1].mul(x[1])).divInPlace(x[2]).addInPlace(1);
            return t.copyFrom(t.add(x[1]));
        }, f32(4, 5), f32(5), positive(4, 1));
        agree("fill", x -> x[0].contiguous().mul(1).fill(3).add(x[0]), f32(3, 3));
    }

    @Test
    void longChainsOfSmallOps() {
        agree("chain", x -> {
            Tensor t = x[0];
            for (int i = 0; i < 300; i++) t = t.mul(0.99).add(x[1]).tanh();
            return t;
        }, f32(16).requiresGrad(), f32(16).requiresGrad());
    }

    @Test
    void aTrainingStepOfAnMlp() {
        agree("mlp step", x -> {
            var rng = new SplittableRandom(5);
            var model = new dev.panamax.tensor.nn.Sequential(new dev.panamax.tensor.nn.Linear(2, 16, rng), new dev.panamax.tensor.nn.GELU(),
                    new dev.panamax.tensor.nn.Linear(16, 3, rng));
            var adam = new dev.panamax.tensor.optim.Adam(model.parameters(), 0.05);
            for (int i = 0; i < 3; i++) {
                Tensor loss = Tensor.crossEntropy(model.forward(x[0]), x[1]);
                adam.zeroGrad();
                loss.backward();
                adam.step();
            }
            Tensor out;
            try (var off = Autograd.noGrad()) {
                out = model.forward(x[0]).mul(1);
            }
            adam.zeroGrad();
            adam.close();
            model.close();
            return out;
        }, f32(32, 2), ints(DType.I64, 0, 3, 32));
    }
}
