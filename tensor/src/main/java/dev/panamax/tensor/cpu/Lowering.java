package dev.panamax.tensor.cpu;

import dev.panamax.tensor.DType;
import dev.panamax.tensor.spi.BinaryOp;
import dev.panamax.tensor.spi.HostStorage;
import dev.panamax.tensor.spi.Kernel;
import dev.panamax.tensor.spi.Operand;
import dev.panamax.tensor.spi.ReduceOp;
import dev.panamax.tensor.spi.UnaryOp;

/**
 * Turns the SPI's kernels into native descriptors and submits them to a {@link Recorder}. Returns
 * false for what the native kernels do not cover (arithmetic on integers and f16, which the
 * backend hands to the reference implementation), so the caller can fall back.
 *
 * <p>Native coverage: fill and copy/cast of every dtype; unary, binary, scalar and where arithmetic
 * on f32 over any strides and broadcasts; binary add, subtract, multiply, max, min and comparisons
 * on I32 and I64; reductions of f32 along any axis of a strided input;
 * f32 batched matmul whose matrices are row- or column-major (any other layout is copied first);
 * index select of any dtype and index add of f32 on contiguous operands; the fused Adam update on
 * contiguous f32 operands, cross-entropy of f32 logits in any layout, softmax and its gradient
 * over the rows of f32 operands in any layout ({@link Rows}), and layer normalization and its
 * gradient over f32 rows whose elements are adjacent ({@link LayerNorms}), and max pooling and its
 * gradient over contiguous f32 planes ({@link MaxPools}), and batch normalization in training and its
 * gradient over contiguous f32 channels ({@link BatchNorms}).
 */
final class Lowering {
    private Lowering() {}

    static boolean submit(Kernel kernel, Recorder r) {
        return switch (kernel) {
            case Kernel.Fill k -> fill(k, r);
            case Kernel.Unary k -> unary(k, r);
            case Kernel.Binary k -> binary(k, r);
            case Kernel.BinaryScalar k -> binaryScalar(k, r);
            case Kernel.Where k -> where(k, r);
            case Kernel.Reduce k -> reduce(k, r);
            case Kernel.MatMul k -> matmul(k, r);
            case Kernel.IndexSelect k -> indexSelect(k, r);
            case Kernel.IndexAdd k -> indexAdd(k, r);
            case Kernel.AdamStep k -> adam(k, r);
            case Kernel.CrossEntropy k -> crossEntropy(k, r);
            case Kernel.Softmax k -> Rows.softmax(k, r);
            case Kernel.SoftmaxGrad k -> Rows.softmaxGrad(k, r);
            case Kernel.LayerNorm k -> LayerNorms.forward(k, r);
            case Kernel.LayerNormGrad k -> LayerNorms.backward(k, r);
            case Kernel.MaxPool2d k -> MaxPools.forward(k, r);
            case Kernel.MaxPool2dGrad k -> MaxPools.backward(k, r);
            case Kernel.BatchNorm k -> BatchNorms.forward(k, r);
            case Kernel.BatchNormGrad k -> BatchNorms.backward(k, r);
        };
    }

    // ---------------------------------------------------------------- elementwise

    private static boolean fill(Kernel.Fill k, Recorder r) {
        Operand out = k.out();
        Dims d = Dims.of(out.shape(), out.strides());
        if (d.rank() > Descriptor.MAX_DIMS) return false;
        Descriptor w = elementwise(r, Descriptor.FILL, Descriptor.dtype(out.dtype()), d, out, null, null, null);
        w.putDouble(8, k.value());
        r.submit(CpuKernel.ELEMENTWISE, w, d.elements(), k);
        return true;
    }

    private static boolean unary(Kernel.Unary k, Recorder r) {
        Operand out = k.out(), in = k.in();
        int code;
        int dtype;
        if (k.op() == UnaryOp.COPY) {
            code = out.dtype() == in.dtype() ? Descriptor.COPY : Descriptor.CAST;
            dtype = code == Descriptor.COPY ? Descriptor.dtype(out.dtype())
                    : Descriptor.dtype(in.dtype()) | Descriptor.dtype(out.dtype()) << 8;
        } else {
            if (!allF32(out, in)) return false;
            code = switch (k.op()) {
                case COPY -> throw new AssertionError();
                case NEG -> Descriptor.NEG;
                case EXP -> Descriptor.EXP;
                case LOG -> Descriptor.LOG;
                case SQRT -> Descriptor.SQRT;
                case ABS -> Descriptor.ABS;
                case RELU -> Descriptor.RELU;
                case STEP -> Descriptor.STEP;
                case SIGMOID -> Descriptor.SIGMOID;
                case TANH -> Descriptor.TANH;
                case GELU -> Descriptor.GELU_TANH;
                case GELU_GRAD -> Descriptor.GELU_TANH_GRAD;
                case ERF -> Descriptor.ERF;
            };
            dtype = 0;
        }
        Dims d = Dims.of(out.shape(), out.strides(), in.strides());
        if (d.rank() > Descriptor.MAX_DIMS) return false;
        Descriptor w = elementwise(r, code, dtype, d, out, in, null, null);
        r.submit(CpuKernel.ELEMENTWISE, w, d.elements(), k);
        return true;
    }

    private static boolean binary(Kernel.Binary k, Recorder r) {
        Operand out = k.out(), a = k.a(), b = k.b();
        boolean integers = integerNative(k.op(), out, a, b);
        if (!integers && !allF32(out, a, b)) return false;
        Dims d = Dims.of(out.shape(), out.strides(), a.strides(), b.strides());
        if (d.rank() > Descriptor.MAX_DIMS) return false;
        Descriptor w = elementwise(r, code(k.op()), integers ? Descriptor.dtype(a.dtype()) : 0, d, out, a, b, null);
        r.submit(CpuKernel.ELEMENTWISE, w, d.elements(), k);
        return true;
    }

    private static boolean binaryScalar(Kernel.BinaryScalar k, Recorder r) {
        Operand out = k.out(), a = k.a();
        boolean integers = integerNative(k.op(), out, a, a);
        if (!integers && !allF32(out, a)) return false;
        Dims d = Dims.of(out.shape(), out.strides(), a.strides());
        if (d.rank() > Descriptor.MAX_DIMS) return false;
        int rank = d.rank();
        Descriptor w = r.descriptor(Descriptor.elementwiseWords(rank));
        int spare = Descriptor.elementwiseWords(rank) - 1;
        // the scalar converted to a's dtype as the reference stores it (Java's narrowing casts); an
        // I32 is the low half of the little-endian word
        if (!integers) w.putFloat(spare, (float) k.scalar());
        else w.put(spare, a.dtype() == DType.I64 ? (long) k.scalar() : (int) k.scalar());
        header(w, code(k.op()), integers ? Descriptor.dtype(a.dtype()) : 0, d, out, a, null, null);
        w.put(6, w.addressOf(spare));
        for (int j = 0; j < rank; j++) w.put(10 + 3 * rank + j, 0); // the scalar: stride 0 everywhere
        for (int j = 0; j < rank; j++) w.put(10 + 4 * rank + j, 0);
        r.submit(CpuKernel.ELEMENTWISE, w, d.elements(), k);
        return true;
    }

    private static boolean where(Kernel.Where k, Recorder r) {
        Operand out = k.out(), c = k.cond(), a = k.a(), b = k.b();
        if (!allF32(out, a, b)) return false;
        Dims d = Dims.of(out.shape(), out.strides(), c.strides(), a.strides(), b.strides());
        if (d.rank() > Descriptor.MAX_DIMS) return false;
        Descriptor w = elementwise(r, Descriptor.WHERE, Descriptor.dtype(c.dtype()), d, out, c, a, b);
        r.submit(CpuKernel.ELEMENTWISE, w, d.elements(), k);
        return true;
    }

    /** An elementwise descriptor with up to three inputs (null: absent, strides 0). */
    private static Descriptor elementwise(Recorder r, int code, int dtype, Dims d, Operand out, Operand in0, Operand in1, Operand in2) {
        Descriptor w = r.descriptor(Descriptor.elementwiseWords(d.rank()));
        header(w, code, dtype, d, out, in0, in1, in2);
        int rank = d.rank();
        int given = 1 + (in0 != null ? 1 : 0) + (in1 != null ? 1 : 0) + (in2 != null ? 1 : 0);
        for (int o = given; o < 4; o++) {
            for (int j = 0; j < rank; j++) w.put(10 + (1 + o) * rank + j, 0);
        }
        return w;
    }

    /** Words 0-9 and the shape and strides of the operands present in {@code d}. */
    private static void header(Descriptor w, int code, int dtype, Dims d, Operand out, Operand in0, Operand in1, Operand in2) {
        int rank = d.rank();
        w.put(0, code).put(1, rank).put(2, d.elements()).put(3, dtype);
        w.put(4, address(out)).put(5, address(in0)).put(6, address(in1)).put(7, address(in2));
        w.putDouble(8, 0).putDouble(9, 0);
        long[] words = d.words();
        for (int i = 0; i < words.length; i++) w.put(10 + i, words[i]);
    }

    /**
     * Whether the native kernel takes this op on integers: every operand one of I32 or I64, and an op
     * whose integer result is exact (wrapping add, subtract, multiply; max, min, comparisons), not
     * division or pow.
     */
    private static boolean integerNative(BinaryOp op, Operand out, Operand a, Operand b) {
        DType t = a.dtype();
        if ((t != DType.I32 && t != DType.I64) || b.dtype() != t || out.dtype() != t) return false;
        return switch (op) {
            case ADD, SUB, MUL, MAX, MIN, EQ, NE, LT, LE, GT, GE -> true;
            case DIV, POW, RELU_BACKWARD -> false;
        };
    }

    private static int code(BinaryOp op) {
        return switch (op) {
            case ADD -> Descriptor.ADD;
            case SUB -> Descriptor.SUB;
            case MUL -> Descriptor.MUL;
            case DIV -> Descriptor.DIV;
            case POW -> Descriptor.POW;
            case MAX -> Descriptor.MAXIMUM;
            case MIN -> Descriptor.MINIMUM;
            case RELU_BACKWARD -> Descriptor.RELU_BACKWARD;
            case EQ -> Descriptor.EQ;
            case NE -> Descriptor.NE;
            case LT -> Descriptor.LT;
            case LE -> Descriptor.LE;
            case GT -> Descriptor.GT;
            case GE -> Descriptor.GE;
        };
    }

    // ---------------------------------------------------------------- reduce

    private static boolean reduce(Kernel.Reduce k, Recorder r) {
        Operand out = k.out(), in = k.in();
        int axis = k.axis();
        if (in.dtype() != DType.F32) return false;
        if (k.op() == ReduceOp.ARGMAX ? out.dtype() != DType.I64 : out.dtype() != DType.F32) return false;
        int len = in.shape()[axis];
        if (len == 0) return false;
        int rank = in.rank();
        int[] shape = new int[rank - 1];
        long[] so = new long[rank - 1], si = new long[rank - 1];
        for (int i = 0, j = 0; i < rank; i++) {
            if (i == axis) continue;
            shape[j] = out.shape()[i];
            so[j] = out.strides()[i];
            si[j] = in.strides()[i];
            j++;
        }
        Dims d = Dims.of(shape, so, si);
        if (d.rank() > Descriptor.MAX_DIMS) return false;
        int dr = d.rank();
        Descriptor w = r.descriptor(Descriptor.reduceWords(dr));
        int op = switch (k.op()) {
            case SUM -> Descriptor.SUM;
            case MAX -> Descriptor.MAX;
            case MIN -> Descriptor.MIN;
            case ARGMAX -> Descriptor.ARGMAX;
        };
        w.put(0, op).put(1, dr).put(2, d.elements()).put(3, len).put(4, address(out)).put(5, address(in))
                .put(6, in.strides()[axis]).put(7, 0).put(8, 0).put(9, 0);
        long[] words = d.words();
        for (int i = 0; i < words.length; i++) w.put(10 + i, words[i]);
        r.submit(CpuKernel.REDUCE, w, d.elements() * len, k);
        return true;
    }

    // ---------------------------------------------------------------- matmul

    /** How sgemm reads a matrix of rows x cols with these strides: transposed or not, and its leading dimension. */
    private record Layout(boolean transposed, long ld) {
        static Layout of(int rows, int cols, long rowStride, long colStride) {
            if ((colStride == 1 || cols <= 1) && (rows <= 1 || rowStride >= Math.max(1, cols))) {
                return new Layout(false, rows <= 1 ? Math.max(1, cols) : rowStride);
            }
            if ((rowStride == 1 || rows <= 1) && (cols <= 1 || colStride >= Math.max(1, rows))) {
                return new Layout(true, cols <= 1 ? Math.max(1, rows) : colStride);
            }
            return null;
        }
    }

    private static boolean matmul(Kernel.MatMul k, Recorder r) {
        Operand out = k.out(), a = k.a(), b = k.b();
        if (!allF32(out, a, b) || out.rank() != 3) return false;
        int batch = out.shape()[0], m = out.shape()[1], n = out.shape()[2], kk = a.shape()[2];
        if ((long) batch * m * n == 0) return true;
        Layout lc = Layout.of(m, n, out.strides()[1], out.strides()[2]);
        if (lc == null || lc.transposed() || lc.ld() > Integer.MAX_VALUE) return false;
        if (kk == 0) {
            if (!k.accumulate()) fill(new Kernel.Fill(out, 0), r);
            return true;
        }
        if (Math.max(m, Math.max(n, kk)) > Integer.MAX_VALUE / 2) return false;
        Operand aa = a, bb = b;
        Layout la = Layout.of(m, kk, a.strides()[1], a.strides()[2]);
        if (la == null) {
            aa = r.contiguousCopy(a);
            la = Layout.of(m, kk, aa.strides()[1], aa.strides()[2]);
        }
        Layout lb = Layout.of(kk, n, b.strides()[1], b.strides()[2]);
        if (lb == null) {
            bb = r.contiguousCopy(b);
            lb = Layout.of(kk, n, bb.strides()[1], bb.strides()[2]);
        }
        if (la.ld() > Integer.MAX_VALUE || lb.ld() > Integer.MAX_VALUE) return false;
        Descriptor w = r.descriptor(Descriptor.MATMUL_WORDS);
        w.put(0, batch).put(1, m).put(2, n).put(3, kk).put(4, la.transposed() ? 1 : 0).put(5, lb.transposed() ? 1 : 0)
                .put(6, la.ld()).put(7, lb.ld()).put(8, lc.ld()).put(9, address(aa)).put(10, address(bb)).put(11, address(out))
                .put(12, batch == 1 ? 0 : aa.strides()[0]).put(13, batch == 1 ? 0 : bb.strides()[0])
                .put(14, batch == 1 ? 0 : out.strides()[0]).putDouble(15, 1.0).putDouble(16, k.accumulate() ? 1.0 : 0.0);
        r.submit(CpuKernel.MATMUL, w, (long) batch * m * n * kk, k);
        return true;
    }

    // ---------------------------------------------------------------- index select / add

    private static boolean indexSelect(Kernel.IndexSelect k, Recorder r) {
        Operand out = k.out(), in = k.in(), index = k.index();
        if (out.dtype() != in.dtype() || !in.isContiguous() || !out.isContiguous() || !index.isContiguous()) return false;
        return index(r, Descriptor.SELECT, in, out, index, k.axis(), in.dtype().byteSize(), k);
    }

    private static boolean indexAdd(Kernel.IndexAdd k, Recorder r) {
        Operand out = k.out(), src = k.src(), index = k.index();
        if (!allF32(out, src) || !out.isContiguous() || !src.isContiguous() || !index.isContiguous()) return false;
        return index(r, Descriptor.SCATTER_ADD, out, src, index, k.axis(), 4, k);
    }

    private static boolean index(Recorder r, int op, Operand table, Operand gathered, Operand index, int axis, int elementSize, Kernel k) {
        long outer = 1, inner = 1;
        for (int i = 0; i < axis; i++) outer *= table.shape()[i];
        for (int i = axis + 1; i < table.rank(); i++) inner *= table.shape()[i];
        long n = index.elements();
        Descriptor w = r.descriptor(Descriptor.INDEX_WORDS);
        w.put(0, op).put(1, outer).put(2, table.shape()[axis]).put(3, inner).put(4, Descriptor.dtype(index.dtype()))
                .put(5, address(index)).put(6, n).put(7, address(table)).put(8, address(gathered)).put(9, elementSize);
        r.submit(CpuKernel.INDEX, w, outer * n * inner, k);
        return true;
    }

    // ---------------------------------------------------------------- fused

    /** Adam over contiguous f32 operands of one shape; anything else runs on the reference. */
    private static boolean adam(Kernel.AdamStep k, Recorder r) {
        Operand p = k.param(), g = k.grad(), m = k.m(), v = k.v();
        if (!allF32(p, g, m, v) || !p.isContiguous() || !g.isContiguous() || !m.isContiguous() || !v.isContiguous()) return false;
        Operand scalars = k.stepScalars();
        if (scalars != null && (scalars.dtype() != DType.F32 || !scalars.isContiguous() || scalars.elements() != 3)) return false;
        Descriptor w = r.descriptor(Descriptor.ADAM_WORDS);
        w.put(0, p.elements()).put(1, address(p)).put(2, address(g)).put(3, address(m)).put(4, address(v))
                .putDouble(5, k.lr()).putDouble(6, k.beta1()).putDouble(7, k.beta2()).putDouble(8, k.eps())
                .putDouble(9, k.weightDecay()).put(10, k.decoupled() ? 1 : 0)
                .putDouble(11, 1 - Math.pow(k.beta1(), k.step())).putDouble(12, 1 - Math.pow(k.beta2(), k.step()))
                .put(13, address(scalars));
        r.submit(CpuKernel.ADAM, w, 8 * p.elements(), k);
        return true;
    }

    private static boolean crossEntropy(Kernel.CrossEntropy k, Recorder r) {
        Operand loss = k.loss(), grad = k.grad(), logits = k.logits(), labels = k.labels();
        if (!allF32(loss, logits) || (grad != null && grad.dtype() != DType.F32)) return false;
        if (labels.dtype() != DType.I32 && labels.dtype() != DType.I64) return false;
        Descriptor w = r.descriptor(Descriptor.CROSS_ENTROPY_WORDS);
        w.put(0, logits.shape()[0]).put(1, logits.shape()[1]).put(2, address(logits)).put(3, logits.strides()[0])
                .put(4, logits.strides()[1]).put(5, address(labels)).put(6, Descriptor.dtype(labels.dtype()))
                .put(7, labels.strides()[0]).put(8, address(loss)).put(9, address(grad))
                .put(10, grad == null ? 0 : grad.strides()[0]).put(11, grad == null ? 0 : grad.strides()[1]);
        r.submit(CpuKernel.CROSS_ENTROPY, w, 8 * logits.elements(), k);
        return true;
    }

    // ---------------------------------------------------------------- helpers

    private static boolean allF32(Operand... operands) {
        for (Operand o : operands) if (o.dtype() != DType.F32) return false;
        return true;
    }

    /** The address of the operand's first element, or 0 for none. */
    static long address(Operand o) {
        return o == null ? 0 : HostStorage.of(o.storage()).address() + o.offset() * o.dtype().byteSize();
    }
}
