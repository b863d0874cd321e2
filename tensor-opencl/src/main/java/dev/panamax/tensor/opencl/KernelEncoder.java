package dev.panamax.tensor.opencl;

import dev.panamax.compute.Buffer;
import dev.panamax.compute.ComputeEncoder;
import dev.panamax.compute.ComputePipeline;
import dev.panamax.compute.Size;
import dev.panamax.tensor.DType;
import dev.panamax.tensor.spi.Kernel;
import dev.panamax.tensor.spi.Operand;
import dev.panamax.tensor.spi.Storage;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Objects;
import java.util.function.Function;

/**
 * Encodes any {@link Kernel} as dispatches into a {@link ComputeEncoder}: picks the program
 * ({@link KernelCache}, compiled on first use) and the path (contiguous or strided; rows or tree
 * for a reduction), binds the operands' buffers whole with element offsets and strides as
 * arguments, and dispatches whole threadgroups (kernels bound-check their index). Nothing is read
 * back: a kernel is encoded without a host round trip. Which {@link Buffer} holds a {@link Storage}
 * is the caller's choice ({@code bufferOf}); a buffer must hold the storage's elements from byte 0.
 *
 * <pre>{@code
 * try (ComputeEncoder e = commandBuffer.computeEncoder()) {
 *     kernels.encode(new Kernel.Binary(BinaryOp.ADD, out, a, b), e, buffers::get);
 * }
 * }</pre>
 *
 * An empty kernel (no output element) encodes nothing. Thread-safe (an encoder itself belongs to one thread).
 */
public final class KernelEncoder {
    /** Axis length from which a reduction takes a work-group per output element. */
    static final long TREE_THRESHOLD = 256;
    private static final int GROUP = 256;

    private final KernelCache kernels;
    private final IndexErrors errors;

    /**
     * An encoder of {@code kernels}' programs whose index-reading kernels (index select, index add,
     * cross-entropy labels) report an index out of range into {@code errors}.
     */
    public KernelEncoder(KernelCache kernels, IndexErrors errors) {
        this.kernels = Objects.requireNonNull(kernels, "kernels");
        this.errors = Objects.requireNonNull(errors, "errors");
    }

    /**
     * Encodes {@code kernel} into {@code encoder}.
     *
     * @throws IllegalArgumentException for an op a dtype does not take (as the reference refuses it)
     * @throws KernelBuildException     when the kernel's program does not compile on the device
     */
    public void encode(Kernel kernel, ComputeEncoder encoder, Function<Storage, Buffer> bufferOf) {
        Binder b = new Binder(encoder, bufferOf);
        switch (kernel) {
            case Kernel.Fill k -> elementwise(b, ProgramKey.of(Family.FILL, k.out().dtype()), "fill", k.out().shape(),
                    new Operand[] {k.out()}, Scalar.of(k.out().dtype(), k.value()));
            case Kernel.Unary k -> {
                if (!KernelSources.supports(k.op(), ClType.of(k.in().dtype())))
                    throw refused("unary " + k.op(), k.in(), "a floating dtype (only COPY takes integers)");
                elementwise(b, ProgramKey.of(Family.UNARY, k.out().dtype(), k.in().dtype()), KernelSources.unaryName(k.op()), k.out().shape(),
                        new Operand[] {k.out(), k.in()});
            }
            case Kernel.Binary k -> {
                sameDtype("binary " + k.op(), k.a(), k.b());
                if (!KernelSources.supports(k.op(), ClType.of(k.a().dtype())))
                    throw refused("binary " + k.op(), k.a(), "a floating dtype");
                elementwise(b, ProgramKey.of(Family.BINARY, k.out().dtype(), k.a().dtype()), KernelSources.binaryName(k.op(), false),
                        k.out().shape(), new Operand[] {k.out(), k.a(), k.b()});
            }
            case Kernel.BinaryScalar k -> {
                if (!KernelSources.supports(k.op(), ClType.of(k.a().dtype())))
                    throw refused("binary " + k.op(), k.a(), "a floating dtype");
                elementwise(b, ProgramKey.of(Family.BINARY, k.out().dtype(), k.a().dtype()), KernelSources.binaryName(k.op(), true),
                        k.out().shape(), new Operand[] {k.out(), k.a()}, Scalar.of(k.a().dtype(), k.scalar()));
            }
            case Kernel.Where k -> {
                sameDtype("where", k.out(), k.a());
                sameDtype("where", k.out(), k.b());
                elementwise(b, ProgramKey.of(Family.WHERE, k.out().dtype(), k.cond().dtype()), "where", k.out().shape(),
                        new Operand[] {k.out(), k.cond(), k.a(), k.b()});
            }
            case Kernel.AdamStep k -> adam(b, k);
            case Kernel.Reduce k -> reduce(b, k);
            case Kernel.MatMul k -> matmul(b, k);
            case Kernel.IndexSelect k -> indexSelect(b, k);
            case Kernel.IndexAdd k -> indexAdd(b, k);
            case Kernel.CrossEntropy k -> crossEntropy(b, k);
            case Kernel.Softmax k -> softmax(b, k);
            case Kernel.SoftmaxGrad k -> softmaxGrad(b, k);
            case Kernel.LayerNorm k -> layerNorm(b, k);
            case Kernel.LayerNormGrad k -> layerNormGrad(b, k);
            case Kernel.MaxPool2d k -> maxPool(b, k);
            case Kernel.MaxPool2dGrad k -> maxPoolGrad(b, k);
            case Kernel.BatchNorm k -> batchNorm(b, k);
            case Kernel.BatchNormGrad k -> batchNormGrad(b, k);
        }
    }

    /** The encoder and the storage-to-buffer mapping of one {@link #encode} call. */
    private record Binder(ComputeEncoder encoder, Function<Storage, Buffer> bufferOf) {
        Buffer buffer(Operand o) {
            Buffer buffer = bufferOf.apply(o.storage());
            if (buffer == null) throw new IllegalArgumentException("no device buffer for operand " + o + " (bufferOf returned null)");
            long needed = o.storage().byteSize();
            if (buffer.length() < needed)
                throw new IllegalArgumentException("device buffer " + buffer.describe() + " is smaller than the storage of operand " + o
                        + ": length=" + buffer.length() + " expected at least " + needed);
            return buffer;
        }
    }

    private void elementwise(Binder b, ProgramKey key, String name, int[] shape, Operand[] operands, Scalar... scalars) {
        Layout layout = Layout.of(shape, operands);
        long n = layout.elements();
        if (n == 0) return;
        boolean dense = layout.dense();
        ComputePipeline pipeline = kernels.pipeline(key, name + (dense ? "_dense" : "_strided"));
        ComputeEncoder e = b.encoder().setPipeline(pipeline);
        int arg = 0;
        for (Operand o : operands) e.setBuffer(arg++, b.buffer(o));
        if (dense) {
            for (long offset : layout.offsets()) e.setLong(arg++, offset);
        } else {
            e.setBytes(arg++, bytes(layout.pack()));
        }
        for (Scalar s : scalars) s.set(e, arg++);
        e.setLong(arg, n);
        cover(e, pipeline, dense ? Math.ceilDiv(n, Elementwise.VECTOR) : n);
    }

    private void adam(Binder b, Kernel.AdamStep k) {
        for (Operand o : new Operand[] {k.grad(), k.m(), k.v()}) sameDtype("adam step", k.param(), o);
        if (k.stepScalars() != null) {
            Operand s = k.stepScalars();
            if (s.dtype() != DType.F32 || s.shape().length != 1 || s.shape()[0] != 3 || s.strides()[0] != 1)
                throw new IllegalArgumentException("adam step: step scalars " + s + ": expected a contiguous f32 operand of 3 elements");
            elementwise(b, ProgramKey.of(Family.ADAM_STEP, k.param().dtype()), "adam_step_scalars", k.param().shape(),
                    new Operand[] {k.param(), k.grad(), k.m(), k.v()},
                    new Scalar.Values(b.buffer(s)), new Scalar.I64(s.offset()), new Scalar.F32((float) k.beta1()),
                    new Scalar.F32((float) k.beta2()), new Scalar.F32((float) k.eps()), new Scalar.F32((float) k.weightDecay()),
                    new Scalar.I32(k.decoupled() ? 1 : 0));
            return;
        }
        double c1 = 1 - Math.pow(k.beta1(), k.step()), c2 = 1 - Math.pow(k.beta2(), k.step());
        elementwise(b, ProgramKey.of(Family.ADAM_STEP, k.param().dtype()), "adam_step", k.param().shape(),
                new Operand[] {k.param(), k.grad(), k.m(), k.v()},
                new Scalar.F32((float) (k.lr() / c1)), new Scalar.F32((float) k.beta1()), new Scalar.F32((float) k.beta2()),
                new Scalar.F32((float) k.eps()), new Scalar.F32((float) k.weightDecay()), new Scalar.F32((float) (1 - k.lr() * k.weightDecay())),
                new Scalar.F32((float) c2), new Scalar.I32(k.decoupled() ? 1 : 0));
    }

    private void reduce(Binder b, Kernel.Reduce k) {
        Operand in = k.in(), out = k.out();
        int axis = k.axis();
        DType expected = KernelSources.reduceOutput(k.op(), in.dtype());
        if (out.dtype() != expected)
            throw new IllegalArgumentException("reduce " + k.op() + " of " + in + " into " + out + ": expected an output of dtype " + expected.label());
        int[] shape = without(out.shape(), axis);
        Layout layout = Layout.of(shape, new Operand(out.storage(), shape, without(out.strides(), axis), out.offset()),
                new Operand(in.storage(), shape, without(in.strides(), axis), in.offset()));
        long count = layout.elements();
        if (count == 0) return;
        long length = in.shape()[axis];
        boolean tree = length >= TREE_THRESHOLD;
        ComputePipeline pipeline = kernels.pipeline(ProgramKey.of(Family.REDUCE, in.dtype()), KernelSources.reduceName(k.op(), tree));
        ComputeEncoder e = b.encoder().setPipeline(pipeline)
                .setBuffer(0, b.buffer(out)).setBuffer(1, b.buffer(in)).setBytes(2, bytes(layout.pack()))
                .setLong(3, count).setLong(4, length).setLong(5, in.strides()[axis]);
        if (tree) {
            int group = group(pipeline, KernelSources.REDUCE_GROUP);
            e.dispatchThreadgroups(Size.of(count), Size.of(group));
        } else {
            cover(e, pipeline, count);
        }
    }

    private void matmul(Binder b, Kernel.MatMul k) {
        Operand out = k.out(), a = k.a(), bb = k.b();
        sameDtype("matmul", out, a);
        sameDtype("matmul", out, bb);
        if (!out.dtype().isFloating()) throw refused("matmul", out, "a floating dtype");
        int batch = out.shape()[0], m = out.shape()[1], n = out.shape()[2], depth = a.shape()[2];
        if ((long) batch * m * n == 0) return;
        long[] layout = {m, n, depth, batch,
                out.offset(), out.strides()[0], out.strides()[1], out.strides()[2],
                a.offset(), a.strides()[0], a.strides()[1], a.strides()[2],
                bb.offset(), bb.strides()[0], bb.strides()[1], bb.strides()[2]};
        ComputePipeline pipeline = kernels.pipeline(ProgramKey.of(Family.MATMUL, out.dtype()), "matmul");
        int tile = KernelSources.TILE;
        if (pipeline.maxThreadsPerThreadgroup() < (long) tile * tile)
            throw new IllegalStateException("matmul needs work-groups of " + tile * tile + " threads; device '"
                    + kernels.device().info().name() + "' runs at most " + pipeline.maxThreadsPerThreadgroup() + " of this kernel");
        b.encoder().setPipeline(pipeline).setBuffer(0, b.buffer(out)).setBuffer(1, b.buffer(a)).setBuffer(2, b.buffer(bb))
                .setBytes(3, bytes(layout)).setInt(4, k.accumulate() ? 1 : 0)
                .dispatchThreadgroups(Size.of(Math.ceilDiv(n, tile), Math.ceilDiv(m, tile), batch), Size.of(tile, tile, 1));
    }

    private void indexSelect(Binder b, Kernel.IndexSelect k) {
        Operand out = k.out(), in = k.in(), index = k.index();
        sameDtype("index select", out, in);
        long n = out.elements();
        if (n == 0) return;
        ComputePipeline pipeline = kernels.pipeline(ProgramKey.of(Family.INDEX_SELECT, out.dtype(), index.dtype()), "index_select");
        ComputeEncoder e = b.encoder().setPipeline(pipeline).setBuffer(0, b.buffer(out)).setBuffer(1, b.buffer(in))
                .setBuffer(2, b.buffer(index)).setBytes(3, bytes(indexLayout(k.axis(), out.shape(), out, in, index))).setLong(4, n)
                .setLong(5, in.shape()[k.axis()]).setBuffer(6, errors.buffer());
        cover(e, pipeline, n);
    }

    private void indexAdd(Binder b, Kernel.IndexAdd k) {
        Operand out = k.out(), src = k.src(), index = k.index();
        sameDtype("index add", out, src);
        if (src.elements() == 0) return;
        long columns = src.elements() / src.shape()[k.axis()];
        ComputePipeline pipeline = kernels.pipeline(ProgramKey.of(Family.INDEX_ADD, out.dtype(), index.dtype()), "index_add");
        ComputeEncoder e = b.encoder().setPipeline(pipeline).setBuffer(0, b.buffer(out)).setBuffer(1, b.buffer(index))
                .setBuffer(2, b.buffer(src)).setBytes(3, bytes(indexLayout(k.axis(), src.shape(), out, src, index))).setLong(4, columns)
                .setLong(5, out.shape()[k.axis()]).setBuffer(6, errors.buffer());
        cover(e, pipeline, columns);
    }

    /** rank, axis, the walked shape, two operands' offsets and strides, the index's offset and stride. */
    private static long[] indexLayout(int axis, int[] shape, Operand first, Operand second, Operand index) {
        int rank = shape.length;
        long[] p = new long[6 + 3 * rank];
        p[0] = rank;
        p[1] = axis;
        for (int d = 0; d < rank; d++) p[2 + d] = shape[d];
        p[2 + rank] = first.offset();
        System.arraycopy(first.strides(), 0, p, 3 + rank, rank);
        p[3 + 2 * rank] = second.offset();
        System.arraycopy(second.strides(), 0, p, 4 + 2 * rank, rank);
        p[4 + 3 * rank] = index.offset();
        p[5 + 3 * rank] = index.strides()[0];
        return p;
    }

    private void crossEntropy(Binder b, Kernel.CrossEntropy k) {
        Operand loss = k.loss(), grad = k.grad(), x = k.logits(), y = k.labels();
        Operand g = grad == null ? x : grad;
        long[] layout = {x.shape()[0], x.shape()[1], x.offset(), x.strides()[0], x.strides()[1], y.offset(), y.strides()[0],
                g.offset(), g.strides()[0], g.strides()[1], loss.offset()};
        ComputePipeline pipeline = kernels.pipeline(ProgramKey.of(Family.CROSS_ENTROPY, x.dtype(), y.dtype(), loss.dtype(), g.dtype()), "cross_entropy");
        int group = group(pipeline, KernelSources.REDUCE_GROUP);
        b.encoder().setPipeline(pipeline).setBuffer(0, b.buffer(loss)).setBuffer(1, b.buffer(g)).setBuffer(2, b.buffer(x))
                .setBuffer(3, b.buffer(y)).setBytes(4, bytes(layout)).setInt(5, grad == null ? 0 : 1).setBuffer(6, errors.buffer())
                .dispatchThreadgroups(Size.of(1), Size.of(group));
    }

    private void softmax(Binder b, Kernel.Softmax k) {
        sameDtype("softmax", k.out(), k.in());
        ComputePipeline pipeline = kernels.pipeline(ProgramKey.of(Family.SOFTMAX, k.in().dtype()), "softmax");
        b.encoder().setPipeline(pipeline).setBuffer(0, b.buffer(k.out())).setBuffer(1, b.buffer(k.in()))
                .setBytes(2, bytes(rowsLayout(k.out(), k.in(), k.in(), k.causalRows())));
        cover(b.encoder(), pipeline, k.in().shape()[0]);
    }

    private void softmaxGrad(Binder b, Kernel.SoftmaxGrad k) {
        sameDtype("softmax gradient", k.out(), k.y());
        sameDtype("softmax gradient", k.out(), k.dy());
        ComputePipeline pipeline = kernels.pipeline(ProgramKey.of(Family.SOFTMAX, k.y().dtype()), "softmax_grad");
        b.encoder().setPipeline(pipeline).setBuffer(0, b.buffer(k.out())).setBuffer(1, b.buffer(k.y())).setBuffer(2, b.buffer(k.dy()))
                .setBytes(3, bytes(rowsLayout(k.out(), k.y(), k.dy(), 0)));
        cover(b.encoder(), pipeline, k.y().shape()[0]);
    }

    /** n, c, then offset, row stride and column stride of each (n, c) operand, then the causal rows. */
    private static long[] rowsLayout(Operand out, Operand a, Operand b, int causalRows) {
        return new long[] {a.shape()[0], a.shape()[1], out.offset(), out.strides()[0], out.strides()[1], a.offset(), a.strides()[0],
                a.strides()[1], b.offset(), b.strides()[0], b.strides()[1], causalRows};
    }

    private void layerNorm(Binder b, Kernel.LayerNorm k) {
        for (Operand o : new Operand[] {k.mean(), k.rstd(), k.in(), k.weight(), k.bias()}) if (o != null) sameDtype("layer norm", k.out(), o);
        ComputePipeline pipeline = kernels.pipeline(ProgramKey.of(Family.LAYER_NORM, k.in().dtype()), "layer_norm");
        long[] layout = layerNormLayout(k.out(), k.in(), k.mean(), k.rstd(), k.weight(), k.bias(), null, null);
        bindLayerNorm(b, pipeline, k.out(), k.bias(), null, null, k.in(), k.mean(), k.rstd(), k.weight(), layout).setFloat(9, (float) k.eps());
        cover(b.encoder(), pipeline, k.in().shape()[0]);
    }

    /** The input's gradient a row per work item, then the weight's and bias's a column per work item (both only read dy and x). */
    private void layerNormGrad(Binder b, Kernel.LayerNormGrad k) {
        for (Operand o : new Operand[] {k.dweight(), k.dbias(), k.dy(), k.in(), k.mean(), k.rstd(), k.weight()}) {
            if (o != null) sameDtype("layer norm gradient", k.dx(), o);
        }
        long[] layout = layerNormLayout(k.dx(), k.in(), k.mean(), k.rstd(), k.weight(), k.dweight(), k.dy(), k.dbias());
        ComputePipeline rows = kernels.pipeline(ProgramKey.of(Family.LAYER_NORM, k.in().dtype()), "layer_norm_grad");
        bindLayerNorm(b, rows, k.dx(), k.dweight(), k.dbias(), k.dy(), k.in(), k.mean(), k.rstd(), k.weight(), layout);
        cover(b.encoder(), rows, k.in().shape()[0]);
        if (k.dweight() == null && k.dbias() == null) return;
        ComputePipeline columns = kernels.pipeline(ProgramKey.of(Family.LAYER_NORM, k.in().dtype()), "layer_norm_param_grad");
        bindLayerNorm(b, columns, k.dx(), k.dweight(), k.dbias(), k.dy(), k.in(), k.mean(), k.rstd(), k.weight(), layout);
        cover(b.encoder(), columns, k.in().shape()[1]);
    }

    /** Binds the layer norm programs' arguments; an absent operand is bound to {@code out}'s buffer, its flag 0 in the layout. */
    private ComputeEncoder bindLayerNorm(Binder b, ComputePipeline pipeline, Operand out, Operand second, Operand third, Operand dy,
            Operand x, Operand mean, Operand rstd, Operand weight, long[] layout) {
        return b.encoder().setPipeline(pipeline).setBuffer(0, b.buffer(out)).setBuffer(1, b.buffer(second == null ? out : second))
                .setBuffer(2, b.buffer(third == null ? out : third)).setBuffer(3, b.buffer(dy == null ? x : dy)).setBuffer(4, b.buffer(x))
                .setBuffer(5, b.buffer(mean)).setBuffer(6, b.buffer(rstd)).setBuffer(7, b.buffer(weight == null ? x : weight))
                .setBytes(8, bytes(layout));
    }

    /** The layout {@code KernelSources.layerNorm} documents. */
    private static long[] layerNormLayout(Operand out, Operand x, Operand mean, Operand rstd, Operand weight, Operand second, Operand dy,
            Operand third) {
        return new long[] {x.shape()[0], x.shape()[1], out.offset(), out.strides()[0], out.strides()[1], x.offset(), x.strides()[0],
                x.strides()[1], mean.offset(), mean.strides()[0], rstd.offset(), rstd.strides()[0], weight == null ? 0 : weight.offset(),
                weight == null ? 0 : weight.strides()[0], weight == null ? 0 : 1, second == null ? 0 : second.offset(),
                second == null ? 0 : second.strides()[0], second == null ? 0 : 1, dy == null ? 0 : dy.offset(), dy == null ? 0 : dy.strides()[0],
                dy == null ? 0 : dy.strides()[1], third == null ? 0 : third.offset(), third == null ? 0 : third.strides()[0], third == null ? 0 : 1};
    }

    /** A work item per output element. */
    private void maxPool(Binder b, Kernel.MaxPool2d k) {
        sameDtype("max pool", k.out(), k.in());
        if (k.indices().dtype() != DType.I64) throw refused("max pool indices", k.indices(), "i64");
        if (k.out().elements() == 0) return;
        ComputePipeline pipeline = kernels.pipeline(ProgramKey.of(Family.MAX_POOL, k.in().dtype()), "max_pool");
        int[] in = k.in().shape(), out = k.out().shape();
        long[] layout = new long[29];
        long[] sizes = {in[0], in[1], in[2], in[3], out[2], out[3], k.kernelH(), k.kernelW(), k.strideH(), k.strideW(), k.padH(), k.padW(),
                k.dilationH(), k.dilationW()};
        System.arraycopy(sizes, 0, layout, 0, sizes.length);
        place(layout, 14, k.in());
        place(layout, 19, k.out());
        place(layout, 24, k.indices());
        b.encoder().setPipeline(pipeline).setBuffer(0, b.buffer(k.out())).setBuffer(1, b.buffer(k.indices())).setBuffer(2, b.buffer(k.in()))
                .setBytes(3, bytes(layout));
        cover(b.encoder(), pipeline, k.out().elements());
    }

    /** A work item per (n, c) plane: it zeroes the plane's gradient, then adds in output order (no atomics, a fixed order). */
    private void maxPoolGrad(Binder b, Kernel.MaxPool2dGrad k) {
        sameDtype("max pool gradient", k.dx(), k.dy());
        if (k.indices().dtype() != DType.I64) throw refused("max pool gradient indices", k.indices(), "i64");
        int[] in = k.dx().shape(), out = k.dy().shape();
        long planes = (long) in[0] * in[1];
        if (planes == 0 || k.dx().elements() == 0) return;
        ComputePipeline pipeline = kernels.pipeline(ProgramKey.of(Family.MAX_POOL, k.dx().dtype()), "max_pool_grad");
        long[] layout = new long[21];
        long[] sizes = {in[0], in[1], in[2], in[3], out[2], out[3]};
        System.arraycopy(sizes, 0, layout, 0, sizes.length);
        place(layout, 6, k.dx());
        place(layout, 11, k.dy());
        place(layout, 16, k.indices());
        b.encoder().setPipeline(pipeline).setBuffer(0, b.buffer(k.dx())).setBuffer(1, b.buffer(k.dy())).setBuffer(2, b.buffer(k.indices()))
                .setBytes(3, bytes(layout));
        cover(b.encoder(), pipeline, planes);
    }

    /** A work item per channel: its statistics, then its output. */
    private void batchNorm(Binder b, Kernel.BatchNorm k) {
        for (Operand o : new Operand[] {k.mean(), k.var(), k.in(), k.weight(), k.bias()}) if (o != null) sameDtype("batch norm", k.out(), o);
        ComputePipeline pipeline = kernels.pipeline(ProgramKey.of(Family.BATCH_NORM, k.in().dtype()), "batch_norm");
        long[] layout = batchNormLayout(k.out(), k.in(), null, k.mean(), k.var(), k.weight(), k.bias(), null);
        bindBatchNorm(b, pipeline, k.out(), k.bias(), null, null, k.in(), k.mean(), k.var(), k.weight(), layout).setFloat(9, (float) k.eps());
        cover(b.encoder(), pipeline, k.in().shape()[1]);
    }

    /** A work item per channel: its sums, the weight's and bias's gradients, then the input's. */
    private void batchNormGrad(Binder b, Kernel.BatchNormGrad k) {
        for (Operand o : new Operand[] {k.dweight(), k.dbias(), k.dy(), k.in(), k.mean(), k.var(), k.weight()}) {
            if (o != null) sameDtype("batch norm gradient", k.dx(), o);
        }
        ComputePipeline pipeline = kernels.pipeline(ProgramKey.of(Family.BATCH_NORM, k.in().dtype()), "batch_norm_grad");
        long[] layout = batchNormLayout(k.dx(), k.in(), k.dy(), k.mean(), k.var(), k.weight(), k.dweight(), k.dbias());
        bindBatchNorm(b, pipeline, k.dx(), k.dweight(), k.dbias(), k.dy(), k.in(), k.mean(), k.var(), k.weight(), layout)
                .setFloat(9, (float) k.eps());
        cover(b.encoder(), pipeline, k.in().shape()[1]);
    }

    /** Binds the batch norm programs' arguments; an absent operand is bound to another's buffer, its flag 0 in the layout. */
    private ComputeEncoder bindBatchNorm(Binder b, ComputePipeline pipeline, Operand out, Operand second, Operand third, Operand dy,
            Operand x, Operand mean, Operand var, Operand weight, long[] layout) {
        return b.encoder().setPipeline(pipeline).setBuffer(0, b.buffer(out)).setBuffer(1, b.buffer(second == null ? out : second))
                .setBuffer(2, b.buffer(third == null ? out : third)).setBuffer(3, b.buffer(dy == null ? x : dy)).setBuffer(4, b.buffer(x))
                .setBuffer(5, b.buffer(mean)).setBuffer(6, b.buffer(var)).setBuffer(7, b.buffer(weight == null ? x : weight))
                .setBytes(8, bytes(layout));
    }

    /** The layout {@code KernelSources.batchNorm} documents. */
    private static long[] batchNormLayout(Operand out, Operand x, Operand dy, Operand mean, Operand var, Operand weight, Operand second,
            Operand third) {
        long[] p = new long[28];
        p[0] = x.shape()[0];
        p[1] = x.shape()[1];
        p[2] = x.shape()[2];
        Operand[] volumes = {out, x, dy};
        for (int v = 0; v < 3; v++) {
            if (volumes[v] == null) continue;
            p[3 + 4 * v] = volumes[v].offset();
            System.arraycopy(volumes[v].strides(), 0, p, 4 + 4 * v, 3);
        }
        p[15] = mean.offset();
        p[16] = mean.strides()[0];
        p[17] = var.offset();
        p[18] = var.strides()[0];
        Operand[] vectors = {weight, second, third};
        for (int v = 0; v < 3; v++) {
            if (vectors[v] == null) continue;
            p[19 + 3 * v] = vectors[v].offset();
            p[20 + 3 * v] = vectors[v].strides()[0];
            p[21 + 3 * v] = 1;
        }
        return p;
    }

    /** A rank-4 operand's offset and four strides at {@code layout[at..at + 4]}. */
    private static void place(long[] layout, int at, Operand o) {
        layout[at] = o.offset();
        System.arraycopy(o.strides(), 0, layout, at + 1, 4);
    }

    // ---- helpers ---------------------------------------------------------------------------------

    /** Enough whole threadgroups for {@code items} work items; the kernel skips those past the end. */
    private static void cover(ComputeEncoder e, ComputePipeline pipeline, long items) {
        Size group = Size.of(group(pipeline, GROUP));
        e.dispatchThreadgroups(Size.threadgroupsCovering(Size.of(items), group), group);
    }

    /** The largest power of two at most {@code wanted} that the pipeline can run in one group. */
    private static int group(ComputePipeline pipeline, int wanted) {
        long limit = Math.min(wanted, pipeline.maxThreadsPerThreadgroup());
        return Integer.highestOneBit((int) Math.max(1, limit));
    }

    private static byte[] bytes(long[] values) {
        return MemorySegment.ofArray(values).toArray(ValueLayout.JAVA_BYTE);
    }

    private static int[] without(int[] a, int axis) {
        int[] r = new int[a.length - 1];
        for (int i = 0, j = 0; i < a.length; i++) if (i != axis) r[j++] = a[i];
        return r;
    }

    private static long[] without(long[] a, int axis) {
        long[] r = new long[a.length - 1];
        for (int i = 0, j = 0; i < a.length; i++) if (i != axis) r[j++] = a[i];
        return r;
    }

    private static void sameDtype(String what, Operand a, Operand b) {
        if (a.dtype() != b.dtype())
            throw new IllegalArgumentException(what + ": operands of different dtypes " + a + " and " + b + "; expected one dtype");
    }

    private static IllegalArgumentException refused(String what, Operand o, String expected) {
        return new IllegalArgumentException(what + " does not take " + o.dtype().label() + " (operand " + o + "); expected " + expected);
    }
}
