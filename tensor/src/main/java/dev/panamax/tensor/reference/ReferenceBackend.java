package dev.panamax.tensor.reference;

import dev.panamax.tensor.DType;
import dev.panamax.tensor.spi.Backend;
import dev.panamax.tensor.spi.BinaryOp;
import dev.panamax.tensor.spi.HostStorage;
import dev.panamax.tensor.spi.Kernel;
import dev.panamax.tensor.spi.Operand;
import dev.panamax.tensor.spi.UnaryOp;

import java.lang.foreign.MemorySegment;
import java.lang.ref.Reference;

/**
 * The oracle: every kernel as a plain Java loop over indices, floating arithmetic in double and
 * rounded once on store, integers in long. Runs each kernel when submitted; {@link #sync()} has
 * nothing to wait for. Written to be read, not to be fast.
 */
public final class ReferenceBackend implements Backend {
    /** The name it is selected by. */
    public static final String NAME = "reference";
    private static final double SQRT_2_OVER_PI = Math.sqrt(2 / Math.PI);

    /** A reference backend (it holds no resources: every instance computes the same). */
    public ReferenceBackend() {}
    private static final double GELU_CUBIC = 0.044715;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void sync() {}

    @Override
    public void execute(Kernel kernel) {
        switch (kernel) {
            case Kernel.Fill k -> fill(k.out(), k.value());
            case Kernel.Unary k -> unary(k.op(), k.out(), k.in());
            case Kernel.Binary k -> binary(k.op(), k.out(), k.a(), k.b());
            case Kernel.BinaryScalar k -> binaryScalar(k.op(), k.out(), k.a(), k.scalar());
            case Kernel.Where k -> where(k.out(), k.cond(), k.a(), k.b());
            case Kernel.Reduce k -> Reductions.reduce(k.op(), k.out(), k.in(), k.axis());
            case Kernel.MatMul k -> matmul(k.out(), k.a(), k.b(), k.accumulate());
            case Kernel.IndexSelect k -> Indexing.select(k.out(), k.in(), k.index(), k.axis());
            case Kernel.IndexAdd k -> Indexing.add(k.out(), k.index(), k.src(), k.axis());
            case Kernel.AdamStep k -> adam(k);
            case Kernel.CrossEntropy k -> crossEntropy(k.loss(), k.grad(), k.logits(), k.labels());
            case Kernel.Softmax k -> Rows.softmax(k.out(), k.in(), k.causalRows());
            case Kernel.SoftmaxGrad k -> Rows.softmaxGrad(k.out(), k.y(), k.dy());
            case Kernel.LayerNorm k -> LayerNorms.forward(k);
            case Kernel.LayerNormGrad k -> LayerNorms.backward(k);
            case Kernel.MaxPool2d k -> MaxPools.forward(k);
            case Kernel.MaxPool2dGrad k -> MaxPools.backward(k);
            case Kernel.BatchNorm k -> BatchNorms.forward(k);
            case Kernel.BatchNormGrad k -> BatchNorms.backward(k);
        }
        // the loops read raw segments: the kernel's operands keep their storages from the GC until here
        Reference.reachabilityFence(kernel);
    }

    private static void fill(Operand out, double value) {
        MemorySegment o = HostStorage.of(out.storage()).segment();
        DType t = out.dtype();
        for (Walk w = new Walk(out.shape(), out); w.hasNext(); w.advance()) Elements.set(o, t, w.offsets[0], value);
    }

    private static void unary(UnaryOp op, Operand out, Operand in) {
        MemorySegment o = HostStorage.of(out.storage()).segment(), x = HostStorage.of(in.storage()).segment();
        DType to = out.dtype(), from = in.dtype();
        boolean integers = op == UnaryOp.COPY && !from.isFloating();
        for (Walk w = new Walk(out.shape(), out, in); w.hasNext(); w.advance()) {
            if (integers) {
                Elements.setLong(o, to, w.offsets[0], Elements.getLong(x, from, w.offsets[1]));
            } else {
                Elements.set(o, to, w.offsets[0], apply(op, Elements.get(x, from, w.offsets[1])));
            }
        }
    }

    static double apply(UnaryOp op, double x) {
        return switch (op) {
            case COPY -> x;
            case NEG -> -x;
            case EXP -> Math.exp(x);
            case LOG -> Math.log(x);
            case SQRT -> Math.sqrt(x);
            case ABS -> Math.abs(x);
            case RELU -> x > 0 || Double.isNaN(x) ? x : 0;
            case STEP -> x > 0 ? 1 : 0;
            case SIGMOID -> 1 / (1 + Math.exp(-x));
            case TANH -> Math.tanh(x);
            case GELU -> 0.5 * x * (1 + Math.tanh(SQRT_2_OVER_PI * (x + GELU_CUBIC * x * x * x)));
            case GELU_GRAD -> {
                double t = Math.tanh(SQRT_2_OVER_PI * (x + GELU_CUBIC * x * x * x));
                yield 0.5 * (1 + t) + 0.5 * x * (1 - t * t) * SQRT_2_OVER_PI * (1 + 3 * GELU_CUBIC * x * x);
            }
            case ERF -> Erf.erf(x);
        };
    }

    private static void binary(BinaryOp op, Operand out, Operand a, Operand b) {
        MemorySegment o = HostStorage.of(out.storage()).segment(), x = HostStorage.of(a.storage()).segment(), y = HostStorage.of(b.storage()).segment();
        DType t = out.dtype(), ta = a.dtype();
        for (Walk w = new Walk(out.shape(), out, a, b); w.hasNext(); w.advance()) {
            if (ta.isFloating()) {
                Elements.set(o, t, w.offsets[0], apply(op, Elements.get(x, ta, w.offsets[1]), Elements.get(y, ta, w.offsets[2])));
            } else {
                Elements.setLong(o, t, w.offsets[0], apply(op, Elements.getLong(x, ta, w.offsets[1]), Elements.getLong(y, ta, w.offsets[2])));
            }
        }
    }

    /** The scalar stored as one element of a's dtype (so converted as the contract says), broadcast. */
    private static void binaryScalar(BinaryOp op, Operand out, Operand a, double scalar) {
        try (HostStorage one = HostStorage.allocate(a.dtype(), 1)) {
            Elements.set(one.segment(), a.dtype(), 0, scalar);
            binary(op, out, a, new Operand(one, out.shape(), new long[out.rank()], 0));
        }
    }

    static double apply(BinaryOp op, double a, double b) {
        return switch (op) {
            case ADD -> a + b;
            case SUB -> a - b;
            case MUL -> a * b;
            case DIV -> a / b;
            case POW -> pow(a, b);
            case MAX -> Math.max(a, b);
            case MIN -> Math.min(a, b);
            case RELU_BACKWARD -> b > 0 ? a : 0;
            case EQ -> a == b ? 1 : 0;
            case NE -> a != b ? 1 : 0;
            case LT -> a < b ? 1 : 0;
            case LE -> a <= b ? 1 : 0;
            case GT -> a > b ? 1 : 0;
            case GE -> a >= b ? 1 : 0;
        };
    }

    /**
     * C's {@code pow} (and so PyTorch's and the cpu kernels'): as {@link Math#pow} but 1 for a base
     * of 1 whatever the exponent (NaN included) and for -1 to an infinite power, where Java gives NaN.
     */
    static double pow(double a, double b) {
        if (a == 1 || (a == -1 && Double.isInfinite(b))) return 1;
        return Math.pow(a, b);
    }

    static long apply(BinaryOp op, long a, long b) {
        if (op.isComparison()) return (long) apply(op, (double) Long.compare(a, b), 0.0);
        return switch (op) {
            case ADD -> a + b;
            case SUB -> a - b;
            case MUL -> a * b;
            case DIV -> {
                if (b == 0) throw new ArithmeticException("integer division by zero in div");
                yield a / b;
            }
            case MAX -> Math.max(a, b);
            case MIN -> Math.min(a, b);
            default -> throw new IllegalArgumentException(op + " on integers");
        };
    }

    private static void where(Operand out, Operand cond, Operand a, Operand b) {
        MemorySegment o = HostStorage.of(out.storage()).segment(), c = HostStorage.of(cond.storage()).segment();
        MemorySegment x = HostStorage.of(a.storage()).segment(), y = HostStorage.of(b.storage()).segment();
        DType t = out.dtype(), tc = cond.dtype();
        for (Walk w = new Walk(out.shape(), out, cond, a, b); w.hasNext(); w.advance()) {
            boolean pick = Elements.get(c, tc, w.offsets[1]) != 0;
            long from = pick ? w.offsets[2] : w.offsets[3];
            MemorySegment src = pick ? x : y;
            if (t.isFloating()) Elements.set(o, t, w.offsets[0], Elements.get(src, t, from));
            else Elements.setLong(o, t, w.offsets[0], Elements.getLong(src, t, from));
        }
    }

    private static void adam(Kernel.AdamStep k) {
        MemorySegment p = HostStorage.of(k.param().storage()).segment(), g = HostStorage.of(k.grad().storage()).segment();
        MemorySegment m = HostStorage.of(k.m().storage()).segment(), v = HostStorage.of(k.v().storage()).segment();
        DType t = k.param().dtype();
        double lr = k.lr(), step = lr / (1 - Math.pow(k.beta1(), k.step())), c2 = 1 - Math.pow(k.beta2(), k.step());
        if (k.stepScalars() != null) { // read now, as a native kernel reads them when it runs
            Operand s = k.stepScalars();
            MemorySegment scalars = HostStorage.of(s.storage()).segment();
            lr = Elements.get(scalars, DType.F32, s.offset());
            step = Elements.get(scalars, DType.F32, s.offset() + s.strides()[0]);
            c2 = 1 / Elements.get(scalars, DType.F32, s.offset() + 2 * s.strides()[0]);
        }
        for (Walk w = new Walk(k.param().shape(), k.param(), k.grad(), k.m(), k.v()); w.hasNext(); w.advance()) {
            double pi = Elements.get(p, t, w.offsets[0]), gi = Elements.get(g, t, w.offsets[1]);
            if (k.decoupled()) pi *= 1 - lr * k.weightDecay();
            else gi += k.weightDecay() * pi;
            double mi = k.beta1() * Elements.get(m, t, w.offsets[2]) + (1 - k.beta1()) * gi;
            double vi = k.beta2() * Elements.get(v, t, w.offsets[3]) + (1 - k.beta2()) * gi * gi;
            Elements.set(m, t, w.offsets[2], mi);
            Elements.set(v, t, w.offsets[3], vi);
            Elements.set(p, t, w.offsets[0], pi - step * mi / (Math.sqrt(vi / c2) + k.eps()));
        }
    }

    private static void crossEntropy(Operand loss, Operand grad, Operand logits, Operand labels) {
        MemorySegment x = HostStorage.of(logits.storage()).segment(), y = HostStorage.of(labels.storage()).segment();
        DType t = logits.dtype();
        int n = logits.shape()[0], c = logits.shape()[1];
        long[] s = logits.strides();
        double total = 0;
        for (int i = 0; i < n; i++) {
            long row = logits.offset() + i * s[0];
            double max = Double.NEGATIVE_INFINITY;
            for (int j = 0; j < c; j++) max = Math.max(max, Elements.get(x, t, row + j * s[1]));
            double sum = 0;
            for (int j = 0; j < c; j++) sum += Math.exp(Elements.get(x, t, row + j * s[1]) - max);
            long label = Elements.getLong(y, labels.dtype(), labels.offset() + i * labels.strides()[0]);
            total += max + Math.log(sum) - Elements.get(x, t, row + label * s[1]);
            if (grad == null) continue;
            MemorySegment o = HostStorage.of(grad.storage()).segment();
            for (int j = 0; j < c; j++) {
                double softmax = Math.exp(Elements.get(x, t, row + j * s[1]) - max) / sum;
                Elements.set(o, grad.dtype(), grad.offset() + i * grad.strides()[0] + j * grad.strides()[1], (softmax - (j == label ? 1 : 0)) / n);
            }
        }
        Elements.set(HostStorage.of(loss.storage()).segment(), loss.dtype(), loss.offset(), total / n);
    }

    private static void matmul(Operand out, Operand a, Operand b, boolean accumulate) {
        MemorySegment o = HostStorage.of(out.storage()).segment(), x = HostStorage.of(a.storage()).segment(), y = HostStorage.of(b.storage()).segment();
        DType t = out.dtype();
        int batch = out.shape()[0], m = out.shape()[1], n = out.shape()[2], k = a.shape()[2];
        long[] so = out.strides(), sa = a.strides(), sb = b.strides();
        for (int p = 0; p < batch; p++) {
            for (int i = 0; i < m; i++) {
                for (int j = 0; j < n; j++) {
                    double sum = 0;
                    for (int q = 0; q < k; q++) {
                        sum += Elements.get(x, t, a.offset() + p * sa[0] + i * sa[1] + q * sa[2])
                                * Elements.get(y, t, b.offset() + p * sb[0] + q * sb[1] + j * sb[2]);
                    }
                    long at = out.offset() + p * so[0] + i * so[1] + j * so[2];
                    Elements.set(o, t, at, accumulate ? Elements.get(o, t, at) + sum : sum);
                }
            }
        }
    }
}
