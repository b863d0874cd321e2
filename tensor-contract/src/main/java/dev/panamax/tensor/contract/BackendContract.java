package dev.panamax.tensor.contract;

import dev.panamax.tensor.*;
import dev.panamax.tensor.reference.ReferenceBackend;
import dev.panamax.tensor.spi.Backend;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Function;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
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
public abstract class BackendContract {
    private TensorScope scope;

    /** Each test runs in a tensor scope of its own, so what it makes is freed when it ends. */
    @org.junit.jupiter.api.BeforeEach
    final void openTensorScope() {
        scope = TensorScope.open();
    }

    @org.junit.jupiter.api.AfterEach
    final void closeTensorScope() {
        scope.close();
    }

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
        try (var _ = Backends.using(backend); var _ = Autograd.noGrad()) {
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
        try (var _ = TensorScope.open(); var _ = Backends.using(backend)) {
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
            agree("div is true division " + t, x -> x[0].div(x[1]), a, b);
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
        Input h = new Input(DType.F16, new int[] {6, 5}, -2, 2, Layout.CONTIGUOUS, false);
        agree("matmul f16", x -> x[0].matmul(x[1]), h, new Input(DType.F16, new int[] {5, 7}, -2, 2, Layout.TRANSPOSED, false));
        agree("matmul f16 batched", x -> x[0].matmul(x[1]), new Input(DType.F16, new int[] {3, 4, 33}, -1, 1, Layout.CONTIGUOUS, false),
                new Input(DType.F16, new int[] {33, 9}, -1, 1, Layout.CONTIGUOUS, false));
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
            try (var _ = Autograd.noGrad()) {
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
    void signedZerosInMaximumAndMinimumAsJavasMathMaxAndMin() {
        expect("maximum of signed zeros", () -> Tensor.of(new float[] {-0f, 0f, -0f}).maximum(Tensor.of(new float[] {0f, -0f, -0f})),
                DType.F32, 0.0, 0.0, -0.0);
        expect("minimum of signed zeros", () -> Tensor.of(new float[] {-0f, 0f, 0f}).minimum(Tensor.of(new float[] {0f, -0f, 0f})),
                DType.F32, -0.0, -0.0, 0.0);
        // a reduction keeps the first of equal values, the sign of a zero included
        expect("max over -0, 0", () -> Tensor.of(new float[] {-0f, 0f, 0f, -0f}, 2, 2).max(1, false), DType.F32, -0.0, 0.0);
        expect("min over -0, 0", () -> Tensor.of(new float[] {-0f, 0f, 0f, -0f}, 2, 2).min(1, false), DType.F32, -0.0, 0.0);
        expectLongs("argmax of -0, 0 stays the first", () -> Tensor.of(new float[] {-0f, 0f}).argmax(0), DType.I64, 0);
    }

    @Test
    void inPlaceUpdatesFromAnOverlappingViewReadTheSourceWhole() {
        expect("copyFrom t[:-1] into t[1:]", () -> {
            Tensor t = Tensor.of(new float[] {1, 2, 3, 4});
            t.slice(0, 1, 4, 1).copyFrom(t.slice(0, 0, 3, 1));
            return t;
        }, DType.F32, 1, 1, 2, 3);
        expect("addInPlace t[:-1] into t[1:]", () -> {
            Tensor t = Tensor.of(new float[] {1, 2, 3, 4});
            t.slice(0, 1, 4, 1).addInPlace(t.slice(0, 0, 3, 1));
            return t;
        }, DType.F32, 1, 3, 5, 7);
        expect("copyFrom t[1:] into t[:-1]", () -> {
            Tensor t = Tensor.of(new int[] {1, 2, 3, 4});
            t.slice(0, 0, 3, 1).copyFrom(t.slice(0, 1, 4, 1));
            return t;
        }, DType.I32, 2, 3, 4, 4);
        expect("copyFrom the transpose of itself", () -> {
            Tensor t = Tensor.of(new float[] {1, 2, 3, 4}, 2, 2);
            t.copyFrom(t.t());
            return t;
        }, DType.F32, 1, 3, 2, 4);
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
            try (var _ = Autograd.noGrad()) {
                out = model.forward(x[0]).mul(1);
            }
            adam.zeroGrad();
            adam.close();
            model.close();
            return out;
        }, f32(32, 2), ints(DType.I64, 0, 3, 32));
    }

    @Test
    void gradientsMatchFiniteDifferences() {
        try (var _ = Backends.using(candidate())) {
            Gradcheck.check("tanh(x) * y", x -> x[0].tanh().mul(x[1]), Gradcheck.random(1, 3, 4), Gradcheck.random(2, 3, 4));
            Gradcheck.check("x @ w + b", x -> x[0].matmul(x[1]).add(x[2]), Gradcheck.random(3, 4, 5), Gradcheck.random(4, 5, 3),
                    Gradcheck.random(5, 3));
            Gradcheck.check("softmax-sum", x -> x[0].exp().div(x[0].exp().sum(1, true)).mul(x[0]).sum(0, false),
                    Gradcheck.random(6, 3, 5));
            Gradcheck.check("broadcast max", x -> x[0].maximum(x[1]).sqrt(), Gradcheck.uniform(7, 0.5, 2, 4, 1),
                    Gradcheck.uniform(8, 0.5, 2, 1, 3));
        }
    }

    @Test
    void aShortTrainingRunLowersTheLoss() {
        try (var _ = Backends.using(candidate())) {
            var rng = new SplittableRandom(11);
            float[] xs = new float[2 * 96];
            long[] ys = new long[96];
            for (int i = 0; i < 96; i++) {
                int c = i % 3;
                double angle = c * 2.1 + rng.nextDouble() * 0.6;
                xs[2 * i] = (float) Math.cos(angle);
                xs[2 * i + 1] = (float) Math.sin(angle);
                ys[i] = c;
            }
            Tensor x = Tensor.of(xs, 96, 2), y = Tensor.of(ys, 96);
            var model = new dev.panamax.tensor.nn.Sequential(new dev.panamax.tensor.nn.Linear(2, 32, rng), new dev.panamax.tensor.nn.ReLU(),
                    new dev.panamax.tensor.nn.Linear(32, 3, rng));
            var adam = new dev.panamax.tensor.optim.Adam(model.parameters(), 0.05);
            double first = Double.NaN, last = Double.NaN;
            for (int step = 0; step < 40; step++) {
                try (var _ = TensorScope.open()) {
                    Tensor loss = Tensor.crossEntropy(model.forward(x), y);
                    adam.zeroGrad();
                    loss.backward();
                    adam.step();
                    last = loss.item();
                    if (step == 0) first = last;
                }
            }
            assertTrue(last < 0.5 * first, candidate().name() + ": loss " + first + " -> " + last + " in 40 Adam steps");
            assertEquals(candidate().device(), model.parameters().getFirst().device());
            adam.close();
            model.close();
        }
    }

    @Test
    void tensorsMoveToAndFromTheBackendBitForBit() {
        // cpu -> candidate -> cpu (the reference backend's host memory when the candidate is the cpu backend)
        Backend host = Backends.available().contains("cpu") && !candidate().name().equals("cpu") ? Backends.get("cpu") : reference;
        var rng = new SplittableRandom(12);
        float[] f = new float[1000];
        for (int i = 0; i < f.length; i++) f[i] = Float.intBitsToFloat(rng.nextInt()); // every bit pattern, NaN payloads included
        long[] l = rng.longs(333).toArray();
        int[] n = rng.ints(77).toArray();
        short[] h = new short[129];
        for (int i = 0; i < h.length; i++) h[i] = (short) rng.nextInt();
        Tensor tf, tl, tn, th;
        try (var _ = Backends.using(host)) {
            tf = Tensor.of(f, 10, 100);
            tl = Tensor.of(l, 333);
            tn = Tensor.of(n, 7, 11);
            th = Tensor.ofHalf(h, 129);
        }
        for (Tensor t : new Tensor[] {tf, tl, tn, th}) {
            Tensor there = t.to(candidate());
            assertEquals(candidate(), there.backend());
            assertEquals(candidate().device(), there.device());
            Tensor back = there.to(host);
            assertEquals(t.shape(), back.shape());
            assertEquals(t.dtype(), back.dtype());
            assertArrayEquals(rawBits(t), rawBits(back), "bits changed on the way through " + candidate().name() + ": " + t.dtype());
        }
        // a strided view moves as its values, and the gradient flows back through the move
        Tensor w = tf.slice(1, 0, 4).t().contiguous().requiresGrad(true);
        Tensor moved = w.to(candidate());
        moved.mul(2).sum().to(host).backward();
        float[] g = w.grad().toFloatArray();
        for (float v : g) assertEquals(2f, v);
        w.close(); // and its gradient, which belongs to the leaf, not to the scope
    }

    /** The raw bytes of a tensor's values, as longs (floats by their bits, not as numbers). */
    private static long[] rawBits(Tensor t) {
        return switch (t.dtype()) {
            case F32 -> {
                float[] f = t.toFloatArray();
                long[] bits = new long[f.length];
                for (int i = 0; i < f.length; i++) bits[i] = Float.floatToRawIntBits(f[i]);
                yield bits;
            }
            case F16 -> {
                short[] h = t.toHalfArray();
                long[] bits = new long[h.length];
                for (int i = 0; i < h.length; i++) bits[i] = h[i];
                yield bits;
            }
            case I32 -> java.util.Arrays.stream(t.toIntArray()).asLongStream().toArray();
            case I64 -> t.toLongArray();
        };
    }

    @Test
    void parametersSaveAndLoadThroughTheBackend() throws java.io.IOException {
        java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("panamax-contract");
        java.nio.file.Path file = dir.resolve("model.npz");
        try (var _ = Backends.using(candidate())) {
            var saved = new dev.panamax.tensor.nn.Sequential(new dev.panamax.tensor.nn.Linear(3, 4, new SplittableRandom(1)));
            var loaded = new dev.panamax.tensor.nn.Sequential(new dev.panamax.tensor.nn.Linear(3, 4, new SplittableRandom(2)));
            dev.panamax.tensor.nn.Parameters.save(saved, file);
            try (var _ = Backends.using(reference)) { // a file read on another backend still lands on the parameters'
                dev.panamax.tensor.nn.Parameters.load(loaded, file);
            }
            for (String name : saved.namedParameters().keySet()) {
                assertArrayEquals(saved.namedParameters().get(name).toFloatArray(), loaded.namedParameters().get(name).toFloatArray(), name);
                assertEquals(candidate(), loaded.namedParameters().get(name).backend(), name);
            }
            saved.close();
            loaded.close();
        } finally {
            java.nio.file.Files.deleteIfExists(file);
            java.nio.file.Files.deleteIfExists(dir);
        }
    }

    @Test
    void mixingBackendsIsRefusedWithBothNamed() {
        if (candidate().name().equals(reference.name())) return;
        Tensor here;
        try (var _ = Backends.using(candidate())) {
            here = Tensor.ones(2, 3);
        }
        Tensor there;
        try (var _ = Backends.using(reference)) {
            there = Tensor.ones(2, 3);
        }
        var e = assertThrows(TensorException.class, () -> here.add(there));
        assertTrue(e.getMessage().contains(candidate().name()) && e.getMessage().contains(reference.name())
                && e.getMessage().contains("(2, 3)"), e.getMessage());
        assertTrue(e.getMessage().contains(candidate().device().toString()), e.getMessage());
    }

    @Test
    void storageIsFreedByCloseAndByScopeEndExactlyOnce() {
        try (var _ = Backends.using(candidate())) {
            Tensor t = Tensor.ones(64, 64);
            Tensor view = t.slice(0, 0, 8);
            t.close();
            assertTrue(t.isFreed() && view.isFreed());
            t.close(); // idempotent
            var e = assertThrows(TensorException.class, () -> view.add(1.0));
            assertTrue(e.getMessage().contains("freed"), e.getMessage());
            Tensor inner;
            try (var _ = TensorScope.open()) {
                inner = Tensor.ones(1000).mul(3);
                assertFalse(inner.isFreed());
            }
            assertTrue(inner.isFreed());
            inner.close();
        }
    }

    // ------------------------------------------------------------------ dtype semantics (docs/ARCHITECTURE.md, "Dtype semantics")

    /**
     * Runs {@code op} on the reference backend and on the candidate; each must give exactly
     * {@code dtype} and {@code expected} (integers compared as longs, floats bit for bit, NaN as NaN).
     */
    protected final void expect(String what, Supplier<Tensor> op, DType dtype, double... expected) {
        for (Backend backend : new Backend[] {reference, candidate()}) {
            try (var _ = TensorScope.open(); var _ = Backends.using(backend)) {
                Tensor out = op.get();
                String where = what + " on " + backend.name();
                assertEquals(dtype, out.dtype(), where + ": dtype");
                if (dtype.isFloating()) assertArrayEquals(expected, out.toDoubleArray(), where + ": values");
                else {
                    long[] longs = new long[expected.length];
                    for (int i = 0; i < longs.length; i++) longs[i] = (long) expected[i];
                    assertArrayEquals(longs, out.toLongArray(), where + ": values");
                }
            }
        }
    }

    /** As {@link #expect}, for integer results given as longs (exact beyond 2^53). */
    protected final void expectLongs(String what, Supplier<Tensor> op, DType dtype, long... expected) {
        for (Backend backend : new Backend[] {reference, candidate()}) {
            try (var _ = TensorScope.open(); var _ = Backends.using(backend)) {
                Tensor out = op.get();
                assertEquals(dtype, out.dtype(), what + " on " + backend.name() + ": dtype");
                assertArrayEquals(expected, out.toLongArray(), what + " on " + backend.name() + ": values");
            }
        }
    }

    /** {@code op} refused on the reference backend and on the candidate, the message holding every fragment. */
    protected final void refuses(String what, Supplier<Tensor> op, String... fragments) {
        for (Backend backend : new Backend[] {reference, candidate()}) {
            try (var _ = TensorScope.open(); var _ = Backends.using(backend)) {
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class, op::get, what + " on " + backend.name());
                for (String f : fragments) {
                    assertTrue(e.getMessage().contains(f), what + " on " + backend.name() + ": message lacks '" + f + "': " + e.getMessage());
                }
            }
        }
    }

    private static final double NAN = Double.NaN, INF = Double.POSITIVE_INFINITY;

    @Test
    void castsOfNanInfinityAndOutOfRangeFollowJavasNarrowing() {
        float[] odd = {Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, 3e9f, -3e9f, 2.7f, -2.7f, 1e20f, -0.0f};
        expectLongs("f32 to i32", () -> Tensor.of(odd).cast(DType.I32), DType.I32,
                0, Integer.MAX_VALUE, Integer.MIN_VALUE, Integer.MAX_VALUE, Integer.MIN_VALUE, 2, -2, Integer.MAX_VALUE, 0);
        expectLongs("f32 to i64", () -> Tensor.of(odd).cast(DType.I64), DType.I64,
                0, Long.MAX_VALUE, Long.MIN_VALUE, 3_000_000_000L, -3_000_000_000L, 2, -2, Long.MAX_VALUE, 0);
        expectLongs("f32 to i32, strided", () -> Tensor.of(odd).slice(0, 0, 9, 2).cast(DType.I32), DType.I32,
                0, Integer.MIN_VALUE, Integer.MIN_VALUE, -2, 0);
        expectLongs("f16 to i32", () -> Tensor.of(new float[] {Float.NaN, 65504, -65504, Float.POSITIVE_INFINITY}).cast(DType.F16)
                .cast(DType.I32), DType.I32, 0, 65504, -65504, Integer.MAX_VALUE);
        expectLongs("i64 to i32 wraps", () -> Tensor.of(new long[] {(1L << 32) + 5, -1, 1L << 31, Long.MIN_VALUE}).cast(DType.I32),
                DType.I32, 5, -1, Integer.MIN_VALUE, 0);
        long big = (1L << 60) + (1L << 36) + 1; // rounds up once, but to 2^60 through a double
        expect("i64 to f32 rounds once", () -> Tensor.of(new long[] {big, -big}).cast(DType.F32), DType.F32, (float) big, (float) -big);
        expect("full i32 from a fraction truncates", () -> Tensor.full(DType.I32, -2.9, 2), DType.I32, -2, -2);
    }

    @Test
    void integerArithmeticWrapsAsTwosComplement() {
        expectLongs("i32 add", () -> Tensor.of(new int[] {Integer.MAX_VALUE, Integer.MIN_VALUE}).add(Tensor.of(new int[] {1, -1})),
                DType.I32, Integer.MIN_VALUE, Integer.MAX_VALUE);
        expectLongs("i32 mul", () -> Tensor.of(new int[] {65536, 46341}).mul(Tensor.of(new int[] {65536, 46341})), DType.I32,
                0, (int) (46341L * 46341L));
        expectLongs("i32 scalar", () -> Tensor.of(new int[] {Integer.MAX_VALUE}).add(1), DType.I32, Integer.MIN_VALUE);
        expectLongs("i64 add", () -> Tensor.of(new long[] {Long.MAX_VALUE}).add(1), DType.I64, Long.MIN_VALUE);
        expectLongs("i64 exact scalar beyond 2^53", () -> Tensor.of(new long[] {0, 1}).add((1L << 53) + 1), DType.I64,
                (1L << 53) + 1, (1L << 53) + 2);
        refuses("i32 and a scalar beyond i32", () -> Tensor.of(new int[] {1}).add(3_000_000_000L), "scalar 3000000000 out of range for i32");
    }

    @Test
    void integerSumsWidenToI64() {
        int max = Integer.MAX_VALUE;
        expectLongs("sum all", () -> Tensor.of(new int[] {max, max, max}).sum(), DType.I64, 3L * max);
        expectLongs("sum axis", () -> Tensor.of(new int[] {max, max, 1, 2}, 2, 2).sum(0, false), DType.I64, max + 1L, max + 2L);
        expectLongs("sum no axes", () -> Tensor.of(new int[] {max}).sum(new int[0], false), DType.I64, max);
        expect("sum f32 stays f32", () -> Tensor.of(new float[] {1, 2}).sum(), DType.F32, 3);
        long top = 1L << 53;
        expectLongs("argmax beyond 2^53", () -> Tensor.of(new long[] {top, top + 1, top}).argmax(0), DType.I64, 1);
        expectLongs("max beyond 2^53", () -> Tensor.of(new long[] {top, top + 1, top}).max(), DType.I64, top + 1);
    }

    @Test
    void nanPropagatesThroughReluMaxAndMin() {
        Supplier<Tensor> a = () -> Tensor.of(new float[] {Float.NaN, -1, 2, 0});
        Supplier<Tensor> b = () -> Tensor.of(new float[] {0, Float.NaN, 1, 0});
        expect("relu", () -> a.get().relu(), DType.F32, NAN, 0, 2, 0);
        expect("relu large", () -> a.get().expand(5000, 4).contiguous().relu().sum(0, false), DType.F32, NAN, 0, 10000, 0);
        expect("maximum", () -> a.get().maximum(b.get()), DType.F32, NAN, NAN, 2, 0);
        expect("minimum", () -> a.get().minimum(b.get()), DType.F32, NAN, NAN, 1, 0);
        expect("max reduction", () -> Tensor.stack(List.of(a.get(), b.get()), 0).max(0, false), DType.F32, NAN, NAN, 2, 0);
        expect("min reduction", () -> Tensor.stack(List.of(a.get(), b.get()), 1).min(1, false), DType.F32, NAN, NAN, 1, 0);
        expect("max all", () -> a.get().max(), DType.F32, NAN);
        expectLongs("argmax picks the NaN", () -> b.get().argmax(0), DType.I64, 1);
        expect("f16 relu", () -> a.get().cast(DType.F16).relu(), DType.F16, NAN, 0, 2, 0);
        expect("pow as C's pow", () -> Tensor.of(new float[] {1, -1, 1, Float.NaN, 2}).pow(Tensor.of(new float[] {Float.NaN,
                Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, 0, Float.NaN})), DType.F32, 1, 1, 1, 1, NAN);
    }

    @Test
    void nanGradientsOfMaxAndMinFollowPytorch() {
        for (Backend backend : new Backend[] {reference, candidate()}) {
            try (var _ = TensorScope.open(); var _ = Backends.using(backend)) {
                String on = " on " + backend.name();
                Tensor a = Tensor.of(new float[] {Float.NaN, 1, 2, 3}).requiresGrad(true);
                Tensor b = Tensor.of(new float[] {0, Float.NaN, 2, 1}).requiresGrad(true);
                a.maximum(b).sum().backward();
                assertArrayEquals(new double[] {1, 1, 0.5, 1}, a.grad().toDoubleArray(), "maximum, a" + on);
                assertArrayEquals(new double[] {1, 1, 0.5, 0}, b.grad().toDoubleArray(), "maximum, b" + on);
                a.zeroGrad();
                b.zeroGrad();
                a.minimum(b).sum().backward();
                assertArrayEquals(new double[] {1, 1, 0.5, 0}, a.grad().toDoubleArray(), "minimum, a" + on);
                assertArrayEquals(new double[] {1, 1, 0.5, 1}, b.grad().toDoubleArray(), "minimum, b" + on);
                a.zeroGrad();
                b.zeroGrad();
                Tensor c = Tensor.of(new float[] {1, Float.NaN, 3, Float.NaN}).requiresGrad(true);
                c.max().backward();
                assertArrayEquals(new double[] {0, 0.5, 0, 0.5}, c.grad().toDoubleArray(), "max of a NaN: shared by the NaNs" + on);
                c.zeroGrad();
                c.min(0, false).backward();
                assertArrayEquals(new double[] {0, 0.5, 0, 0.5}, c.grad().toDoubleArray(), "min of a NaN" + on);
                c.zeroGrad();
            }
        }
    }

    @Test
    void mixedDtypesPromoteAsPytorchResultType() {
        Supplier<Tensor> i32 = () -> Tensor.of(new int[] {1, 2, 3});
        expect("i32 * 0.5", () -> i32.get().mul(0.5), DType.F32, 0.5, 1, 1.5);
        expect("i32 * 2", () -> i32.get().mul(2), DType.I32, 2, 4, 6);
        expect("i32 / i32", () -> i32.get().div(Tensor.of(new int[] {2, 2, 2})), DType.F32, 0.5, 1, 1.5);
        expect("i32 / 2", () -> i32.get().div(2), DType.F32, 0.5, 1, 1.5);
        expect("i32 + i64", () -> i32.get().add(Tensor.of(new long[] {10, 20, 30})), DType.I64, 11, 22, 33);
        expect("i32 + f32", () -> i32.get().add(Tensor.of(new float[] {0.5f, 0.5f, 0.5f})), DType.F32, 1.5, 2.5, 3.5);
        expect("f16 + f32", () -> Tensor.of(new float[] {1, 2}).cast(DType.F16).add(Tensor.of(new float[] {0.25f, 0.5f})), DType.F32,
                1.25, 2.5);
        expect("i64 + f16", () -> Tensor.of(new long[] {1, 2}).add(Tensor.of(new float[] {0.5f, 0.5f}).cast(DType.F16)), DType.F16,
                1.5, 2.5);
        expect("f16 + rank-0 f32", () -> Tensor.of(new float[] {1, 2}).cast(DType.F16).add(Tensor.scalar(0.5)), DType.F16, 1.5, 2.5);
        expect("i32 + rank-0 f32", () -> i32.get().add(Tensor.scalar(0.5)), DType.F32, 1.5, 2.5, 3.5);
        expect("i32 > 1.5", () -> i32.get().gt(1.5), DType.F32, 0, 1, 1);
        expect("i32 < 2", () -> i32.get().lt(2), DType.I32, 1, 0, 0);
        expect("i32 pow 0.5", () -> Tensor.of(new int[] {4, 9}).pow(0.5), DType.F32, 2, 3);
        expect("where i32 or f32", () -> Tensor.where(Tensor.of(new int[] {1, 0}), Tensor.of(new int[] {7, 7}),
                Tensor.of(new float[] {0.5f, 0.5f})), DType.F32, 7, 0.5);
        expect("concat i32 and f32", () -> Tensor.concat(List.of(i32.get(), Tensor.of(new float[] {0.5f})), 0), DType.F32, 1, 2, 3, 0.5);
        expect("concat f16 and i64", () -> Tensor.concat(List.of(Tensor.of(new long[] {7}), Tensor.of(new float[] {0.5f}).cast(DType.F16)), 0),
                DType.F16, 7, 0.5);
        refuses("concat past 2^31 along the axis", () -> Tensor.concat(List.of(Tensor.zeros(1).expand((1 << 30) + 1),
                Tensor.zeros(1).expand((1 << 30) + 1)), 0), "concat: axis 0 would hold 2147483650 elements; expected at most 2147483647");
        refuses("pow of integers", () -> i32.get().pow(2), "pow: integer operands only");
        refuses("float scalar in place on an integer tensor", () -> Tensor.of(new int[] {1}).addInPlace(0.5), "addInPlace", "[a: (1,) i32]");
        expectLongs("integer scalar in place", () -> Tensor.of(new int[] {1}).mulInPlace(3).addInPlace(4), DType.I32, 7);
        expect("f32 into f16 in place", () -> Tensor.of(new float[] {1, 2}).cast(DType.F16).addInPlace(Tensor.of(new float[] {0.25f, 1e5f})),
                DType.F16, 1.25, INF);
        expectLongs("i64 into i32 in place wraps", () -> Tensor.of(new int[] {Integer.MAX_VALUE}).addInPlace(Tensor.of(new long[] {1})),
                DType.I32, Integer.MIN_VALUE);
        expect("i32 into f32 in place", () -> Tensor.of(new float[] {1, 2}).divInPlace(Tensor.of(new int[] {2, 4})), DType.F32, 0.5, 0.5);
        refuses("f32 into i32 in place", () -> Tensor.of(new int[] {1}).addInPlace(Tensor.of(new float[] {0.5f})),
                "addInPlace: the result is f32, which an integer tensor cannot hold");
        refuses("true division in place on integers", () -> Tensor.of(new int[] {4}).divInPlace(Tensor.of(new int[] {2})),
                "divInPlace: the result is f32, which an integer tensor cannot hold");
    }

    @Test
    void promotedGradientsFlowBackToEachDtype() {
        for (Backend backend : new Backend[] {reference, candidate()}) {
            try (var _ = TensorScope.open(); var _ = Backends.using(backend)) {
                Tensor half = Tensor.of(new float[] {1, 2}).cast(DType.F16).requiresGrad(true);
                Tensor full = Tensor.of(new float[] {3, 4}).requiresGrad(true);
                half.mul(full).sum().backward();
                assertEquals(DType.F16, half.grad().dtype(), backend.name());
                assertArrayEquals(new double[] {3, 4}, half.grad().toDoubleArray(), backend.name());
                assertArrayEquals(new double[] {1, 2}, full.grad().toDoubleArray(), backend.name());
                half.zeroGrad();
                full.zeroGrad();
                Tensor.concat(List.of(half, full), 0).mul(Tensor.of(new float[] {1, 2, 3, 4})).sum().backward();
                assertEquals(DType.F16, half.grad().dtype(), "concat: " + backend.name());
                assertArrayEquals(new double[] {1, 2}, half.grad().toDoubleArray(), "concat: " + backend.name());
                assertArrayEquals(new double[] {3, 4}, full.grad().toDoubleArray(), "concat: " + backend.name());
                half.zeroGrad();
                full.zeroGrad();
            }
        }
    }

    @Test
    void f16ReductionsAccumulateInF32() {
        expect("mean of 40,000 twos", () -> Tensor.full(DType.F16, 2, 40_000).mean(), DType.F16, 2);
        expect("mean along an axis", () -> Tensor.full(DType.F16, 2, 2, 40_000).mean(1, false), DType.F16, 2, 2);
        double share = Float.float16ToFloat(Float.floatToFloat16(1e-5f));
        expect("softmax of 100,000", () -> Tensor.zeros(DType.F16, 100_000).softmax(0).slice(0, 0, 2), DType.F16, share, share);
        double log = Float.float16ToFloat(Float.floatToFloat16((float) -Math.log(100_000)));
        expect("logSoftmax of 100,000", () -> Tensor.zeros(DType.F16, 100_000).logSoftmax(0).slice(0, 0, 1), DType.F16, log);
        expect("layerNorm of large halves", () -> Tensor.of(new float[] {-400, 400}).cast(DType.F16).layerNorm(null, null, 0),
                DType.F16, -1, 1);
        expect("crossEntropy of f16 logits", () -> Tensor.crossEntropy(Tensor.zeros(DType.F16, 1, 100_000), Tensor.of(new long[] {0})),
                DType.F16, Float.float16ToFloat(Float.floatToFloat16((float) Math.log(100_000))));
    }

    @Test
    void valuesOutOfADtypesRangeAreRefusedAtCreation() {
        refuses("arange i32 to 3e9", () -> Tensor.arange(DType.I32, 0, 3.5e9, 1e9),
                "arange: value 3.0E9 at index 3 out of range for i32; expected -2147483648 <= value <= 2147483647");
        refuses("arange i32 from 3e9", () -> Tensor.arange(DType.I32, 3e9, 3e9 + 2, 1), "arange: start 3.0E9 out of range for i32");
        refuses("arange f16 beyond 65504", () -> Tensor.arange(DType.F16, 0, 2e5, 1e5), "out of range for f16");
        refuses("arange to NaN", () -> Tensor.arange(DType.F32, 0, Double.NaN, 1), "arange: start=0.0 end=NaN step=1.0; expected finite values");
        refuses("full i32 3e9", () -> Tensor.full(DType.I32, 3e9, 2), "full: value 3.0E9 out of range for i32");
        refuses("full i64 NaN", () -> Tensor.full(DType.I64, Double.NaN, 2), "full: value NaN out of range for i64");
        refuses("fill i32 -3e9", () -> Tensor.zeros(DType.I32, 2).fill(-3e9), "fill: value -3.0E9 out of range for i32");
        expect("arange i32 near the top", () -> Tensor.arange(DType.I32, 2147483645, 2147483648.0, 1), DType.I32,
                2147483645, 2147483646, 2147483647);
        expect("full f32 infinity", () -> Tensor.full(DType.F32, INF, 1), DType.F32, INF);
    }

    @Test
    void emptyTensorsReduceAsPytorch() {
        for (Backend backend : new Backend[] {reference, candidate()}) {
            try (var _ = TensorScope.open(); var _ = Backends.using(backend)) {
                assertTrue(Tensor.zeros(3, 0).isContiguous(), backend.name());
                assertEquals(Shape.of(0), Tensor.zeros(3, 0).sum(0, false).shape(), backend.name());
                assertEquals(Shape.of(0), Tensor.zeros(3, 0).max(0, false).shape(), backend.name());
                assertEquals(Shape.of(3, 0), Tensor.zeros(3, 0).transpose(0, 1).contiguous().t().shape(), backend.name());
                Tensor emptyView = Tensor.stack(List.of(Tensor.zeros(0, 3), Tensor.zeros(0, 3)), -1).select(-1, 1);
                assertEquals(0, emptyView.toDoubleArray().length, "an empty view past its storage's end reads as empty on " + backend.name());
            }
        }
        expect("sum along the empty axis", () -> Tensor.zeros(3, 0).sum(1, false), DType.F32, 0, 0, 0);
        expectLongs("integer sum along the empty axis", () -> Tensor.zeros(DType.I32, 2, 0).sum(1, true), DType.I64, 0, 0);
        expect("mean along the empty axis", () -> Tensor.zeros(2, 0).mean(1, false), DType.F32, NAN, NAN);
        expect("sum of an empty tensor", () -> Tensor.zeros(0, 4).sum(), DType.F32, 0);
        refuses("max along the empty axis", () -> Tensor.zeros(3, 0).max(1, false), "max: axis 1 is empty; expected at least one element");
        refuses("argmax along the empty axis", () -> Tensor.zeros(3, 0).argmax(-1), "argmax: axis -1 is empty");
    }

    @Test
    void powGradientsAtBaseZeroMatchPytorch() {
        for (Backend backend : new Backend[] {reference, candidate()}) {
            try (var _ = TensorScope.open(); var _ = Backends.using(backend)) {
                String on = " on " + backend.name();
                Tensor x = Tensor.of(new float[] {0, 0, 2}).requiresGrad(true);
                x.pow(0).sum().backward();
                assertArrayEquals(new double[] {0, 0, 0}, x.grad().toDoubleArray(), "x^0" + on);
                x.zeroGrad();
                x.pow(2).sum().backward();
                assertArrayEquals(new double[] {0, 0, 4}, x.grad().toDoubleArray(), "x^2" + on);
                x.zeroGrad();
                Tensor e = Tensor.of(new float[] {0, 2, 3}).requiresGrad(true);
                x.pow(e).sum().backward();
                assertArrayEquals(new double[] {0, 0, 12}, x.grad().toDoubleArray(), "d x^e / dx" + on);
                assertArrayEquals(new double[] {0, 0, (float) (8 * Math.log(2))}, e.grad().toDoubleArray(), "d x^e / de" + on);
                Tensor negative = Tensor.of(new float[] {0}).requiresGrad(true);
                Tensor minusOne = Tensor.of(new float[] {-1}).requiresGrad(true);
                negative.pow(minusOne).sum().backward();
                assertEquals(Double.NEGATIVE_INFINITY, negative.grad().item(), "d 0^-1 / dx" + on); // -1 * 0^-2, as PyTorch
                assertEquals(Double.NEGATIVE_INFINITY, minusOne.grad().item(), "d 0^-1 / de" + on); // inf * log 0, as PyTorch
                for (Tensor leaf : List.of(x, e, negative, minusOne)) leaf.zeroGrad();
            }
        }
    }

    @Test
    void hugeShapesNameTheShapeAndTheLimit() {
        refuses("zeros of 2^90 elements", () -> Tensor.zeros(1 << 30, 1 << 30, 1 << 30),
                "full: shape (1073741824, 1073741824, 1073741824) has 1237940039285380274899124224 elements; expected at most "
                        + "Shape.MAX_ELEMENTS=1152921504606846975");
        // 2^90 wraps to 0 in a long: the element count an empty tensor has, yet no shape of 2^90 elements exists
        refuses("reshape to 2^90 elements", () -> Tensor.zeros(0).reshape(1 << 30, 1 << 30, 1 << 30),
                "reshape: shape (1073741824, 1073741824, 1073741824) has 1237940039285380274899124224 elements; expected at most");
        refuses("expand to 2^90 elements", () -> Tensor.zeros(1).expand(1 << 30, 1 << 30, 1 << 30),
                "expand: shape (1073741824, 1073741824, 1073741824) has 1237940039285380274899124224 elements; expected at most");
        expectLongs("slice with a step near 2^31", () -> Tensor.arange(5).slice(0, 1, 5, Integer.MAX_VALUE), DType.I64, 1);
        refuses("uniform of 2^32 elements", () -> Tensor.uniform(new SplittableRandom(1), 0, 1, 1 << 16, 1 << 16),
                "uniform: shape (65536, 65536) has 4294967296 elements; expected at most 2147483639 for values drawn in Java");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Shape.of(1 << 30, 1 << 30, 1 << 30));
        assertTrue(e.getMessage().startsWith("shape (1073741824, 1073741824, 1073741824) has "), e.getMessage());
    }

    // ------------------------------------------------------------------ convolution, pooling and batch norm

    /** torch.nn.functional.conv2d by its definition, in double, over row-major arrays. */
    private static double[] directConv2d(double[] x, int[] xd, double[] w, int[] wd, double[] bias, int[] s, int[] p, int[] d, int groups) {
        int n = xd[0], c = xd[1], h = xd[2], wi = xd[3], out = wd[0], cg = wd[1], kh = wd[2], kw = wd[3];
        int oh = (h + 2 * p[0] - d[0] * (kh - 1) - 1) / s[0] + 1, ow = (wi + 2 * p[1] - d[1] * (kw - 1) - 1) / s[1] + 1;
        double[] y = new double[n * out * oh * ow];
        for (int b = 0; b < n; b++)
            for (int o = 0; o < out; o++)
                for (int i = 0; i < oh; i++)
                    for (int j = 0; j < ow; j++) {
                        double acc = bias == null ? 0 : bias[o];
                        int g = o / (out / groups);
                        for (int ci = 0; ci < cg; ci++)
                            for (int u = 0; u < kh; u++)
                                for (int v = 0; v < kw; v++) {
                                    int r = i * s[0] - p[0] + u * d[0], q = j * s[1] - p[1] + v * d[1];
                                    if (r < 0 || r >= h || q < 0 || q >= wi) continue;
                                    acc += x[((b * c + g * cg + ci) * h + r) * wi + q] * w[((o * cg + ci) * kh + u) * kw + v];
                                }
                        y[((b * out + o) * oh + i) * ow + j] = acc;
                    }
        return y;
    }

    @Test
    void conv2dMatchesTheDefinition() {
        // input dims, weight dims, stride, padding, dilation, groups
        int[][][] cases = {
                {{2, 3, 7, 6}, {4, 3, 3, 3}, {1, 1}, {0, 0}, {1, 1}, {1}},
                {{2, 3, 7, 6}, {4, 3, 3, 2}, {2, 1}, {1, 2}, {1, 1}, {1}},
                {{1, 4, 8, 9}, {6, 2, 3, 3}, {2, 2}, {1, 1}, {2, 1}, {2}},
                {{1, 4, 5, 5}, {4, 1, 3, 3}, {1, 1}, {1, 1}, {1, 1}, {4}},
                {{3, 2, 4, 4}, {5, 2, 1, 1}, {1, 1}, {0, 0}, {1, 1}, {1}}};
        for (int[][] k : cases) {
            String what = "conv2d " + Arrays.toString(k[0]) + " * " + Arrays.toString(k[1]) + " stride " + Arrays.toString(k[2])
                    + " padding " + Arrays.toString(k[3]) + " dilation " + Arrays.toString(k[4]) + " groups " + k[5][0];
            try (var _ = TensorScope.open(); var _ = Backends.using(candidate())) {
                var rng = new SplittableRandom(what.hashCode());
                Tensor x = Tensor.uniform(rng, -1, 1, k[0]), w = Tensor.uniform(rng, -1, 1, k[1]), b = Tensor.uniform(rng, -1, 1, k[1][0]);
                Tensor y = Tensor.conv2d(x, w, b, k[2], k[3], k[4], k[5][0]);
                double[] expected = directConv2d(x.toDoubleArray(), k[0], w.toDoubleArray(), k[1], b.toDoubleArray(), k[2], k[3], k[4], k[5][0]);
                int oh = (k[0][2] + 2 * k[3][0] - k[4][0] * (k[1][2] - 1) - 1) / k[2][0] + 1;
                int ow = (k[0][3] + 2 * k[3][1] - k[4][1] * (k[1][3] - 1) - 1) / k[2][1] + 1;
                assertEquals(Shape.of(k[0][0], k[1][0], oh, ow), y.shape(), what);
                close(what, expected, y.toDoubleArray(), DType.F32);
            }
        }
        expect("conv2d of 0..15 by ones(2, 2)", () -> Tensor.conv2d(Tensor.arange(DType.F32, 0, 16, 1).reshape(1, 1, 4, 4),
                Tensor.ones(1, 1, 2, 2), null, 1, 0, 1, 1), DType.F32, 10, 14, 18, 26, 30, 34, 42, 46, 50);
        expect("unbatched conv2d", () -> Tensor.conv2d(Tensor.ones(1, 2, 2), Tensor.ones(1, 1, 1, 1), Tensor.of(new float[] {1}), 1, 0, 1, 1)
                .reshape(-1), DType.F32, 2, 2, 2, 2);
    }

    @Test
    void conv2dAgreesAcrossLayoutsWithGradients() {
        for (Layout l : Layout.values()) {
            agree("conv2d " + l, x -> Tensor.conv2d(x[0], x[1], x[2], 2, 1, 1, 1), f32(2, 3, 6, 5).as(l).requiresGrad(),
                    f32(4, 3, 3, 3).as(l).requiresGrad(), f32(4).requiresGrad());
        }
        agree("conv2d groups dilation", x -> Tensor.conv2d(x[0], x[1], null, 1, 2, 2, 2), f32(2, 4, 6, 6).requiresGrad(),
                f32(6, 2, 3, 3).requiresGrad());
        agree("maxPool2d", x -> x[0].maxPool2d(3, 2, 1), f32(2, 3, 7, 6).as(Layout.TRANSPOSED).requiresGrad());
        agree("avgPool2d", x -> x[0].avgPool2d(3, 2, 1), f32(2, 3, 7, 6).as(Layout.SLICED).requiresGrad());
        agree("batchNorm training", x -> Tensor.batchNorm(x[0], null, null, x[1], x[2], true, 0.1, 1e-5),
                f32(4, 3, 5, 2).as(Layout.TRANSPOSED).requiresGrad(), f32(3).requiresGrad(), f32(3).requiresGrad());
        agree("batchNorm eval", x -> Tensor.batchNorm(x[0], x[1], x[2], x[3], null, false, 0.1, 1e-5),
                f32(4, 3, 5).requiresGrad(), f32(3), positive(3), f32(3).requiresGrad());
        Input half = new Input(DType.F16, new int[] {2, 4, 5, 5}, -2, 2, Layout.CONTIGUOUS, false);
        agree("conv2d f16", x -> Tensor.conv2d(x[0], x[1], x[2], 1, 1, 1, 2), half,
                new Input(DType.F16, new int[] {2, 2, 3, 3}, -1, 1, Layout.CONTIGUOUS, false),
                new Input(DType.F16, new int[] {2}, -1, 1, Layout.CONTIGUOUS, false));
        agree("maxPool2d f16", x -> x[0].maxPool2d(2, 1, 1), half);
        agree("avgPool2d f16", x -> x[0].avgPool2d(3, 2, 1), half);
        agree("batchNorm f16", x -> Tensor.batchNorm(x[0], null, null, null, null, true, 0.1, 1e-5), half);
    }

    /** Distinct values 0.1 apart in a shuffled order: finite differences of a max never cross a tie. */
    private static Gradcheck.Input separated(long seed, int... dims) {
        int n = 1;
        for (int d : dims) n *= d;
        float[] v = new float[n];
        for (int i = 0; i < n; i++) v[i] = (i - n / 2) * 0.1f;
        var rng = new SplittableRandom(seed);
        for (int i = n - 1; i > 0; i--) {
            int j = rng.nextInt(i + 1);
            float t = v[i];
            v[i] = v[j];
            v[j] = t;
        }
        return new Gradcheck.Input(v, dims);
    }

    @Test
    void convolutionPoolingAndBatchNormGradientsMatchFiniteDifferences() {
        try (var _ = Backends.using(candidate())) {
            Gradcheck.check("conv2d stride padding", x -> Tensor.conv2d(x[0], x[1], x[2], 2, 1, 1, 1), Gradcheck.random(21, 1, 2, 5, 4),
                    Gradcheck.random(22, 3, 2, 3, 3), Gradcheck.random(23, 3));
            Gradcheck.check("conv2d groups dilation", x -> Tensor.conv2d(x[0], x[1], null, 1, 1, 2, 2), Gradcheck.random(24, 1, 4, 5, 5),
                    Gradcheck.random(25, 2, 2, 2, 2));
            Gradcheck.check("maxPool2d overlapping", x -> x[0].maxPool2d(3, 1, 1), separated(26, 1, 2, 4, 5));
            Gradcheck.check("avgPool2d overlapping", x -> x[0].avgPool2d(3, 2, 1), Gradcheck.random(27, 2, 1, 5, 5));
            Gradcheck.check("batchNorm training", x -> Tensor.batchNorm(x[0], null, null, x[1], x[2], true, 0.1, 1e-5),
                    Gradcheck.random(28, 3, 2, 2, 2), Gradcheck.random(29, 2), Gradcheck.random(30, 2));
        }
    }

    @Test
    void poolsMatchPytorch() {
        Supplier<Tensor> grid = () -> Tensor.arange(DType.F32, 0, 16, 1).reshape(1, 1, 4, 4);
        expect("maxPool2d 2", () -> grid.get().maxPool2d(2), DType.F32, 5, 7, 13, 15);
        expect("avgPool2d 2", () -> grid.get().avgPool2d(2), DType.F32, 2.5, 4.5, 10.5, 12.5);
        expect("maxPool2d padded", () -> Tensor.arange(DType.F32, -9, 0, 1).reshape(1, 3, 3).maxPool2d(3, 2, 1), DType.F32,
                -5, -4, -2, -1); // padding never wins, even over negative values
        expect("avgPool2d counts the padding", () -> Tensor.of(new float[] {1, 2, 3, 4}, 1, 1, 2, 2).avgPool2d(3, 1, 1).reshape(-1),
                DType.F32, 10 / 9f, 10 / 9f, 10 / 9f, 10 / 9f);
        expect("avgPool2d rectangular", () -> grid.get().avgPool2d(new int[] {1, 4}, new int[] {2, 1}, new int[] {0, 0}), DType.F32, 1.5, 9.5);
        for (Backend backend : new Backend[] {reference, candidate()}) {
            try (var _ = TensorScope.open(); var _ = Backends.using(backend)) {
                Tensor x = Tensor.ones(1, 1, 2, 3).requiresGrad(true);
                x.maxPool2d(2, 1, 0).sum().backward();
                assertArrayEquals(new double[] {1, 1, 0, 0, 0, 0}, x.grad().toDoubleArray(), "ties send the gradient to the first on " + backend.name());
                x.zeroGrad();
                x.avgPool2d(2, 1, 0).sum().backward();
                assertArrayEquals(new double[] {0.25, 0.5, 0.25, 0.25, 0.5, 0.25}, x.grad().toDoubleArray(), "overlapping windows add up on " + backend.name());
                x.zeroGrad();
            }
        }
    }

    @Test
    void batchNormMatchesPytorch() {
        for (Backend backend : new Backend[] {reference, candidate()}) {
            try (var _ = TensorScope.open(); var _ = Backends.using(backend)) {
                String on = " on " + backend.name();
                Tensor x = Tensor.of(new float[] {1, 2, 3, 6}, 2, 2);
                Tensor mean = Tensor.zeros(2), var = Tensor.ones(2);
                Tensor y = Tensor.batchNorm(x, mean, var, null, null, true, 0.1, 0);
                assertArrayEquals(new double[] {-1, -1, 1, 1}, y.toDoubleArray(), 1e-6, "training normalizes by the batch" + on);
                assertArrayEquals(new double[] {0.2, 0.4}, mean.toDoubleArray(), 1e-6, "running mean" + on);
                assertArrayEquals(new double[] {1.1, 1.7}, var.toDoubleArray(), 1e-6, "running variance, unbiased" + on);
                Tensor eval = Tensor.batchNorm(x, mean, var, Tensor.of(new float[] {2, 1}), Tensor.of(new float[] {0, 1}), false, 0.1, 0);
                double[] want = {2 * (1 - 0.2) / Math.sqrt(1.1), (2 - 0.4) / Math.sqrt(1.7) + 1, 2 * (3 - 0.2) / Math.sqrt(1.1),
                        (6 - 0.4) / Math.sqrt(1.7) + 1};
                assertArrayEquals(want, eval.toDoubleArray(), 1e-5, "evaluation uses the running statistics" + on);
                assertArrayEquals(new double[] {0.2, 0.4}, mean.toDoubleArray(), 1e-6, "evaluation leaves them" + on);
            }
        }
    }

    @Test
    void convolutionShapesThatDoNotFitAreRefused() {
        refuses("kernel larger than the padded input", () -> Tensor.conv2d(Tensor.zeros(1, 1, 2, 2), Tensor.zeros(1, 1, 5, 3), null, 1, 1, 1, 1),
                "conv2d: kernel 5x3 (dilation 1x1, spanning 5x3) is larger than the padded input 4x4", "[a: (1, 1, 2, 2) f32, b: (1, 1, 5, 3) f32]");
        refuses("dilated kernel larger than the input", () -> Tensor.conv2d(Tensor.zeros(1, 1, 4, 4), Tensor.zeros(1, 1, 3, 3), null, 1, 0, 2, 1),
                "spanning 5x5) is larger than the padded input 4x4");
        refuses("channels not divisible by groups", () -> Tensor.conv2d(Tensor.zeros(1, 3, 4, 4), Tensor.zeros(4, 1, 1, 1), null, 1, 0, 1, 2),
                "conv2d: groups=2 with 3 input and 4 output channels; expected groups >= 1 dividing both");
        refuses("weight channels differ from the input's", () -> Tensor.conv2d(Tensor.zeros(1, 3, 4, 4), Tensor.zeros(4, 2, 1, 1), null, 1, 0, 1, 1),
                "conv2d: weight takes 2 channels per group but the input has 3 channels in 1 group(s); expected weight.dim(1) = 3",
                "[a: (1, 3, 4, 4) f32, b: (4, 2, 1, 1) f32]");
        refuses("bias of the wrong size", () -> Tensor.conv2d(Tensor.zeros(1, 3, 4, 4), Tensor.zeros(4, 3, 1, 1), Tensor.zeros(3), 1, 0, 1, 1),
                "conv2d: bias must have shape (4,)", "c: (3,) f32");
        refuses("a matrix as input", () -> Tensor.conv2d(Tensor.zeros(4, 4), Tensor.zeros(1, 1, 1, 1), null, 1, 0, 1, 1),
                "conv2d: expected input (n, c, h, w) or (c, h, w)");
        refuses("stride 0", () -> Tensor.conv2d(Tensor.zeros(1, 1, 4, 4), Tensor.zeros(1, 1, 1, 1), null, 0, 0, 1, 1),
                "conv2d: stride [0, 0]; expected two values (height, width), each at least 1");
        refuses("pool kernel larger than the input", () -> Tensor.zeros(1, 1, 2, 2).maxPool2d(3),
                "maxPool2d: kernel 3x3 (dilation 1x1, spanning 3x3) is larger than the padded input 2x2");
        refuses("pool padding over half the kernel", () -> Tensor.zeros(1, 1, 4, 4).avgPool2d(2, 1, 2),
                "avgPool2d: padding 2x2 with kernel 2x2; expected padding at most half the kernel's span (1x1)");
        refuses("batchNorm of one value per channel", () -> Tensor.batchNorm(Tensor.zeros(1, 3), null, null, null, null, true, 0.1, 1e-5),
                "batchNorm: training with 1 value per channel; expected more than 1");
        refuses("batchNorm with the wrong number of channels", () -> Tensor.batchNorm(Tensor.zeros(2, 3), Tensor.zeros(4), Tensor.ones(4),
                null, null, false, 0.1, 1e-5), "batchNorm: running mean, running variance, weight and bias must have shape (3,)");
        refuses("batchNorm evaluation without running statistics", () -> Tensor.batchNorm(Tensor.zeros(2, 3), null, null, null, null, false,
                0.1, 1e-5), "batchNorm: evaluation needs the running mean and variance");
    }

    @Test
    void aConvolutionalNetworkTrainsSavesItsBuffersAndEvaluates() throws java.io.IOException {
        java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("panamax-contract");
        java.nio.file.Path file = dir.resolve("cnn.npz");
        var rng = new SplittableRandom(5);
        dev.panamax.tensor.nn.BatchNorm2d bn;
        dev.panamax.tensor.nn.Sequential model;
        try (var _ = Backends.using(reference)) { // made on one backend, moved whole (buffers too) to the candidate
            bn = new dev.panamax.tensor.nn.BatchNorm2d(4);
            model = new dev.panamax.tensor.nn.Sequential(new dev.panamax.tensor.nn.Conv2d(1, 4, 3, 1, 1, rng), bn,
                    new dev.panamax.tensor.nn.ReLU(), new dev.panamax.tensor.nn.MaxPool2d(2), new dev.panamax.tensor.nn.AvgPool2d(2, 1, 0),
                    new dev.panamax.tensor.nn.Flatten(), new dev.panamax.tensor.nn.Linear(4, 2, rng));
        }
        model.to(candidate());
        try (var _ = Backends.using(candidate())) {
            for (Tensor buffer : model.namedBuffers().values()) assertEquals(candidate(), buffer.backend(), "buffers move with the model");
            assertEquals(Shape.of(2, 12, 5), new dev.panamax.tensor.nn.Flatten(1, 2).forward(Tensor.zeros(2, 3, 4, 5)).shape());
            assertEquals(List.of("0.weight", "0.bias", "1.weight", "1.bias", "6.weight", "6.bias"), List.copyOf(model.namedParameters().keySet()));
            assertEquals(List.of("1.running_mean", "1.running_var", "1.num_batches_tracked"), List.copyOf(model.namedBuffers().keySet()));
            Tensor x = Tensor.uniform(rng, 0, 1, 8, 1, 4, 4);
            Tensor labels = Tensor.of(new long[] {0, 1, 0, 1, 0, 1, 0, 1});
            var sgd = new dev.panamax.tensor.optim.SGD(model.parameters(), 0.1);
            double first = 0, last = 0;
            for (int step = 0; step < 20; step++) {
                try (var _ = TensorScope.open()) {
                    Tensor loss = Tensor.crossEntropy(model.forward(x), labels);
                    sgd.zeroGrad();
                    loss.backward();
                    sgd.step();
                    last = loss.item();
                    if (step == 0) first = last;
                }
            }
            assertTrue(last < first, "loss " + first + " -> " + last);
            assertEquals(20, bn.namedBuffers().get("num_batches_tracked").item());
            assertFalse(Arrays.equals(new float[] {0, 0, 0, 0}, bn.runningMean().toFloatArray()), "running mean moved");
            model.setTraining(false);
            double[] before = bn.runningMean().toDoubleArray();
            float[] evaluated = model.forward(x).toFloatArray();
            assertArrayEquals(before, bn.runningMean().toDoubleArray(), "evaluation leaves the running mean");
            dev.panamax.tensor.nn.Parameters.save(model, file);
            var copy = new dev.panamax.tensor.nn.Sequential(new dev.panamax.tensor.nn.Conv2d(1, 4, 3, 1, 1, rng),
                    new dev.panamax.tensor.nn.BatchNorm2d(4), new dev.panamax.tensor.nn.ReLU(), new dev.panamax.tensor.nn.MaxPool2d(2),
                    new dev.panamax.tensor.nn.AvgPool2d(2, 1, 0), new dev.panamax.tensor.nn.Flatten(), new dev.panamax.tensor.nn.Linear(4, 2, rng));
            dev.panamax.tensor.nn.Parameters.load(copy, file);
            copy.setTraining(false);
            assertArrayEquals(evaluated, copy.forward(x).toFloatArray(), 1e-5f, "the loaded model, running statistics included, evaluates alike");
            assertEquals(20, copy.namedBuffers().get("1.num_batches_tracked").item());
            sgd.close();
            model.close();
            copy.close();
        } finally {
            java.nio.file.Files.deleteIfExists(file);
            java.nio.file.Files.deleteIfExists(dir);
        }
    }

    // ------------------------------------------------------------------ activations, statistics, masking and indexing beyond the MLP

    @Test
    void erfAndBothGelusAndSilu() {
        for (Layout l : Layout.values()) {
            Input any = new Input(DType.F32, new int[] {5, 7}, -4, 4, l, true);
            agree("erf " + l, x -> x[0].erf(), any);
            agree("gelu none " + l, x -> x[0].gelu("none"), any);
            agree("gelu tanh " + l, x -> x[0].gelu("tanh"), any);
            agree("silu " + l, x -> x[0].silu(), any);
        }
        agree("erf large", x -> x[0].erf(), new Input(DType.F32, new int[] {1023, 65}, -7, 7, Layout.CONTIGUOUS, false));
        agree("gelu none f16", x -> x[0].gelu("none"), new Input(DType.F16, new int[] {33}, -3, 3, Layout.CONTIGUOUS, false));
        // PyTorch: erf(0.5) = 0.5204998778, gelu(1) = 0.8413447461, gelu(1, approximate='tanh') = 0.8411919906, silu(1) = 0.7310585786
        expectClose("erf and gelu values", () -> Tensor.concat(List.of(Tensor.of(new float[] {0.5f, -2}).erf(),
                Tensor.of(new float[] {1, -1}).gelu("none"), Tensor.of(new float[] {1}).gelu("tanh"), Tensor.of(new float[] {1}).gelu(),
                Tensor.of(new float[] {1}).silu()), 0), 1e-6,
                0.5204998778, -0.9953222650, 0.8413447461, -0.1586552539, 0.8411919906, 0.8411919906, 0.7310585786);
        expect("erf of infinities, NaN and signed zero", () -> Tensor.of(new float[] {Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY,
                Float.NaN, -0f, 0f}).erf(), DType.F32, 1, -1, NAN, -0.0, 0.0);
        refuses("gelu with an unknown approximation", () -> Tensor.ones(2).gelu("fast"),
                "gelu: approximate=\"fast\"; expected \"none\" (exact, erf) or \"tanh\"");
        refuses("erf of integers", () -> Tensor.arange(3).erf(), "erf: expected a floating dtype");
        assertThrows(IllegalArgumentException.class, () -> new dev.panamax.tensor.nn.GELU("fast"));
        try (var _ = Backends.using(candidate())) {
            Gradcheck.check("erf", x -> x[0].erf(), Gradcheck.random(31, 3, 4));
            Gradcheck.check("gelu none", x -> x[0].gelu("none"), Gradcheck.uniform(32, -3, 3, 3, 4));
            Gradcheck.check("silu", x -> x[0].silu(), Gradcheck.uniform(33, -3, 3, 3, 4));
            Tensor x = Tensor.of(new float[] {-1, 0, 2});
            assertArrayEquals(x.gelu("none").toFloatArray(), new dev.panamax.tensor.nn.GELU("none").forward(x).toFloatArray());
            assertArrayEquals(x.gelu().toFloatArray(), new dev.panamax.tensor.nn.GELU().forward(x).toFloatArray());
            assertArrayEquals(x.silu().toFloatArray(), new dev.panamax.tensor.nn.SiLU().forward(x).toFloatArray());
        }
    }

    @Test
    void softmaxLogsumexpAlongAnyAxis() {
        for (int axis : new int[] {0, 1, 2, -1, -2, -3}) {
            agree("softmax axis " + axis, x -> x[0].softmax(axis), f32(3, 4, 5).as(Layout.TRANSPOSED).requiresGrad());
            agree("logSoftmax axis " + axis, x -> x[0].logSoftmax(axis), f32(3, 4, 5).as(Layout.SLICED).requiresGrad());
            agree("logsumexp axis " + axis, x -> x[0].logsumexp(axis, false), f32(3, 4, 5).as(Layout.TRANSPOSED).requiresGrad());
            agree("logsumexp keepDim axis " + axis, x -> x[0].logsumexp(axis, true), f32(3, 4, 5).as(Layout.BROADCAST).requiresGrad());
        }
        agree("logsumexp of large values", x -> x[0].logsumexp(1, false), new Input(DType.F32, new int[] {6, 9}, 80, 200,
                Layout.CONTIGUOUS, true));
        agree("logsumexp f16", x -> x[0].logsumexp(-1, false), new Input(DType.F16, new int[] {4, 9}, -5, 5, Layout.CONTIGUOUS, false));
        float inf = Float.POSITIVE_INFINITY;
        expectClose("logsumexp of infinities, NaN and exact rows", () -> Tensor.of(new float[] {-inf, -inf, 1, inf, Float.NaN, 0, 0, 0},
                4, 2).logsumexp(1, false), 1e-6, Double.NEGATIVE_INFINITY, INF, NAN, Math.log(2));
        expect("logsumexp of an empty axis", () -> Tensor.zeros(2, 0).logsumexp(1, true), DType.F32, Double.NEGATIVE_INFINITY,
                Double.NEGATIVE_INFINITY);
        refuses("logsumexp out of range", () -> Tensor.zeros(2, 3).logsumexp(2, false), "logsumexp: axis 2 out of range; expected -2 <= axis < 2");
        try (var _ = Backends.using(candidate())) {
            Gradcheck.check("logsumexp", x -> x[0].logsumexp(-1, false), Gradcheck.random(34, 3, 4));
            Gradcheck.check("softmax axis -2", x -> x[0].softmax(-2), Gradcheck.random(35, 3, 4));
        }
    }

    @Test
    void varianceAndStandardDeviationAsPytorch() {
        for (Layout l : Layout.values()) {
            agree("var axis 1 " + l, x -> x[0].var(1, false), f32(4, 6, 3).as(l).requiresGrad());
            agree("var axis -1 keepDim " + l, x -> x[0].var(-1, true), f32(4, 6, 3).as(l).requiresGrad());
            agree("var biased " + l, x -> x[0].var(0, false, 0), f32(4, 6).as(l).requiresGrad());
            agree("std " + l, x -> x[0].std(1, true), f32(4, 6).as(l).requiresGrad());
            agree("std all " + l, x -> x[0].std(), f32(4, 6).as(l).requiresGrad());
        }
        agree("var f16", x -> x[0].var(1, false), new Input(DType.F16, new int[] {3, 40}, -100, 100, Layout.CONTIGUOUS, false));
        // PyTorch: torch.tensor([1., 2, 3, 4]).var() = 1.6667, .var(correction=0) = 1.25, .std() = 1.2910
        expectClose("var and std values", () -> {
            Tensor x = Tensor.of(new float[] {1, 2, 3, 4});
            return Tensor.concat(List.of(x.var().reshape(1), x.var(0, false, 0).reshape(1), x.std().reshape(1), x.std(0, true, 2)), 0);
        }, 1e-6, 5 / 3.0, 1.25, Math.sqrt(5 / 3.0), Math.sqrt(2.5));
        expect("var of one element is NaN (0 / 0)", () -> Tensor.of(new float[] {3}).var(), DType.F32, NAN);
        refuses("var of integers", () -> Tensor.arange(4).var(), "var: expected a floating dtype");
        refuses("std out of range", () -> Tensor.zeros(2).std(1, false), "std: axis 1 out of range");
        try (var _ = Backends.using(candidate())) {
            Gradcheck.check("var", x -> x[0].var(1, false), Gradcheck.random(36, 3, 4));
            Gradcheck.check("std", x -> x[0].std(0, true, 0), Gradcheck.random(37, 3, 4));
        }
    }

    @Test
    void clampAndItsBounds() {
        for (Layout l : Layout.values()) {
            agree("clamp " + l, x -> x[0].clamp(-0.5, 1), f32(5, 7).as(l).requiresGrad());
            agree("clampMin " + l, x -> x[0].clampMin(0.25), f32(5, 7).as(l).requiresGrad());
            agree("clampMax " + l, x -> x[0].clampMax(-0.25), f32(5, 7).as(l).requiresGrad());
        }
        agree("clamp i32 gives f32", x -> x[0].clamp(-3, 4.5), ints(DType.I32, -10, 10, 17));
        expect("clamp of NaN, bounds crossed, boundaries", () -> Tensor.of(new float[] {Float.NaN, -2, 5, 1}).clamp(-1, 1),
                DType.F32, NAN, -1, 1, 1);
        expect("clamp with min above max gives max", () -> Tensor.of(new float[] {-5, 0, 5}).clamp(2, 1), DType.F32, 1, 1, 1);
        try (var _ = Backends.using(candidate())) {
            // PyTorch: the gradient passes at the boundaries too (min <= x <= max)
            Tensor x = Tensor.of(new float[] {-2, -1, 0, 1, 2}).requiresGrad(true);
            x.clamp(-1, 1).sum().backward();
            assertArrayEquals(new float[] {0, 1, 1, 1, 0}, x.grad().toFloatArray());
            x.zeroGrad();
            Gradcheck.check("clamp", t -> t[0].clamp(-0.7, 0.9), Gradcheck.random(38, 3, 4));
        }
    }

    @Test
    void maskedFillTrilAndTriu() {
        for (Layout l : Layout.values()) {
            agree("maskedFill " + l, x -> x[0].maskedFill(x[1], -9), f32(4, 5).as(l).requiresGrad(), ints(DType.I64, 0, 2, 4, 5).as(l));
            agree("tril " + l, x -> x[0].tril(0), f32(3, 4, 5).as(l).requiresGrad());
            agree("triu 1 " + l, x -> x[0].triu(1), f32(4, 5).as(l).requiresGrad());
        }
        agree("maskedFill broadcast mask", x -> x[0].maskedFill(x[1], Double.NEGATIVE_INFINITY).softmax(-1),
                f32(2, 4, 4).requiresGrad(), ints(DType.I32, 0, 2, 4, 1));
        agree("tril -1 i64", x -> x[0].tril(-1), ints(DType.I64, -9, 9, 5, 3));
        agree("triu 2 f16", x -> x[0].triu(2), new Input(DType.F16, new int[] {4, 6}, -3, 3, Layout.CONTIGUOUS, false));
        expect("tril 0", () -> Tensor.ones(3, 3).tril(0), DType.F32, 1, 0, 0, 1, 1, 0, 1, 1, 1);
        expect("triu 1", () -> Tensor.ones(2, 3).triu(1), DType.F32, 0, 1, 1, 0, 0, 1);
        expect("tril -1", () -> Tensor.ones(3, 2).tril(-1), DType.F32, 0, 0, 1, 0, 1, 1);
        expect("maskedFill keeps the dtype", () -> Tensor.arange(4).maskedFill(Tensor.of(new int[] {1, 0, 0, 1}), 7), DType.I64, 7, 1, 2, 7);
        refuses("maskedFill mask wider than the tensor", () -> Tensor.zeros(4).maskedFill(Tensor.ones(2, 4), 1),
                "maskedFill: mask shape (2, 4) does not broadcast to the tensor's shape (4,)");
        refuses("maskedFill value out of the dtype's range", () -> Tensor.zeros(DType.I32, 2).maskedFill(Tensor.ones(2), 1e12),
                "maskedFill: value 1.0E12 out of range for i32");
        refuses("tril of a vector", () -> Tensor.zeros(3).tril(0), "tril: expected rank 2 or more");
        try (var _ = Backends.using(candidate())) {
            Gradcheck.check("triu", x -> x[0].triu(-1), Gradcheck.random(39, 2, 3, 4));
        }
    }

    @Test
    void oneHotGatherAndTopk() {
        agree("oneHot i64", x -> x[0].oneHot(6), ints(DType.I64, 0, 6, 3, 4));
        agree("oneHot i32 transposed", x -> x[0].oneHot(5), ints(DType.I32, 0, 5, 4, 3).as(Layout.TRANSPOSED));
        expectLongs("oneHot values, classes inferred", () -> Tensor.of(new long[] {2, 0, 1}).oneHot(-1), DType.I64, 0, 0, 1, 1, 0, 0, 0, 1, 0);
        refuses("oneHot out of range", () -> Tensor.of(new long[] {0, 3}).oneHot(3),
                "oneHot: index 3 at position 1 out of bounds; expected 0 <= index < 3");
        refuses("oneHot of a negative class", () -> Tensor.of(new long[] {-1}).oneHot(-1), "oneHot: index -1 at position 0 out of bounds");
        refuses("oneHot of floats", () -> Tensor.ones(2).oneHot(2), "oneHot: expected an i32 or i64 tensor");

        for (int axis : new int[] {0, 1, -1}) {
            for (Layout l : Layout.values()) {
                agree("gather axis " + axis + " " + l, x -> x[0].gather(axis, x[1]), f32(4, 5).as(l).requiresGrad(),
                        ints(DType.I64, 0, 4, 4, 4).as(l));
            }
        }
        agree("gather 3-d smaller index", x -> x[0].gather(1, x[1]), f32(3, 6, 4).requiresGrad(), ints(DType.I32, 0, 6, 2, 7, 3));
        agree("gather i64 values", x -> x[0].gather(0, x[1]), ints(DType.I64, -50, 50, 5, 3), ints(DType.I64, 0, 5, 2, 3));
        expect("gather values (PyTorch's example)", () -> Tensor.of(new float[] {1, 2, 3, 4}, 2, 2).gather(1, Tensor.of(new long[] {0, 0, 1, 0}, 2, 2)),
                DType.F32, 1, 1, 4, 3);
        refuses("gather out of range", () -> Tensor.zeros(2, 3).gather(1, Tensor.of(new long[] {0, 3}, 2, 1)),
                "gather: index 3 at position 1 out of bounds; expected 0 <= index < 3");
        refuses("gather index too large", () -> Tensor.zeros(2, 3).gather(1, Tensor.zeros(DType.I64, 3, 1)),
                "gather: index size 3 in dimension 0 exceeds the input's 2");
        refuses("gather index of another rank", () -> Tensor.zeros(2, 3).gather(1, Tensor.zeros(DType.I64, 2)),
                "gather: index has rank 1; expected the input's rank 2");

        for (int axis : new int[] {0, -1}) {
            agree("topk values axis " + axis, x -> x[0].topk(3, axis).values(), f32(5, 6).as(Layout.TRANSPOSED).requiresGrad());
            agree("topk indices axis " + axis, x -> x[0].topk(3, axis).indices(), f32(5, 6).as(Layout.SLICED));
        }
        agree("topk i32", x -> x[0].topk(4, 1).values(), ints(DType.I32, -3, 3, 3, 8));
        expectLongs("topk with ties, NaN and -inf", () -> Tensor.of(new float[] {1, Float.NaN, 3, 3, Float.NEGATIVE_INFINITY,
                Float.NEGATIVE_INFINITY}).topk(6, 0).indices(), DType.I64, 1, 2, 3, 0, 4, 5);
        expect("topk values", () -> Tensor.of(new float[] {1, 5, 2, 7, 0, 3}, 2, 3).topk(2, 1).values(), DType.F32, 5, 2, 7, 3);
        expectLongs("topk of integers with repeated minima", () -> Tensor.of(new long[] {2, 2, 2, 9}).topk(4, 0).indices(), DType.I64, 3, 0, 1, 2);
        expectLongs("topk of nothing", () -> Tensor.zeros(3, 4).topk(0, 1).indices(), DType.I64);
        refuses("topk k too large", () -> Tensor.zeros(3, 4).topk(5, 1).values(), "topk: k=5 out of range; expected 0 <= k <= 4");
        try (var _ = Backends.using(candidate())) {
            Gradcheck.check("gather", x -> x[0].gather(1, Tensor.of(new long[] {2, 0, 2, 1, 1, 3}, 2, 3)), Gradcheck.random(40, 2, 4));
            Gradcheck.check("topk", x -> x[0].topk(2, -1).values(), Gradcheck.random(41, 3, 5));
        }
    }

    @Test
    void multinomialDrawsInProportion() {
        try (var _ = Backends.using(candidate())) {
            Tensor weights = Tensor.of(new float[] {0, 1, 3, 0, 0, 0, 2, 2}, 2, 4);
            Tensor drawn = Tensor.multinomial(weights, 4000, true, new SplittableRandom(5));
            assertEquals(Shape.of(2, 4000), drawn.shape());
            assertEquals(DType.I64, drawn.dtype());
            assertEquals(candidate(), drawn.backend());
            long[] d = drawn.toLongArray();
            int[][] counts = new int[2][4];
            for (int i = 0; i < d.length; i++) counts[i / 4000][(int) d[i]]++;
            assertEquals(0, counts[0][0] + counts[0][3] + counts[1][0] + counts[1][1], "zero weights are never drawn");
            assertTrue(counts[0][2] > 2 * counts[0][1] && counts[0][2] < 4 * counts[0][1], "3:1 weights: " + Arrays.toString(counts[0]));
            long[] without = Tensor.multinomial(Tensor.of(new float[] {1, 1, 1, 1, 0}), 4, new SplittableRandom(6)).toLongArray();
            Arrays.sort(without);
            assertArrayEquals(new long[] {0, 1, 2, 3}, without, "without replacement every nonzero category once");
            assertArrayEquals(Tensor.multinomial(weights, 7, true, new SplittableRandom(9)).toLongArray(),
                    Tensor.multinomial(weights, 7, true, new SplittableRandom(9)).toLongArray(), "the same seed draws the same");
        }
        refuses("multinomial with a negative weight", () -> Tensor.multinomial(Tensor.of(new float[] {1, -1}), 1, new SplittableRandom(1)),
                "multinomial: weight -1.0 at row 0, category 1; expected finite weights >= 0");
        refuses("multinomial of a zero row", () -> Tensor.multinomial(Tensor.zeros(2, 3), 1, new SplittableRandom(1)),
                "multinomial: row 0 sums to 0; expected a positive sum");
        refuses("multinomial without replacement, too few categories", () -> Tensor.multinomial(Tensor.of(new float[] {1, 0, 1}), 3,
                new SplittableRandom(1)), "row 0 has 2 categories of nonzero weight, fewer than samples=3");
        refuses("multinomial of rank 3", () -> Tensor.multinomial(Tensor.ones(2, 2, 2), 1, new SplittableRandom(1)),
                "multinomial: expected weights of rank 1");
    }

    /** As {@link #expect}, for floating results within {@code tolerance} (relative, and absolute near 0). */
    protected final void expectClose(String what, Supplier<Tensor> op, double tolerance, double... expected) {
        for (Backend backend : new Backend[] {reference, candidate()}) {
            try (var _ = TensorScope.open(); var _ = Backends.using(backend)) {
                double[] actual = op.get().toDoubleArray();
                String where = what + " on " + backend.name();
                assertEquals(expected.length, actual.length, where + ": element count");
                for (int i = 0; i < expected.length; i++) {
                    if (Double.isNaN(expected[i]) && Double.isNaN(actual[i]) || expected[i] == actual[i]) continue;
                    assertTrue(Math.abs(expected[i] - actual[i]) <= tolerance * Math.max(1, Math.abs(expected[i])),
                            where + ": element " + i + " expected " + expected[i] + " but was " + actual[i]);
                }
            }
        }
    }

    // ------------------------------------------------------------------ attention and training utilities

    private static Tensor attention(Tensor[] x, Tensor mask, boolean causal, Double scale) {
        return Tensor.scaledDotProductAttention(x[0], x[1], x[2], mask, causal, scale);
    }

    @Test
    void scaledDotProductAttentionAgreesWithTheReference() {
        for (Layout l : new Layout[] {Layout.CONTIGUOUS, Layout.TRANSPOSED, Layout.SLICED}) {
            agree("attention " + l, x -> attention(x, null, false, null), f32(2, 3, 4, 5).as(l).requiresGrad(),
                    f32(2, 3, 6, 5).as(l).requiresGrad(), f32(2, 3, 6, 7).requiresGrad());
            agree("causal attention " + l, x -> attention(x, null, true, null), f32(2, 5, 4).as(l).requiresGrad(),
                    f32(2, 5, 4).requiresGrad(), f32(2, 5, 3).as(l).requiresGrad());
        }
        agree("attention with broadcast batches", x -> attention(x, null, false, null), f32(2, 1, 4, 5).requiresGrad(),
                f32(1, 3, 6, 5).as(Layout.BROADCAST).requiresGrad(), f32(6, 7).requiresGrad());
        agree("attention of matrices, scale 0.3", x -> attention(x, null, false, 0.3), f32(4, 5).requiresGrad(), f32(6, 5).requiresGrad(),
                f32(6, 2).requiresGrad());
        agree("causal attention with more keys than queries", x -> attention(x, null, true, null), f32(3, 4).requiresGrad(),
                f32(5, 4).requiresGrad(), f32(5, 2).requiresGrad());
        agree("attention with an integer mask", x -> attention(x, x[3], false, null), f32(2, 4, 5).requiresGrad(),
                f32(2, 6, 5).requiresGrad(), f32(2, 6, 3).requiresGrad(), ints(DType.I64, 0, 2, 4, 6));
        agree("attention with an additive mask", x -> attention(x, x[3], false, null), f32(2, 4, 5).requiresGrad(),
                f32(2, 6, 5).requiresGrad(), f32(2, 6, 3).requiresGrad(), f32(2, 1, 6).as(Layout.BROADCAST).requiresGrad());
        agree("attention in f16", x -> attention(x, null, true, null), new Input(DType.F16, new int[] {2, 4, 8}, -2, 2, Layout.CONTIGUOUS, false),
                new Input(DType.F16, new int[] {2, 4, 8}, -2, 2, Layout.CONTIGUOUS, false),
                new Input(DType.F16, new int[] {2, 4, 3}, -2, 2, Layout.CONTIGUOUS, false));
    }

    @Test
    void attentionOfATinyCaseMatchesValuesWorkedByHand() {
        // q = k = [[1], [0]], v = [[1, 2], [3, 4]], scale 1: the scores are [[1, 0], [0, 0]], so query 0
        // weighs the keys e : 1 and query 1 evenly; causal, query 0 sees key 0 only
        double e = Math.E;
        double[] plain = {(e * 1 + 3) / (e + 1), (e * 2 + 4) / (e + 1), 2, 3};
        double[] causal = {1, 2, 2, 3};
        // an integer mask that hides key 1 from query 0 and both keys from query 1: zeros for query 1, as PyTorch
        double[] masked = {1, 2, 0, 0};
        for (Backend backend : new Backend[] {reference, candidate()}) {
            try (var _ = TensorScope.open(); var _ = Backends.using(backend)) {
                Tensor q = Tensor.of(new float[] {1, 0}, 2, 1), v = Tensor.of(new float[] {1, 2, 3, 4}, 2, 2);
                String on = " on " + backend.name();
                assertArrayEquals(plain, Tensor.scaledDotProductAttention(q, q, v).toDoubleArray(), 1e-6, "attention" + on);
                assertArrayEquals(causal, Tensor.scaledDotProductAttention(q, q, v, true).toDoubleArray(), 1e-6, "causal" + on);
                Tensor mask = Tensor.of(new int[] {1, 0, 0, 0}, 2, 2);
                Tensor leaf = q.detach().requiresGrad(true);
                Tensor out = Tensor.scaledDotProductAttention(leaf, q, v, mask, false, null);
                assertArrayEquals(masked, out.toDoubleArray(), 1e-6, "fully masked query" + on);
                out.sum().backward();
                for (double g : leaf.grad().toDoubleArray()) assertEquals(0, g, 1e-6, "gradient through the masked rows" + on);
                leaf.zeroGrad();
                Tensor additive = Tensor.of(new float[] {0, Float.NEGATIVE_INFINITY, 0, 0}, 2, 2);
                assertArrayEquals(causal, Tensor.scaledDotProductAttention(q, q, v, additive, false, null).toDoubleArray(), 1e-6,
                        "additive -inf mask" + on);
                assertArrayEquals(new double[] {2, 3, 2, 3}, Tensor.scaledDotProductAttention(q, q, v, null, false, 0.0).toDoubleArray(),
                        1e-6, "scale 0 averages the values" + on);
            }
        }
    }

    @Test
    void attentionGradientsMatchFiniteDifferences() {
        try (var _ = Backends.using(candidate())) {
            Gradcheck.check("attention", x -> Tensor.scaledDotProductAttention(x[0], x[1], x[2]), Gradcheck.random(21, 2, 3, 4),
                    Gradcheck.random(22, 2, 5, 4), Gradcheck.random(23, 2, 5, 3));
            Gradcheck.check("causal attention", x -> Tensor.scaledDotProductAttention(x[0], x[1], x[2], true), Gradcheck.random(24, 4, 3),
                    Gradcheck.random(25, 4, 3), Gradcheck.random(26, 4, 2));
            Gradcheck.check("attention with an additive mask", x -> Tensor.scaledDotProductAttention(x[0], x[1], x[2], x[3], false, 0.7),
                    Gradcheck.random(27, 3, 2), Gradcheck.random(28, 4, 2), Gradcheck.random(29, 4, 2), Gradcheck.random(30, 3, 4));
            Gradcheck.check("multi-head attention", x -> dev.panamax.tensor.nn.MultiheadAttention.multiHeadAttentionForward(x[0], x[1], x[1],
                    2, x[2], x[3], x[4], x[5], null, true), Gradcheck.random(31, 1, 3, 4), Gradcheck.random(32, 1, 2, 4),
                    Gradcheck.random(33, 12, 4), Gradcheck.random(34, 12), Gradcheck.random(35, 4, 4), Gradcheck.random(36, 4));
        }
    }

    /** A weight in the range PyTorch's initialization gives (a sum of products of 2s cancels past f32's rounding). */
    private static Input weight(int... dims) {
        return new Input(DType.F32, dims, -0.5, 0.5, Layout.CONTIGUOUS, false);
    }

    @Test
    void multiheadAttentionAgreesWithTheReference() {
        agree("self-attention, 2 heads", x -> dev.panamax.tensor.nn.MultiheadAttention.multiHeadAttentionForward(x[0], x[0], x[0], 2, x[1], x[2],
                x[3], x[4], null, false), f32(2, 5, 8).requiresGrad(), weight(24, 8).requiresGrad(), weight(24).requiresGrad(),
                weight(8, 8).requiresGrad(), weight(8).requiresGrad());
        agree("cross-attention, 4 heads, causal", x -> dev.panamax.tensor.nn.MultiheadAttention.multiHeadAttentionForward(x[0], x[1], x[1], 4,
                x[2], x[3], x[4], x[5], null, true), f32(2, 3, 8).requiresGrad(), f32(2, 6, 8).as(Layout.SLICED).requiresGrad(),
                weight(24, 8).requiresGrad(), weight(24).requiresGrad(), weight(8, 8).as(Layout.TRANSPOSED).requiresGrad(), weight(8).requiresGrad());
        agree("unbatched, no biases, a bool mask", x -> dev.panamax.tensor.nn.MultiheadAttention.multiHeadAttentionForward(x[0], x[1], x[2], 2,
                x[3], null, x[4], null, x[5], false), f32(3, 4).requiresGrad(), f32(5, 4).requiresGrad(), f32(5, 4).requiresGrad(),
                weight(12, 4).requiresGrad(), weight(4, 4).requiresGrad(), ints(DType.I32, 0, 2, 3, 5));
    }

    @Test
    void attentionRefusesOperandsThatDoNotFit() {
        refuses("key of another width", () -> Tensor.scaledDotProductAttention(Tensor.zeros(2, 4, 5), Tensor.zeros(2, 6, 3), Tensor.zeros(2, 6, 7)),
                "scaledDotProductAttention: key has 3 features for the query's 5", "[a: (2, 4, 5) f32, b: (2, 6, 3) f32, c: (2, 6, 7) f32]");
        refuses("value of other rows", () -> Tensor.scaledDotProductAttention(Tensor.zeros(4, 5), Tensor.zeros(6, 5), Tensor.zeros(5, 7)),
                "value 5 rows for the key's 6");
        refuses("a vector", () -> Tensor.scaledDotProductAttention(Tensor.zeros(5), Tensor.zeros(6, 5), Tensor.zeros(6, 7)),
                "an operand has rank below 2");
        refuses("batches that do not broadcast", () -> Tensor.scaledDotProductAttention(Tensor.zeros(2, 4, 5), Tensor.zeros(3, 6, 5),
                Tensor.zeros(3, 6, 7)), "batch dimensions do not broadcast");
        refuses("integer operands", () -> Tensor.scaledDotProductAttention(Tensor.zeros(DType.I32, 4, 5), Tensor.zeros(DType.I32, 6, 5),
                Tensor.zeros(DType.I32, 6, 7)), "expected a floating dtype");
        refuses("a mask with causal", () -> Tensor.scaledDotProductAttention(Tensor.zeros(4, 5), Tensor.zeros(6, 5), Tensor.zeros(6, 7),
                Tensor.zeros(4, 6), true, null), "both a mask and causal given");
        refuses("a mask of the wrong shape", () -> Tensor.scaledDotProductAttention(Tensor.zeros(4, 5), Tensor.zeros(6, 5), Tensor.zeros(6, 7),
                Tensor.zeros(4, 5), false, null), "mask does not broadcast to the scores' shape (4, 6)");
        refuses("no keys", () -> Tensor.scaledDotProductAttention(Tensor.zeros(4, 5), Tensor.zeros(0, 5), Tensor.zeros(0, 7)), "no keys");
        refuses("heads that do not divide the width", () -> dev.panamax.tensor.nn.MultiheadAttention.multiHeadAttentionForward(
                Tensor.zeros(1, 2, 6), Tensor.zeros(1, 2, 6), Tensor.zeros(1, 2, 6), 4, Tensor.zeros(18, 6), null, Tensor.zeros(6, 6), null,
                null, false), "MultiheadAttention: weights (18, 6) f32", "with heads=4", "E divisible by heads");
        refuses("a query of another width", () -> dev.panamax.tensor.nn.MultiheadAttention.multiHeadAttentionForward(
                Tensor.zeros(1, 2, 5), Tensor.zeros(1, 2, 6), Tensor.zeros(1, 2, 6), 2, Tensor.zeros(18, 6), null, Tensor.zeros(6, 6), null,
                null, false), "query (1, 2, 5) f32", "expected query (N, L, 6)");
    }

    @Test
    void clippingAndParameterGroupsRunOnTheBackend() {
        agree("clip by global norm, then Adam with two groups", x -> {
            Tensor a = x[0].mul(1).detach().requiresGrad(true), b = x[1].mul(1).detach().requiresGrad(true);
            var adam = dev.panamax.tensor.optim.Adam.withGroups(List.of(dev.panamax.tensor.optim.ParamGroup.of(List.of(a), 0.05),
                    dev.panamax.tensor.optim.ParamGroup.of(List.of(b), 0.01, 0.1)), 0.02, 0.9, 0.99, 1e-8, 0, true);
            Tensor norms = null;
            for (int step = 0; step < 3; step++) {
                adam.zeroGrad();
                a.mul(a).sum().add(a.sum(0, false).mul(b).sum()).backward();
                Tensor norm = dev.panamax.tensor.optim.Gradients.clipByGlobalNorm(List.of(a, b), 0.5).reshape(1);
                norms = norms == null ? norm : Tensor.concat(List.of(norms, norm), 0);
                adam.step();
            }
            Tensor out = Tensor.concat(List.of(a.detach().reshape(-1), b.detach(), norms), 0);
            adam.zeroGrad();
            adam.close();
            return out;
        }, f32(4, 3), f32(3));
        for (Backend backend : new Backend[] {reference, candidate()}) {
            try (var _ = TensorScope.open(); var _ = Backends.using(backend)) {
                Tensor p = Tensor.zeros(2).requiresGrad(true);
                p.mul(Tensor.of(new float[] {3, 4})).sum().backward();
                Tensor norm = dev.panamax.tensor.optim.Gradients.clipByGlobalNorm(List.of(p), 1);
                assertEquals(backend, norm.backend(), "the norm stays on the gradients' backend");
                assertEquals(5, norm.item(), 1e-6, "norm of (3, 4) on " + backend.name());
                assertArrayEquals(new double[] {0.6, 0.8}, p.grad().toDoubleArray(), 1e-6, "clipped to norm 1 on " + backend.name());
                p.zeroGrad();
            }
        }
    }

    // ------------------------------------------------------------------ step capture

    /**
     * An Adam kernel given step scalars reads its lr and bias corrections from them when it runs
     * (the kernel's own lr and step are ignored): what a captured step replays every step.
     */
    @Test
    void adamReadsItsStepScalarsWhenGiven() {
        for (boolean decoupled : new boolean[] {false, true}) {
            agree("adam with step scalars, decoupled " + decoupled, x -> {
                Backend b = x[0].backend();
                Tensor p = x[0].mul(1), g = x[1].mul(1), m = x[0].mul(0.1), v = x[1].mul(x[1]);
                Tensor scalars = Tensor.of(dev.panamax.tensor.spi.Kernel.AdamStep.stepScalars(0.01, 0.8, 0.99, 3), 3);
                var k = new dev.panamax.tensor.spi.Kernel.AdamStep(p.operand(), g.operand(), m.operand(), v.operand(), 999, 0.8, 0.99, 1e-8,
                        0.1, decoupled, 1, scalars.operand());
                if (b.supports(k)) b.execute(k);
                else p.copyFrom(referenceAdam(x[0], x[1], decoupled)); // a backend that declines the fused kernel: nothing to check
                p.storage().markModified();
                return p;
            }, f32(7, 5), f32(7, 5));
        }
    }

    /** The reference backend's Adam update of {@link #adamReadsItsStepScalarsWhenGiven}, with lr and step as fields. */
    private Tensor referenceAdam(Tensor x0, Tensor x1, boolean decoupled) {
        float[] p0 = x0.toFloatArray(), g0 = x1.toFloatArray();
        try (var _ = Backends.using(reference)) {
            Tensor p = Tensor.of(p0, x0.dims()), g = Tensor.of(g0, x1.dims()), m = p.mul(0.1), v = g.mul(g);
            reference.execute(new dev.panamax.tensor.spi.Kernel.AdamStep(p.operand(), g.operand(), m.operand(), v.operand(), 0.01, 0.8,
                    0.99, 1e-8, 0.1, decoupled, 3));
            p.storage().markModified();
            return Tensor.of(p.toFloatArray(), p.dims()).to(x0.backend());
        }
    }

    /**
     * A backend either captures a step (replays with new inputs give what the eager step gives) or
     * refuses the capture with a {@code TensorException} naming itself.
     */
    @Test
    void aStepIsCapturedOrTheCaptureRefusedNamingTheBackend() {
        try (var _ = TensorScope.open(); var _ = Backends.using(candidate());
             StepCapture step = StepCapture.ofTensor(in -> in[0].mul(in[1]).add(1).relu().sum())) {
            float[][] a = {{1, -2, 3}, {4, 5, -6}, {0, 1, 2}, {-1, -1, 7}};
            for (int i = 0; i < a.length; i++) {
                Tensor x = Tensor.of(a[i], 3), y = Tensor.of(new float[] {2, 2, 2}, 3);
                double expected = x.mul(y).add(1).relu().sum().item();
                try {
                    assertEquals(expected, step.run(x, y)[0].item(), 1e-5, candidate().name() + ": run " + i);
                } catch (TensorException e) {
                    assertTrue(i == 1, candidate().name() + ": only the capture (the second run) may be refused: " + e.getMessage());
                    assertTrue(e.getMessage().contains(candidate().name()), e.getMessage());
                    return;
                }
            }
        }
    }

    /**
     * Softmax over the last axis and its gradient ({@code Kernel.Softmax}, {@code Kernel.SoftmaxGrad},
     * or their composite where a backend declines them) in every layout, rows shorter and longer than
     * a vector, an incoming gradient that is not all ones, causal attention's masked rows, and the
     * rows that give NaN.
     */
    @Test
    void softmaxOverTheLastAxisAndItsGradient() {
        for (Layout l : Layout.values()) {
            agree("softmax rows " + l, x -> x[0].softmax(-1).mul(x[1]), f32(7, 19).as(l).requiresGrad(), f32(7, 19).requiresGrad());
            agree("softmax rank 3 " + l, x -> x[0].softmax(2), f32(2, 3, 11).as(l).requiresGrad());
        }
        agree("softmax rank 1", x -> x[0].softmax(0), f32(13).requiresGrad());
        // causal attention's softmax masks inside the kernel (causalRows): fewer, as many and more queries than keys
        for (int queries : new int[] {3, 9, 14}) {
            agree("causal attention, " + queries + " queries, 9 keys", x -> attention(x, null, true, null), f32(2, queries, 4).requiresGrad(),
                    f32(2, 9, 4).requiresGrad(), f32(2, 9, 3).requiresGrad());
        }
        agree("softmax of one column", x -> x[0].softmax(-1).mul(x[1]), f32(5, 1).requiresGrad(), f32(5, 1).requiresGrad());
        agree("softmax wide rows of large values", x -> x[0].softmax(-1).mul(x[1]),
                new Input(DType.F32, new int[] {37, 130}, -60, 60, Layout.CONTIGUOUS, true), f32(37, 130));
        agree("softmax f16", x -> x[0].softmax(-1), new Input(DType.F16, new int[] {4, 9}, -5, 5, Layout.CONTIGUOUS, true));
        agree("softmax without gradient", x -> {
            try (var _ = Autograd.noGrad()) {
                return x[0].softmax(-1);
            }
        }, f32(6, 4).as(Layout.SLICED));
        float inf = Float.POSITIVE_INFINITY;
        expect("softmax of rows with NaN, -inf only, +inf, and an exact split", () -> Tensor.of(new float[] {Float.NaN, 0, -inf, -inf,
                inf, 0, 3, 3}, 4, 2).softmax(-1), DType.F32, NAN, NAN, NAN, NAN, NAN, NAN, 0.5, 0.5);
        try (var _ = Backends.using(candidate())) {
            Gradcheck.check("softmax last axis", x -> x[0].softmax(-1), Gradcheck.random(61, 3, 10));
            Gradcheck.check("softmax of a product", x -> x[0].matmul(x[1]).softmax(-1).mul(x[0].sum(1, true)), Gradcheck.random(62, 4, 3),
                    Gradcheck.random(63, 3, 9));
        }
    }
    /**
     * Layer normalization over the last dimension and its gradients ({@code Kernel.LayerNorm},
     * {@code Kernel.LayerNormGrad}, or the composite where a backend declines them): with and without
     * the weight and the bias, in every layout of the input (the frontend makes a strided input
     * contiguous before the kernel sees it), one feature, three, 129, a single row, rows and features
     * past one work-group, eps from 0 to large, and finite differences.
     */
    @Test
    void layerNormOverTheLastDimensionAndItsGradients() {
        for (Layout l : Layout.values()) {
            agree("layerNorm affine " + l, x -> x[0].layerNorm(x[1], x[2], 1e-5), f32(7, 19).as(l).requiresGrad(), f32(19).requiresGrad(),
                    f32(19).requiresGrad());
            agree("layerNorm plain rank 3 " + l, x -> x[0].layerNorm(null, null, 1e-5), f32(2, 3, 11).as(l).requiresGrad());
            agree("layerNorm strided weight " + l, x -> x[0].layerNorm(x[1], x[2], 1e-5), f32(4, 9).requiresGrad(), f32(9).as(l).requiresGrad(),
                    f32(9).as(l).requiresGrad());
        }
        agree("layerNorm weight only", x -> x[0].layerNorm(x[1], null, 1e-5), f32(5, 6).requiresGrad(), f32(6).requiresGrad());
        agree("layerNorm bias only", x -> x[0].layerNorm(null, x[1], 1e-5), f32(5, 6).requiresGrad(), f32(6).requiresGrad());
        agree("layerNorm gradient of the parameters only", x -> x[0].layerNorm(x[1], x[2], 1e-5), f32(6, 5), f32(5).requiresGrad(),
                f32(5).requiresGrad());
        agree("layerNorm gradient of the input only", x -> x[0].layerNorm(x[1], x[2], 1e-5), f32(6, 5).requiresGrad(), f32(5), f32(5));
        for (int d : new int[] {1, 3, 129}) {
            agree("layerNorm d=" + d, x -> x[0].layerNorm(x[1], x[2], 1e-5), f32(5, d).requiresGrad(), f32(d).requiresGrad(),
                    f32(d).requiresGrad());
            agree("layerNorm one row d=" + d, x -> x[0].layerNorm(x[1], x[2], 1e-5), f32(1, d).requiresGrad(), f32(d).requiresGrad(),
                    f32(d).requiresGrad());
        }
        agree("layerNorm rank 1", x -> x[0].layerNorm(x[1], x[2], 1e-5), f32(13).requiresGrad(), f32(13).requiresGrad(), f32(13).requiresGrad());
        agree("layerNorm many rows", x -> x[0].layerNorm(x[1], x[2], 1e-5), f32(300, 7).requiresGrad(), f32(7).requiresGrad(),
                f32(7).requiresGrad());
        agree("layerNorm wide rows", x -> x[0].layerNorm(x[1], x[2], 1e-5), f32(3, 300).requiresGrad(), f32(300).requiresGrad(),
                f32(300).requiresGrad());
        agree("layerNorm gpt-sized", x -> x[0].layerNorm(x[1], x[2], 1e-5), f32(2, 33, 64).requiresGrad(), f32(64).requiresGrad(),
                f32(64).requiresGrad());
        for (double eps : new double[] {0, 0.5, 10}) {
            agree("layerNorm eps=" + eps, x -> x[0].layerNorm(x[1], x[2], eps), f32(4, 10).requiresGrad(), f32(10).requiresGrad(),
                    f32(10).requiresGrad());
        }
        agree("layerNorm of large offset values", x -> x[0].layerNorm(null, null, 1e-5),
                new Input(DType.F32, new int[] {6, 40}, 90, 110, Layout.CONTIGUOUS, true));
        agree("layerNorm f16", x -> x[0].layerNorm(x[1], x[2], 1e-5), new Input(DType.F16, new int[] {4, 9}, -3, 3, Layout.CONTIGUOUS, true),
                new Input(DType.F16, new int[] {9}, -2, 2, Layout.CONTIGUOUS, true), new Input(DType.F16, new int[] {9}, -2, 2, Layout.CONTIGUOUS, true));
        agree("layerNorm without gradient", x -> {
            try (var _ = Autograd.noGrad()) {
                return x[0].layerNorm(x[1], x[2], 1e-5);
            }
        }, f32(6, 4).as(Layout.SLICED), f32(4), f32(4));
        expect("layerNorm of one feature", () -> Tensor.of(new float[] {5, -2}, 2, 1).layerNorm(null, null, 1e-5), DType.F32, 0, 0);
        expect("layerNorm of a constant row, eps 0", () -> Tensor.of(new float[] {2, 2}).layerNorm(null, null, 0), DType.F32, NAN, NAN);
        float inf = Float.POSITIVE_INFINITY;
        expect("layerNorm of rows with NaN and infinity", () -> Tensor.of(new float[] {1, Float.NaN, 3, 1, inf, 3}, 2, 3)
                .layerNorm(null, null, 1e-5), DType.F32, NAN, NAN, NAN, NAN, NAN, NAN);
        expectClose("layerNorm of [1, 2, 3] with weight and bias", () -> Tensor.of(new float[] {1, 2, 3}).layerNorm(Tensor.of(new float[] {2, 2, 2}),
                Tensor.of(new float[] {1, 1, 1}), 0), 1e-6, 1 - 2 * Math.sqrt(1.5), 1, 1 + 2 * Math.sqrt(1.5));
        refuses("layerNorm with a weight of the wrong shape", () -> Tensor.zeros(2, 3).layerNorm(Tensor.ones(2), null, 1e-5),
                "layerNorm: weight and bias must have shape (3,), the last dimension", "(2, 3) f32", "(2,) f32");
        refuses("layerNorm with a bias of the wrong rank", () -> Tensor.zeros(2, 3).layerNorm(null, Tensor.ones(1, 3), 1e-5),
                "weight and bias must have shape (3,)", "(1, 3) f32");
        refuses("layerNorm with a weight of another dtype", () -> Tensor.zeros(2, 3).layerNorm(Tensor.ones(3).cast(DType.F16), null, 1e-5),
                "weight and bias must have the input's dtype f32", "(3,) f16");
        refuses("layerNorm with a negative eps", () -> Tensor.zeros(2, 3).layerNorm(null, null, -1), "eps must be finite and at least 0");
        refuses("layerNorm with a NaN eps", () -> Tensor.zeros(2, 3).layerNorm(null, null, Double.NaN), "eps must be finite and at least 0");
        try (var _ = Backends.using(candidate())) {
            Gradcheck.check("layerNorm affine", x -> x[0].layerNorm(x[1], x[2], 1e-5), Gradcheck.random(71, 3, 7), Gradcheck.random(72, 7),
                    Gradcheck.random(73, 7));
            Gradcheck.check("layerNorm plain", x -> x[0].layerNorm(null, null, 1e-5), Gradcheck.random(74, 4, 5));
            Gradcheck.check("layerNorm of a product", x -> x[0].matmul(x[1]).layerNorm(x[2], null, 1e-5).mul(x[0].sum(1, true)),
                    Gradcheck.random(75, 4, 3), Gradcheck.random(76, 3, 6), Gradcheck.random(77, 6));
        }
    }
    /**
     * Batch normalization in training and its gradients ({@code Kernel.BatchNorm},
     * {@code Kernel.BatchNormGrad}, or the composite where a backend declines them): every layout of
     * the input (made contiguous first), with and without the weight and the bias, inputs (n, c),
     * (n, c, l) and (n, c, h, w), one channel, channels past a work-group, a channel of large offset
     * values, eps from 0 to large, NaN and infinity, f16, the running statistics, and finite
     * differences.
     */
    @Test
    void batchNormInTrainingAndItsGradients() {
        for (Layout l : Layout.values()) {
            agree("batchNorm affine " + l, x -> Tensor.batchNorm(x[0], null, null, x[1], x[2], true, 0.1, 1e-5),
                    f32(4, 3, 5, 6).as(l).requiresGrad(), f32(3).requiresGrad(), f32(3).requiresGrad());
            agree("batchNorm weight strided " + l, x -> Tensor.batchNorm(x[0], null, null, x[1], x[2], true, 0.1, 1e-5),
                    f32(3, 4, 7).requiresGrad(), f32(4).as(l).requiresGrad(), f32(4).as(l).requiresGrad());
        }
        agree("batchNorm plain", x -> Tensor.batchNorm(x[0], null, null, null, null, true, 0.1, 1e-5), f32(5, 3, 4, 4).requiresGrad());
        agree("batchNorm weight only", x -> Tensor.batchNorm(x[0], null, null, x[1], null, true, 0.1, 1e-5), f32(6, 2, 3).requiresGrad(),
                f32(2).requiresGrad());
        agree("batchNorm bias only", x -> Tensor.batchNorm(x[0], null, null, null, x[1], true, 0.1, 1e-5), f32(6, 2, 3).requiresGrad(),
                f32(2).requiresGrad());
        agree("batchNorm gradient of the parameters only", x -> Tensor.batchNorm(x[0], null, null, x[1], x[2], true, 0.1, 1e-5),
                f32(4, 3, 2, 2), f32(3).requiresGrad(), f32(3).requiresGrad());
        agree("batchNorm gradient of the input only", x -> Tensor.batchNorm(x[0], null, null, x[1], x[2], true, 0.1, 1e-5),
                f32(4, 3, 2, 2).requiresGrad(), f32(3), f32(3));
        agree("batchNorm (n, c)", x -> Tensor.batchNorm(x[0], null, null, x[1], x[2], true, 0.1, 1e-5), f32(7, 5).requiresGrad(),
                f32(5).requiresGrad(), f32(5).requiresGrad());
        agree("batchNorm one channel", x -> Tensor.batchNorm(x[0], null, null, x[1], x[2], true, 0.1, 1e-5), f32(3, 1, 9, 3).requiresGrad(),
                f32(1).requiresGrad(), f32(1).requiresGrad());
        agree("batchNorm channels past a work-group", x -> Tensor.batchNorm(x[0], null, null, x[1], x[2], true, 0.1, 1e-5),
                f32(2, 300, 3).requiresGrad(), f32(300).requiresGrad(), f32(300).requiresGrad());
        agree("batchNorm cnn-sized", x -> Tensor.batchNorm(x[0], null, null, x[1], x[2], true, 0.1, 1e-5), f32(8, 8, 16, 16).requiresGrad(),
                f32(8).requiresGrad(), f32(8).requiresGrad());
        agree("batchNorm of large offset values", x -> Tensor.batchNorm(x[0], null, null, null, null, true, 0.1, 1e-5),
                new Input(DType.F32, new int[] {6, 2, 40}, 90, 110, Layout.CONTIGUOUS, true));
        for (double eps : new double[] {0, 0.5, 10}) {
            agree("batchNorm eps=" + eps, x -> Tensor.batchNorm(x[0], null, null, x[1], x[2], true, 0.1, eps), f32(4, 3, 5).requiresGrad(),
                    f32(3).requiresGrad(), f32(3).requiresGrad());
        }
        agree("batchNorm f16 training", x -> Tensor.batchNorm(x[0], null, null, x[1], x[2], true, 0.1, 1e-5),
                new Input(DType.F16, new int[] {4, 3, 5}, -3, 3, Layout.CONTIGUOUS, true), new Input(DType.F16, new int[] {3}, -2, 2,
                        Layout.CONTIGUOUS, true), new Input(DType.F16, new int[] {3}, -2, 2, Layout.CONTIGUOUS, true));
        agree("batchNorm without gradient", x -> {
            try (var _ = Autograd.noGrad()) {
                return Tensor.batchNorm(x[0], null, null, x[1], x[2], true, 0.1, 1e-5);
            }
        }, f32(4, 3, 5).as(Layout.SLICED), f32(3), f32(3));
        float inf = Float.POSITIVE_INFINITY;
        expect("batchNorm of channels with NaN and infinity", () -> Tensor.batchNorm(Tensor.of(new float[] {1, Float.NaN, inf, 3, 4, 2}, 3, 2),
                null, null, null, null, true, 0.1, 1e-5), DType.F32, NAN, NAN, NAN, NAN, NAN, NAN);
        for (Backend backend : new Backend[] {reference, candidate()}) {
            try (var _ = TensorScope.open(); var _ = Backends.using(backend)) {
                String on = " on " + backend.name();
                Tensor mean = Tensor.of(new float[] {1, -1}), var = Tensor.of(new float[] {2, 0.5f});
                Tensor x = Tensor.of(new float[] {1, 2, 3, 6, 5, 2, 7, 10}, 2, 2, 2);
                Tensor.batchNorm(x, mean, var, null, null, true, 0.25, 1e-5);
                // channel 0: 1, 2, 5, 2 (mean 2.5, unbiased variance 9 / 3); channel 1: 3, 6, 7, 10 (mean 6.5, 25 / 3)
                assertArrayEquals(new double[] {0.75 + 0.625, -0.75 + 1.625}, mean.toDoubleArray(), 1e-6, "running mean" + on);
                assertArrayEquals(new double[] {1.5 + 0.75, 0.375 + 25.0 / 12}, var.toDoubleArray(), 1e-5, "running variance" + on);
            }
        }
        try (var _ = Backends.using(candidate())) {
            Gradcheck.check("batchNorm affine (n, c, h, w)", x -> Tensor.batchNorm(x[0], null, null, x[1], x[2], true, 0.1, 1e-5),
                    Gradcheck.random(91, 3, 2, 3, 2), Gradcheck.random(92, 2), Gradcheck.random(93, 2));
            Gradcheck.check("batchNorm (n, c)", x -> Tensor.batchNorm(x[0], null, null, null, null, true, 0.1, 1e-5), Gradcheck.random(94, 5, 3));
            Gradcheck.check("batchNorm of a product", x -> Tensor.batchNorm(x[0].matmul(x[1]), null, null, x[2], null, true, 0.1, 1e-5)
                    .mul(x[0].sum(1, true)), Gradcheck.random(95, 4, 3), Gradcheck.random(96, 3, 5), Gradcheck.random(97, 5));
        }
    }

    /**
     * Max pooling and its gradient ({@code Kernel.MaxPool2d}, {@code Kernel.MaxPool2dGrad}, or the
     * composite where a backend declines them): every layout of the input (the frontend makes a
     * strided input contiguous first), odd sizes whose last rows and columns no window reaches, stride
     * other than the kernel, padding, dilation, rectangular windows, a (c, h, w) input, planes past one
     * work-group, f16 through f32, no gradient; ties to the first largest, NaN (which wins, as in
     * PyTorch), -inf, a window that misses the input, and finite differences.
     */
    @Test
    void maxPoolAndItsGradientAgreeWithPytorch() {
        for (Layout l : Layout.values()) {
            agree("maxPool2d 3 stride 2 padding 1 " + l, x -> x[0].maxPool2d(3, 2, 1), f32(2, 3, 7, 6).as(l).requiresGrad());
            agree("maxPool2d 2 " + l, x -> x[0].maxPool2d(2), f32(3, 2, 8, 6).as(l).requiresGrad());
        }
        agree("maxPool2d odd sizes", x -> x[0].maxPool2d(2), f32(1, 2, 9, 11).requiresGrad());
        agree("maxPool2d overlapping", x -> x[0].maxPool2d(3, 1, 1), f32(2, 2, 5, 7).requiresGrad());
        agree("maxPool2d rectangular, stride, padding, dilation", x -> x[0].maxPool2d(new int[] {3, 2}, new int[] {1, 3}, new int[] {1, 1},
                new int[] {2, 3}), f32(2, 3, 9, 10).requiresGrad());
        agree("maxPool2d dilation without padding", x -> x[0].maxPool2d(new int[] {2, 2}, new int[] {2, 1}, new int[] {0, 0},
                new int[] {2, 2}), f32(1, 2, 7, 6).requiresGrad());
        agree("maxPool2d rank 3", x -> x[0].maxPool2d(3, 2, 1), f32(3, 7, 5).requiresGrad());
        agree("maxPool2d rank 3 transposed", x -> x[0].maxPool2d(2, 1, 0), f32(4, 5, 6).as(Layout.TRANSPOSED).requiresGrad());
        agree("maxPool2d planes past a work-group", x -> x[0].maxPool2d(2), f32(2, 150, 4, 3).requiresGrad());
        agree("maxPool2d cnn-sized", x -> x[0].maxPool2d(2), f32(4, 8, 16, 16).requiresGrad());
        agree("maxPool2d one element", x -> x[0].maxPool2d(1), f32(2, 2, 1, 1).requiresGrad());
        agree("maxPool2d f16 with gradient", x -> x[0].maxPool2d(3, 2, 1), new Input(DType.F16, new int[] {2, 3, 6, 5}, -2, 2,
                Layout.CONTIGUOUS, true));
        agree("maxPool2d without gradient", x -> {
            try (var _ = Autograd.noGrad()) {
                return x[0].maxPool2d(3, 2, 1);
            }
        }, f32(2, 3, 7, 6).as(Layout.SLICED).requiresGrad());
        agree("maxPool2d of a product", x -> x[0].mul(x[1]).maxPool2d(2).relu(), f32(2, 3, 6, 6).requiresGrad(), f32(2, 3, 6, 6).requiresGrad());
        float nan = Float.NaN, inf = Float.POSITIVE_INFINITY;
        expect("maxPool2d with NaN and infinities", () -> Tensor.of(new float[] {1, nan, 5, 2, -inf, -inf, 3, 4, -inf, -inf, 0, inf,
                -inf, -inf, 2, -5}, 1, 1, 4, 4).maxPool2d(2).reshape(-1), DType.F32, NAN, 5, -INF, INF);
        expect("maxPool2d of a window that misses the input", () -> Tensor.of(new float[] {4, 7}, 1, 1, 1, 2).maxPool2d(new int[] {2, 1},
                new int[] {1, 1}, new int[] {2, 0}, new int[] {3, 1}).reshape(-1), DType.F32, -INF, -INF, -INF, -INF);
        for (Backend backend : new Backend[] {reference, candidate()}) {
            try (var _ = TensorScope.open(); var _ = Backends.using(backend)) {
                String on = " on " + backend.name();
                Tensor x = Tensor.of(new float[] {1, nan, 5, 5, -inf, -inf, 3, 4, -inf, -inf, 0, inf, -inf, -inf, 2, -5}, 1, 1, 4, 4)
                        .requiresGrad(true);
                x.maxPool2d(2).mul(Tensor.of(new float[] {10, 20, 30, 40}, 1, 1, 2, 2)).sum().backward();
                assertArrayEquals(new double[] {0, 10, 20, 0, 0, 0, 0, 0, 30, 0, 0, 40, 0, 0, 0, 0}, x.grad().toDoubleArray(),
                        "the NaN, the first of a window of -inf, and the first of a tie take the gradient" + on);
                x.zeroGrad();
                Tensor planes = Tensor.of(new float[] {1, 2, 1, 2, 5, 2, 1, 2, 9}, 1, 3, 3).requiresGrad(true);
                planes.maxPool2d(2, 1, 0).sum().backward();
                assertArrayEquals(new double[] {0, 0, 0, 0, 3, 0, 0, 0, 1}, planes.grad().toDoubleArray(),
                        "overlapping windows add up at their shared first largest element" + on);
                planes.zeroGrad();
                Tensor missing = Tensor.of(new float[] {4, 7}, 1, 1, 1, 2).requiresGrad(true);
                missing.maxPool2d(new int[] {2, 1}, new int[] {1, 1}, new int[] {2, 0}, new int[] {3, 1}).sum().backward();
                assertArrayEquals(new double[] {0, 0}, missing.grad().toDoubleArray(), "a window that misses the input sends nothing back" + on);
                missing.zeroGrad();
            }
        }
        try (var _ = Backends.using(candidate())) {
            Gradcheck.check("maxPool2d stride 2 padding 1", x -> x[0].maxPool2d(3, 2, 1), separated(81, 2, 2, 5, 6));
            Gradcheck.check("maxPool2d dilation", x -> x[0].maxPool2d(new int[] {2, 3}, new int[] {1, 2}, new int[] {1, 1}, new int[] {2, 1}),
                    separated(82, 1, 2, 6, 7));
            Gradcheck.check("maxPool2d rank 3", x -> x[0].maxPool2d(2, 1, 1), separated(83, 2, 3, 4));
        }
    }

    /**
     * Products over a two-dimensional batch whose strides do not collapse (attention's heads, views
     * {@code (N, heads, T, d)} of {@code (N, T, heads * d)}), which the frontend runs as one product
     * per head rather than copying the views contiguous: values and gradients, either operand
     * strided, a broadcast batch dimension, and more heads than sequences.
     */
    @Test
    void productsOverStridedHeads() {
        agree("q k^T over strided heads", x -> x[0].reshape(3, 5, 4, 2).permute(0, 2, 1, 3).matmul(x[1].reshape(3, 5, 4, 2).permute(0, 2, 3, 1)),
                f32(3, 5, 8).requiresGrad(), f32(3, 5, 8).requiresGrad());
        agree("scores v over strided heads", x -> x[0].matmul(x[1].reshape(3, 5, 4, 2).permute(0, 2, 1, 3)), f32(3, 4, 6, 5).requiresGrad(),
                f32(3, 5, 8).requiresGrad());
        agree("strided heads times a broadcast batch", x -> x[0].reshape(2, 3, 4, 3).permute(0, 2, 1, 3).matmul(x[1]),
                f32(2, 3, 12).requiresGrad(), f32(1, 4, 3, 5).requiresGrad());
        agree("more heads than sequences", x -> x[0].reshape(5, 2, 3, 2).permute(1, 0, 2, 3).matmul(x[1].transpose(-1, -2)),
                f32(5, 2, 3, 2).requiresGrad(), f32(2, 5, 4, 2).requiresGrad());
        agree("more sequences than the split allows", x -> x[0].reshape(20, 2, 17, 2).permute(0, 2, 1, 3).matmul(x[1]),
                f32(20, 2, 17, 2).requiresGrad(), f32(1, 17, 2, 3).requiresGrad());
    }
}
