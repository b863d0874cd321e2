package dev.panamax.tensor;

import dev.panamax.tensor.spi.Backend;
import dev.panamax.tensor.spi.BinaryOp;
import dev.panamax.tensor.spi.Device;
import dev.panamax.tensor.spi.Kernel;
import dev.panamax.tensor.spi.Operand;
import dev.panamax.tensor.spi.ReduceOp;
import dev.panamax.tensor.spi.Storage;
import dev.panamax.tensor.spi.UnaryOp;

import java.util.List;
import java.util.random.RandomGenerator;

/**
 * An n-dimensional array of one {@link DType} in owned native memory, with NumPy's broadcasting and
 * reverse-mode autograd. A tensor is a strided view of a {@link Storage}: reshape (when the strides
 * allow), transpose, permute, slice, expand and broadcasting make new views of the same memory
 * without copying.
 *
 * <pre>{@code
 * Tensor w = Tensor.normal(new SplittableRandom(1), 0, 0.1, 3, 2).requiresGrad(true);
 * Tensor x = Tensor.of(new float[] {1, 2, 3, 4, 5, 6}, 2, 3);
 * Tensor loss = x.matmul(w).relu().sum();
 * loss.backward();
 * float[] dw = w.grad().toFloatArray();     // d loss / d w, shape (3, 2)
 * }</pre>
 *
 * <p><b>Memory.</b> Storage is freed by whichever comes first: {@link #close()}, the end of the
 * {@link TensorScope} it was made in, or the GC once no tensor refers to it (the GC sees each
 * storage's true size, so it runs in time on its own). Gradients of leaves ({@link #grad()}) belong
 * to their leaf, not to the scope that was open during {@code backward}.
 *
 * <p><b>Errors.</b> Every op checks its operands first and throws {@link TensorException} naming
 * the op, the operands' shapes and dtypes and what it expected.
 */
public final class Tensor implements AutoCloseable {
    Backend backend;     // replaced only when a leaf moves in place (Module.to)
    Storage storage;
    final Shape shape;
    long[] strides;
    long offset;
    private boolean requiresGrad;
    private Tensor grad;
    Node node;

    Tensor(Backend backend, Storage storage, Shape shape, long[] strides, long offset) {
        this.backend = backend;
        this.storage = storage;
        this.shape = shape;
        this.strides = strides;
        // an empty view reads nothing: offset 0 keeps it inside its storage, which may hold no bytes
        this.offset = shape.elements() == 0 ? 0 : offset;
    }

    // ---------------------------------------------------------------- creation

    /** A new tensor of {@code dtype} and {@code shape} on {@code backend}, content undefined. */
    static Tensor empty(Backend backend, DType dtype, Shape shape) {
        Storage s;
        try {
            s = backend.allocate(dtype, shape.elements());
        } catch (TensorDeviceException e) {
            throw new TensorDeviceException(e.device(), "cannot make a " + dtype.label() + " tensor of shape " + shape
                    + " on the " + backend.name() + " backend: " + e.getMessage().substring(e.device().toString().length() + 2), e);
        }
        TensorScope.adoptNew(s);
        return new Tensor(backend, s, shape, shape.rowMajor(), 0);
    }

    /** f32 zeros of the given dimensions, on the current backend. */
    public static Tensor zeros(int... dims) {
        return full(DType.F32, 0, dims);
    }

    public static Tensor zeros(DType dtype, int... dims) {
        return full(dtype, 0, dims);
    }

    /** f32 ones of the given dimensions. */
    public static Tensor ones(int... dims) {
        return full(DType.F32, 1, dims);
    }

    public static Tensor ones(DType dtype, int... dims) {
        return full(dtype, 1, dims);
    }

    /** f32 filled with {@code value}. */
    public static Tensor full(double value, int... dims) {
        return full(DType.F32, value, dims);
    }

    /** {@code dtype} filled with {@code value} (converted as a store converts). */
    public static Tensor full(DType dtype, double value, int... dims) {
        return Creation.full(Backends.current(), dtype, value, Creation.shapeOf("full", dims));
    }

    /** A rank-0 f32 tensor. */
    public static Tensor scalar(double value) {
        return full(DType.F32, value);
    }

    /** {@code 0, 1, ..., n-1} as I64, like {@code numpy.arange(n)}. */
    public static Tensor arange(long n) {
        return Creation.arange(Backends.current(), DType.I64, 0, n, 1);
    }

    /** {@code start, start+step, ...} below {@code end} (above, for a negative step), as {@code dtype}. */
    public static Tensor arange(DType dtype, double start, double end, double step) {
        return Creation.arange(Backends.current(), dtype, start, end, step);
    }

    /** f32 from {@code data}, shaped by {@code dims} (1-D when none given). */
    public static Tensor of(float[] data, int... dims) {
        return Creation.fromArray(Backends.current(), DType.F32, data, data.length, dims);
    }

    /** f32 from a rectangular 2-D array. */
    public static Tensor of(float[][] rows) {
        return Creation.fromRows(Backends.current(), rows);
    }

    /** I32 from {@code data}, shaped by {@code dims} (1-D when none given). */
    public static Tensor of(int[] data, int... dims) {
        return Creation.fromArray(Backends.current(), DType.I32, data, data.length, dims);
    }

    /** I64 from {@code data}, shaped by {@code dims} (1-D when none given). */
    public static Tensor of(long[] data, int... dims) {
        return Creation.fromArray(Backends.current(), DType.I64, data, data.length, dims);
    }

    /** F16 from IEEE half bit patterns, shaped by {@code dims}. */
    public static Tensor ofHalf(short[] bits, int... dims) {
        return Creation.fromArray(Backends.current(), DType.F16, bits, bits.length, dims);
    }

    /** f32 uniform in {@code [low, high)} from {@code rng} (seed it for repeatable values). */
    public static Tensor uniform(RandomGenerator rng, double low, double high, int... dims) {
        return Creation.uniform(Backends.current(), rng, low, high, Creation.shapeOf("uniform", dims));
    }

    /** f32 normal with the given mean and standard deviation from {@code rng}. */
    public static Tensor normal(RandomGenerator rng, double mean, double std, int... dims) {
        return Creation.normal(Backends.current(), rng, mean, std, Creation.shapeOf("normal", dims));
    }

    /** Zeros of this tensor's dtype and shape, on its backend. */
    public Tensor zerosLike() {
        return Creation.full(backend, dtype(), 0, shape);
    }

    /** Ones of this tensor's dtype and shape, on its backend. */
    public Tensor onesLike() {
        return Creation.full(backend, dtype(), 1, shape);
    }

    // ---------------------------------------------------------------- properties

    public DType dtype() {
        return storage.dtype();
    }

    public Shape shape() {
        return shape;
    }

    /** The dimensions (a copy). */
    public int[] dims() {
        return shape.dims();
    }

    /** Size of dimension {@code axis} (negative counts from the end). */
    public int dim(int axis) {
        return shape.dim(axis);
    }

    public int rank() {
        return shape.rank();
    }

    public long elements() {
        return shape.elements();
    }

    /** Element strides (a copy). */
    public long[] strides() {
        return strides.clone();
    }

    /** Offset of element (0, ...) into the storage, in elements. */
    public long offset() {
        return offset;
    }

    public Backend backend() {
        return backend;
    }

    /** The storage this tensor views (shared by its views). */
    public Storage storage() {
        return storage;
    }

    /** Whether the elements are dense in row-major order. */
    public boolean isContiguous() {
        return operand().isContiguous();
    }

    /** The kernel's view of this tensor. */
    public Operand operand() {
        return new Operand(storage, shape.raw(), strides, offset);
    }

    /** This tensor's view broadcast to {@code target} (zero strides where it is expanded). */
    Operand operandAs(Shape target) {
        if (target.equals(shape)) return operand();
        return new Operand(storage, target.raw(), Movement.broadcastStrides(this, target), offset);
    }

    // ---------------------------------------------------------------- elementwise

    /**
     * {@code this + other}, broadcast. Operands of different dtypes convert first to the dtype
     * PyTorch's {@code result_type} gives (an integer with a floating tensor: the floating dtype;
     * f16 with f32: f32; i32 with i64: i64); integer arithmetic wraps as two's complement.
     */
    public Tensor add(Tensor other) {
        return Elementwise.binary("add", BinaryOp.ADD, this, other);
    }

    /** {@code this + value}; a {@code double} is a float scalar: an integer tensor gives f32 (PyTorch's rule). */
    public Tensor add(double value) {
        return Elementwise.scalar("add", BinaryOp.ADD, this, value);
    }

    /** {@code this + value}; a {@code long} is an integer scalar: the tensor keeps its dtype (the value must fit it). */
    public Tensor add(long value) {
        return Elementwise.scalar("add", BinaryOp.ADD, this, value);
    }

    public Tensor sub(Tensor other) {
        return Elementwise.binary("sub", BinaryOp.SUB, this, other);
    }

    public Tensor sub(double value) {
        return Elementwise.scalar("sub", BinaryOp.SUB, this, value);
    }

    public Tensor sub(long value) {
        return Elementwise.scalar("sub", BinaryOp.SUB, this, value);
    }

    public Tensor mul(Tensor other) {
        return Elementwise.binary("mul", BinaryOp.MUL, this, other);
    }

    /** {@code this * value}: an integer tensor times a {@code double} is an f32 tensor ({@code i32 * 0.5 -> f32}). */
    public Tensor mul(double value) {
        return Elementwise.scalar("mul", BinaryOp.MUL, this, value);
    }

    /** {@code this * value}: an integer tensor times a {@code long} keeps its dtype. */
    public Tensor mul(long value) {
        return Elementwise.scalar("mul", BinaryOp.MUL, this, value);
    }

    /** True division: integer operands give f32, as PyTorch's {@code /} does. */
    public Tensor div(Tensor other) {
        return Elementwise.binary("div", BinaryOp.DIV, this, other);
    }

    public Tensor div(double value) {
        return Elementwise.scalar("div", BinaryOp.DIV, this, value);
    }

    /** True division by an integer: an integer tensor gives f32. */
    public Tensor div(long value) {
        return Elementwise.scalar("div", BinaryOp.DIV, this, value);
    }

    /** Elementwise power {@code this ^ exponent}. */
    public Tensor pow(Tensor exponent) {
        return Elementwise.binary("pow", BinaryOp.POW, this, exponent);
    }

    public Tensor pow(double exponent) {
        return Elementwise.scalar("pow", BinaryOp.POW, this, exponent);
    }

    public Tensor pow(long exponent) {
        return Elementwise.scalar("pow", BinaryOp.POW, this, exponent);
    }

    /** Elementwise maximum (NaN wins, as in NumPy's {@code maximum}). */
    public Tensor maximum(Tensor other) {
        return Elementwise.binary("maximum", BinaryOp.MAX, this, other);
    }

    public Tensor minimum(Tensor other) {
        return Elementwise.binary("minimum", BinaryOp.MIN, this, other);
    }

    /** 1 where equal, else 0, in the dtype both operands promote to (see {@link #add(Tensor)}). */
    public Tensor eq(Tensor other) {
        return Elementwise.binary("eq", BinaryOp.EQ, this, other);
    }

    public Tensor ne(Tensor other) {
        return Elementwise.binary("ne", BinaryOp.NE, this, other);
    }

    public Tensor lt(Tensor other) {
        return Elementwise.binary("lt", BinaryOp.LT, this, other);
    }

    public Tensor le(Tensor other) {
        return Elementwise.binary("le", BinaryOp.LE, this, other);
    }

    public Tensor gt(Tensor other) {
        return Elementwise.binary("gt", BinaryOp.GT, this, other);
    }

    public Tensor ge(Tensor other) {
        return Elementwise.binary("ge", BinaryOp.GE, this, other);
    }

    /** 1 where {@code this > value}, else 0; compared in f32 for an integer tensor (as {@link #mul(double)}). */
    public Tensor gt(double value) {
        return Elementwise.scalar("gt", BinaryOp.GT, this, value);
    }

    public Tensor lt(double value) {
        return Elementwise.scalar("lt", BinaryOp.LT, this, value);
    }

    /** 1 where {@code this > value}, else 0, in this tensor's dtype. */
    public Tensor gt(long value) {
        return Elementwise.scalar("gt", BinaryOp.GT, this, value);
    }

    public Tensor lt(long value) {
        return Elementwise.scalar("lt", BinaryOp.LT, this, value);
    }

    /** {@code a} where {@code cond} is nonzero, else {@code b}; all three broadcast together. */
    public static Tensor where(Tensor cond, Tensor a, Tensor b) {
        return Elementwise.where(cond, a, b);
    }

    public Tensor neg() {
        return Elementwise.unary("neg", UnaryOp.NEG, this);
    }

    public Tensor exp() {
        return Elementwise.unary("exp", UnaryOp.EXP, this);
    }

    public Tensor log() {
        return Elementwise.unary("log", UnaryOp.LOG, this);
    }

    public Tensor sqrt() {
        return Elementwise.unary("sqrt", UnaryOp.SQRT, this);
    }

    public Tensor abs() {
        return Elementwise.unary("abs", UnaryOp.ABS, this);
    }

    public Tensor relu() {
        return Elementwise.unary("relu", UnaryOp.RELU, this);
    }

    /** GELU in its tanh form (PyTorch's {@code gelu(approximate='tanh')}). */
    public Tensor gelu() {
        return Elementwise.unary("gelu", UnaryOp.GELU, this);
    }

    public Tensor sigmoid() {
        return Elementwise.unary("sigmoid", UnaryOp.SIGMOID, this);
    }

    public Tensor tanh() {
        return Elementwise.unary("tanh", UnaryOp.TANH, this);
    }

    /** A copy converted to {@code dtype} (this tensor itself when it already has it). */
    public Tensor cast(DType dtype) {
        return Elementwise.cast(this, dtype);
    }

    // ---------------------------------------------------------------- reductions

    /** Sum of all elements, rank 0. */
    public Tensor sum() {
        return Reduction.sum(this, Reduction.allAxes(this), false);
    }

    /** Sum along {@code axis}; keeps it as size 1 when {@code keepDim}. */
    public Tensor sum(int axis, boolean keepDim) {
        return Reduction.sum(this, new int[] {axis}, keepDim);
    }

    /** Sum along several axes. */
    public Tensor sum(int[] axes, boolean keepDim) {
        return Reduction.sum(this, axes, keepDim);
    }

    /** Mean of all elements, rank 0. */
    public Tensor mean() {
        return Reduction.mean(this, Reduction.allAxes(this), false);
    }

    public Tensor mean(int axis, boolean keepDim) {
        return Reduction.mean(this, new int[] {axis}, keepDim);
    }

    public Tensor mean(int[] axes, boolean keepDim) {
        return Reduction.mean(this, axes, keepDim);
    }

    /** Largest element, rank 0. */
    public Tensor max() {
        return Reduction.extreme("max", ReduceOp.MAX, this.reshape(-1), 0, false);
    }

    /** Largest value along {@code axis}. */
    public Tensor max(int axis, boolean keepDim) {
        return Reduction.extreme("max", ReduceOp.MAX, this, axis, keepDim);
    }

    public Tensor min(int axis, boolean keepDim) {
        return Reduction.extreme("min", ReduceOp.MIN, this, axis, keepDim);
    }

    /** Index (I64) of the first largest value along {@code axis}, the axis dropped. */
    public Tensor argmax(int axis) {
        return Reduction.argmax(this, axis, false);
    }

    public Tensor argmax(int axis, boolean keepDim) {
        return Reduction.argmax(this, axis, keepDim);
    }

    // ---------------------------------------------------------------- linear algebra and composites

    /**
     * Matrix product with NumPy's {@code matmul} rules: 1-D operands are promoted and the added
     * dimension removed again; leading (batch) dimensions broadcast.
     */
    public Tensor matmul(Tensor other) {
        return LinearAlgebra.matmul(this, other);
    }

    /**
     * A fully connected layer's product, PyTorch's {@code linear}: {@code input weight^T + bias} for
     * {@code input (n, in)}, {@code weight (out, in)} and {@code bias (out)} or null. The bias is the
     * product's starting value rather than a second pass over it, and the weight's gradient comes
     * out in the weight's own (row-major) layout.
     *
     * <pre>{@code
     * Tensor y = Tensor.linear(x, w, b);   // x (256, 2), w (64, 2), b (64) -> y (256, 64)
     * }</pre>
     */
    public static Tensor linear(Tensor input, Tensor weight, Tensor bias) {
        return LinearAlgebra.linear(input, weight, bias);
    }

    public Tensor softmax(int axis) {
        return Composite.softmax(this, axis);
    }

    public Tensor logSoftmax(int axis) {
        return Composite.logSoftmax(this, axis);
    }

    /**
     * Normalizes over the last dimension ({@code (x - mean) / sqrt(var + eps)}, biased variance),
     * then scales by {@code weight} and shifts by {@code bias} (either may be null; each of shape
     * {@code (d,)} for a last dimension of {@code d}, and of this tensor's dtype). Runs as one fused
     * kernel forward and one backward where the backend has them (a strided input is made contiguous
     * first), else as their composite; f16 is normalized in f32.
     *
     * @throws TensorException for a weight or bias of another shape, dtype or backend, or an eps
     *                         that is negative or not finite
     */
    public Tensor layerNorm(Tensor weight, Tensor bias, double eps) {
        return Composite.layerNorm(this, weight, bias, eps);
    }

    /**
     * Mean cross-entropy of {@code logits (n, classes)} against integer {@code labels (n)}, each in
     * {@code [0, classes)}.
     */
    public static Tensor crossEntropy(Tensor logits, Tensor labels) {
        return Composite.crossEntropy(logits, labels);
    }

    // ---------------------------------------------------------------- movement (views)

    /** A view with new dimensions (one may be -1: inferred); copies only when strides forbid a view. */
    public Tensor reshape(int... dims) {
        return Movement.reshape(this, dims);
    }

    /** All dimensions as one. */
    public Tensor flatten() {
        return reshape(-1);
    }

    /** A view with dimensions reordered: result dimension i is this tensor's {@code order[i]}. */
    public Tensor permute(int... order) {
        return Movement.permute(this, order);
    }

    /** A view with two dimensions swapped. */
    public Tensor transpose(int a, int b) {
        return Movement.transpose(this, a, b);
    }

    /** The transpose of a matrix (rank 2). */
    public Tensor t() {
        if (rank() != 2) throw TensorException.of("t", "expected a matrix (rank 2)", this);
        return transpose(0, 1);
    }

    /** A view of indices {@code start, start+step, ...} below {@code end} along {@code axis}. */
    public Tensor slice(int axis, int start, int end, int step) {
        return Movement.slice(this, axis, start, end, step);
    }

    public Tensor slice(int axis, int start, int end) {
        return Movement.slice(this, axis, start, end, 1);
    }

    /** A view of index {@code index} along {@code axis}, that axis removed. */
    public Tensor select(int axis, int index) {
        return Movement.select(this, axis, index);
    }

    /** A view with a size-1 dimension inserted at {@code axis}. */
    public Tensor unsqueeze(int axis) {
        return Movement.unsqueeze(this, axis);
    }

    /** A view without dimension {@code axis}, which must have size 1. */
    public Tensor squeeze(int axis) {
        return Movement.squeeze(this, axis);
    }

    /** A view broadcast to {@code dims} (NumPy's {@code broadcast_to}): no copy, zero strides. */
    public Tensor expand(int... dims) {
        return Movement.expand(this, Creation.shapeOf("expand", dims));
    }

    public Tensor broadcastTo(Shape target) {
        return Movement.expand(this, target);
    }

    /** This tensor when it is contiguous, otherwise a contiguous copy. */
    public Tensor contiguous() {
        return isContiguous() ? this : Movement.copy(this);
    }

    /** Joins tensors along an existing axis. */
    public static Tensor concat(List<Tensor> tensors, int axis) {
        return Movement.concat(tensors, axis);
    }

    /** Joins tensors of one shape along a new axis. */
    public static Tensor stack(List<Tensor> tensors, int axis) {
        return Movement.stack(tensors, axis);
    }

    /** The entries of {@code axis} picked by {@code index} (1-D, I32 or I64), in its order. */
    public Tensor indexSelect(int axis, Tensor index) {
        return Movement.indexSelect(this, axis, index);
    }

    // ---------------------------------------------------------------- autograd

    public boolean requiresGrad() {
        return requiresGrad;
    }

    /**
     * Marks a leaf whose gradient {@link #backward()} should compute (floating dtypes only).
     * Returns this tensor.
     */
    public Tensor requiresGrad(boolean value) {
        if (value && !dtype().isFloating()) {
            throw TensorException.of("requiresGrad", "only floating tensors can require gradients", this);
        }
        if (!value && node != null) {
            throw TensorException.of("requiresGrad", "not a leaf: the result of '" + node.op + "'; use detach()", this);
        }
        requiresGrad = value;
        return this;
    }

    /** Whether this tensor was made by the user, not recorded from an op. */
    public boolean isLeaf() {
        return node == null;
    }

    /** The accumulated gradient of a leaf, or null before any backward reached it. */
    public Tensor grad() {
        return grad;
    }

    /** Drops (and frees) the gradient. */
    public void zeroGrad() {
        if (grad != null) {
            backend.sync(grad.storage);
            grad.storage.close();
            grad = null;
        }
    }

    /** Makes this tensor the output of a recorded op. */
    void attach(Node recorded) {
        node = recorded;
        requiresGrad = true;
    }

    void accumulateGrad(Tensor g) {
        if (grad == null) {
            grad = TensorScope.unscoped(() -> Movement.copyAs(g, dtype()));
        } else {
            grad.addInPlace(g);
        }
    }

    /** Back-propagates from this scalar: gradients of every leaf that requires them accumulate. */
    public void backward() {
        GradEngine.backward(this, null);
    }

    /** Back-propagates with {@code gradient} as d(something)/d(this), shaped like this tensor. */
    public void backward(Tensor gradient) {
        GradEngine.backward(this, gradient);
    }

    /** The same values (a view of the same storage) cut from the graph. */
    public Tensor detach() {
        return new Tensor(backend, storage, shape, strides, offset);
    }

    // ---------------------------------------------------------------- in place (no autograd)

    /**
     * {@code this += other} (broadcast to this shape; another dtype computes as {@link #add(Tensor)}
     * and is stored converted, refused where a floating result meets an integer tensor). Returns this tensor.
     */
    public Tensor addInPlace(Tensor other) {
        return InPlace.binary("addInPlace", BinaryOp.ADD, this, other);
    }

    public Tensor subInPlace(Tensor other) {
        return InPlace.binary("subInPlace", BinaryOp.SUB, this, other);
    }

    public Tensor mulInPlace(Tensor other) {
        return InPlace.binary("mulInPlace", BinaryOp.MUL, this, other);
    }

    public Tensor divInPlace(Tensor other) {
        return InPlace.binary("divInPlace", BinaryOp.DIV, this, other);
    }

    /** {@code this += value}; a floating tensor only (an integer one cannot hold the f32 result: use the {@code long} form). */
    public Tensor addInPlace(double value) {
        return InPlace.scalar("addInPlace", BinaryOp.ADD, this, value, true);
    }

    /** {@code this += value}, the value converted to this tensor's dtype (an integer one checks its range). */
    public Tensor addInPlace(long value) {
        return InPlace.scalar("addInPlace", BinaryOp.ADD, this, value, false);
    }

    public Tensor mulInPlace(double value) {
        return InPlace.scalar("mulInPlace", BinaryOp.MUL, this, value, true);
    }

    public Tensor mulInPlace(long value) {
        return InPlace.scalar("mulInPlace", BinaryOp.MUL, this, value, false);
    }

    /** Copies {@code source}'s values (broadcast, converted) into this tensor. Returns this tensor. */
    public Tensor copyFrom(Tensor source) {
        return InPlace.copy(this, source);
    }

    /** Sets every element to {@code value}. Returns this tensor. */
    public Tensor fill(double value) {
        InPlace.check("fill", this);
        Creation.checkValue("fill", dtype(), value, "value " + value);
        Ops.run(backend, new Kernel.Fill(operand(), value));
        storage.markModified();
        return this;
    }

    // ---------------------------------------------------------------- reading

    /**
     * Runs what this tensor's backend has recorded on this thread and, on any thread, for this
     * tensor's storage; afterwards its memory is current on this thread.
     */
    public Tensor sync() {
        backend.sync(storage);
        return this;
    }

    /** The elements in row-major order, converted to float. */
    public float[] toFloatArray() {
        return Reading.floats(this);
    }

    /** The elements in row-major order, converted to double. */
    public double[] toDoubleArray() {
        return Reading.doubles(this);
    }

    /** The elements in row-major order, converted to int (floats truncate toward zero). */
    public int[] toIntArray() {
        return Reading.ints(this);
    }

    /** The elements in row-major order as f16 bit patterns (what {@link #ofHalf} takes), converted to f16 first. */
    public short[] toHalfArray() {
        return Reading.halves(this);
    }

    /** The elements in row-major order, converted to long. */
    public long[] toLongArray() {
        return Reading.longs(this);
    }

    /** The value of a one-element tensor. */
    public double item() {
        if (elements() != 1) throw TensorException.of("item", "expected exactly one element", this);
        return toDoubleArray()[0];
    }

    // ---------------------------------------------------------------- memory

    /**
     * Frees the storage now (shared with every view of it) and the gradient. Further use fails
     * inside Java. Idempotent.
     */
    @Override
    public void close() {
        backend.sync(storage); // whichever thread recorded kernels on it, they run before the block is reused
        storage.close();
        if (grad != null) {
            backend.sync(grad.storage);
            grad.storage.close();
            grad = null;
        }
    }

    // ---------------------------------------------------------------- devices

    /** Where the elements live ({@code host memory}, or a device such as {@code opencl:0 (NVIDIA H200)}). */
    public Device device() {
        return storage.device();
    }

    /**
     * This tensor's values on {@code backend} (a new contiguous tensor, or this one when it already
     * lives there); gradients flow back through the move. The bytes arrive unchanged.
     *
     * <pre>{@code
     * Tensor x = Tensor.of(batch, 256, 2).to("opencl");    // to the device
     * float[] back = model.forward(x).to("cpu").toFloatArray();
     * }</pre>
     */
    public Tensor to(Backend backend) {
        return Transfer.to(this, backend);
    }

    /** {@link #to(Backend)} for the backend called {@code backend} ({@code cpu}, {@code opencl}). */
    public Tensor to(String backend) {
        return Transfer.to(this, Backends.get(backend));
    }

    /**
     * Moves this leaf's values to {@code backend} in place and returns it: the tensor keeps its
     * identity (a model's parameter stays the model's), its old storage is freed (views of it become
     * unusable) and its gradient is dropped. What {@code Module.to} does to every parameter; an
     * optimizer made afterwards keeps its state on the new backend.
     */
    public Tensor relocate(Backend backend) {
        Transfer.relocate(this, backend);
        return this;
    }

    /** Points this leaf at storage on another backend (the old storage is the caller's to free). */
    void replaceStorage(Backend backend, Storage storage, long[] strides, long offset) {
        this.backend = backend;
        this.storage = storage;
        this.strides = strides;
        this.offset = offset;
    }

    /** Whether the storage has been freed. */
    public boolean isFreed() {
        return storage.isFreed();
    }

    @Override
    public String toString() {
        return Reading.describe(this);
    }

    // ---------------------------------------------------------------- convolution, pooling and batch norm

    /**
     * PyTorch's {@code conv2d}: {@code input (n, c, h, w)} (or unbatched {@code (c, h, w)}) with
     * {@code weight (out, c / groups, kh, kw)} and {@code bias (out)} or null; the output is
     * {@code (n, out, oh, ow)} with {@code oh = (h + 2 padding - dilation (kh - 1) - 1) / stride + 1}.
     * Gradients flow to the input, the weight and the bias.
     *
     * <pre>{@code
     * Tensor y = Tensor.conv2d(x, w, b, 1, 1, 1, 1);   // x (8, 3, 32, 32), w (16, 3, 3, 3) -> y (8, 16, 32, 32)
     * }</pre>
     */
    public static Tensor conv2d(Tensor input, Tensor weight, Tensor bias, int stride, int padding, int dilation, int groups) {
        return Convolution.conv2d(input, weight, bias, new int[] {stride, stride}, new int[] {padding, padding},
                new int[] {dilation, dilation}, groups);
    }

    /** {@link #conv2d(Tensor, Tensor, Tensor, int, int, int, int)} with (height, width) pairs for stride, padding and dilation. */
    public static Tensor conv2d(Tensor input, Tensor weight, Tensor bias, int[] stride, int[] padding, int[] dilation, int groups) {
        return Convolution.conv2d(input, weight, bias, stride, padding, dilation, groups);
    }

    /** PyTorch's {@code max_pool2d(x, kernel)}: a square window, stride the kernel size, no padding. */
    public Tensor maxPool2d(int kernel) {
        return maxPool2d(kernel, kernel, 0);
    }

    /**
     * PyTorch's {@code max_pool2d} over {@code (n, c, h, w)} or {@code (c, h, w)}: padding (at most
     * half the kernel) never wins; the gradient goes to each window's first largest element.
     */
    public Tensor maxPool2d(int kernel, int stride, int padding) {
        return Pooling.maxPool2d(this, new int[] {kernel, kernel}, new int[] {stride, stride}, new int[] {padding, padding},
                new int[] {1, 1});
    }

    /** {@link #maxPool2d(int, int, int)} with (height, width) pairs, and dilation. */
    public Tensor maxPool2d(int[] kernel, int[] stride, int[] padding, int[] dilation) {
        return Pooling.maxPool2d(this, kernel, stride, padding, dilation);
    }

    /** PyTorch's {@code avg_pool2d(x, kernel)}: a square window, stride the kernel size, no padding. */
    public Tensor avgPool2d(int kernel) {
        return avgPool2d(kernel, kernel, 0);
    }

    /**
     * PyTorch's {@code avg_pool2d} over {@code (n, c, h, w)} or {@code (c, h, w)}, padding (at most
     * half the kernel) counted as zeros in every window's mean ({@code count_include_pad=True}).
     */
    public Tensor avgPool2d(int kernel, int stride, int padding) {
        return Pooling.avgPool2d(this, new int[] {kernel, kernel}, new int[] {stride, stride}, new int[] {padding, padding});
    }

    /** {@link #avgPool2d(int, int, int)} with (height, width) pairs. */
    public Tensor avgPool2d(int[] kernel, int[] stride, int[] padding) {
        return Pooling.avgPool2d(this, kernel, stride, padding);
    }

    /**
     * PyTorch's {@code batch_norm} over dimension 1 of {@code input (n, c, ...)}. Training uses the
     * batch's statistics and, when given, moves {@code runningMean} and {@code runningVar} (shape
     * {@code (c)}) toward them in place, without gradient ({@code running = (1 - momentum) running
     * + momentum batch}, the variance unbiased); evaluation uses the running statistics.
     * {@code weight} and {@code bias} ({@code (c)}) may be null.
     *
     * <pre>{@code
     * Tensor y = Tensor.batchNorm(x, mean, var, gamma, beta, true, 0.1, 1e-5);
     * }</pre>
     */
    public static Tensor batchNorm(Tensor input, Tensor runningMean, Tensor runningVar, Tensor weight, Tensor bias,
                                   boolean training, double momentum, double eps) {
        return BatchNorm.batchNorm(input, runningMean, runningVar, weight, bias, training, momentum, eps);
    }

    // ---------------------------------------------------------------- activations, statistics, masking and indexing for models beyond the MLP

    /** The error function, elementwise (PyTorch's {@code erf}); its gradient is {@code 2/sqrt(pi) exp(-x^2)}. */
    public Tensor erf() {
        return Elementwise.unary("erf", UnaryOp.ERF, this);
    }

    /**
     * GELU as PyTorch's {@code gelu(x, approximate=...)}: {@code "none"} is the exact form
     * {@code 0.5 x (1 + erf(x / sqrt 2))} (PyTorch's default), {@code "tanh"} the tanh approximation
     * that {@link #gelu()} computes.
     *
     * <pre>{@code
     * Tensor exact = x.gelu("none");     // torch.nn.functional.gelu(x)
     * Tensor approx = x.gelu("tanh");    // torch.nn.functional.gelu(x, approximate='tanh'), same as x.gelu()
     * }</pre>
     */
    public Tensor gelu(String approximate) {
        return Activations.gelu(this, approximate);
    }

    /** SiLU (swish), {@code x * sigmoid(x)}, PyTorch's {@code silu}. */
    public Tensor silu() {
        return Activations.silu(this);
    }

    /**
     * {@code log(sum(exp(this)))} along {@code axis} (negative counts from the end), computed without
     * overflow, as PyTorch's {@code logsumexp(dim, keepdim)}.
     */
    public Tensor logsumexp(int axis, boolean keepDim) {
        return Statistics.logsumexp(this, axis, keepDim);
    }

    /** Unbiased variance of all elements (PyTorch's {@code var()}: correction 1), rank 0. */
    public Tensor var() {
        return Statistics.variance("var", this, Reduction.allAxes(this), false, 1);
    }

    /** Unbiased variance along {@code axis} (PyTorch's {@code var(dim, keepdim)}: correction 1). */
    public Tensor var(int axis, boolean keepDim) {
        return Statistics.variance("var", this, new int[] {axis}, keepDim, 1);
    }

    /**
     * Variance along {@code axis}: squared deviations summed and divided by {@code N - correction}
     * (0 gives the biased, population variance; 1 the unbiased one), as PyTorch's
     * {@code var(dim, correction=..., keepdim=...)}.
     */
    public Tensor var(int axis, boolean keepDim, double correction) {
        return Statistics.variance("var", this, new int[] {axis}, keepDim, correction);
    }

    /** Unbiased standard deviation of all elements, rank 0 (the square root of {@link #var()}). */
    public Tensor std() {
        return Statistics.variance("std", this, Reduction.allAxes(this), false, 1).sqrt();
    }

    /** Unbiased standard deviation along {@code axis}. */
    public Tensor std(int axis, boolean keepDim) {
        return Statistics.variance("std", this, new int[] {axis}, keepDim, 1).sqrt();
    }

    /** Standard deviation along {@code axis} with the given correction (see {@link #var(int, boolean, double)}). */
    public Tensor std(int axis, boolean keepDim, double correction) {
        return Statistics.variance("std", this, new int[] {axis}, keepDim, correction).sqrt();
    }

    /**
     * Each element limited to {@code [min, max]} (PyTorch's {@code clamp}); NaN stays NaN, and
     * {@code min > max} gives {@code max}. An integer tensor gives f32 (the bounds are float scalars).
     * The gradient passes where {@code min <= x <= max}.
     */
    public Tensor clamp(double min, double max) {
        return Clamp.clamp("clamp", this, min, max);
    }

    /** Each element at least {@code min} (PyTorch's {@code clamp_min}). */
    public Tensor clampMin(double min) {
        return Clamp.clamp("clampMin", this, min, null);
    }

    /** Each element at most {@code max} (PyTorch's {@code clamp_max}). */
    public Tensor clampMax(double max) {
        return Clamp.clamp("clampMax", this, null, max);
    }

    /**
     * {@code value} where {@code mask} is nonzero, this tensor's element elsewhere (PyTorch's
     * {@code masked_fill}); the mask (any dtype) broadcasts to this tensor's shape, and the result keeps
     * this tensor's dtype.
     *
     * <pre>{@code
     * Tensor causal = Tensor.ones(t, t).triu(1);                         // 1 above the diagonal
     * Tensor scores = q.matmul(k.transpose(-1, -2)).maskedFill(causal, Double.NEGATIVE_INFINITY);
     * }</pre>
     */
    public Tensor maskedFill(Tensor mask, double value) {
        return Masking.maskedFill(this, mask, value);
    }

    /**
     * The lower triangle of the matrices in the last two dimensions, zero above diagonal {@code k}
     * (0 the main diagonal, positive above it, negative below), as PyTorch's {@code tril}.
     */
    public Tensor tril(int k) {
        return Masking.triangle("tril", this, k, true);
    }

    /** The upper triangle, zero below diagonal {@code k}, as PyTorch's {@code triu}. */
    public Tensor triu(int k) {
        return Masking.triangle("triu", this, k, false);
    }

    /**
     * This integer tensor of class numbers as one-hot i64 rows of {@code classes} entries, shape
     * {@code (..., classes)}, as PyTorch's {@code one_hot}; {@code -1} takes the largest number plus one.
     * Reads the numbers to check them (each must be in {@code [0, classes)}).
     */
    public Tensor oneHot(int classes) {
        return Gather.oneHot(this, classes);
    }

    /**
     * Picks along {@code axis} by {@code index} (i32 or i64, this tensor's rank, each other dimension no
     * larger than this tensor's), as PyTorch's {@code gather}: for axis 1 of a matrix,
     * {@code out[i][j] = this[i][index[i][j]]}. The result has the index's shape; the gradient adds
     * back to the picked positions. Reads the index to check it.
     */
    public Tensor gather(int axis, Tensor index) {
        return Gather.gather(this, axis, index);
    }

    /** The {@code k} largest values along {@code axis}, largest first, and their i64 indices (PyTorch's {@code topk}). */
    public TopK topk(int k, int axis) {
        return Ranking.topk(this, k, axis);
    }

    /**
     * {@code samples} category numbers (i64) drawn without replacement in proportion to each row of
     * {@code weights} (rank 1, or rank 2 for one distribution per row; non-negative, need not sum to 1),
     * as PyTorch's {@code multinomial}. Reads the weights; draws with {@code rng}.
     *
     * <pre>{@code
     * Tensor next = Tensor.multinomial(logits.softmax(-1), 1, rng);    // one token per row
     * }</pre>
     */
    public static Tensor multinomial(Tensor weights, int samples, RandomGenerator rng) {
        return Sampling.multinomial(weights, samples, false, rng);
    }

    /** As {@link #multinomial(Tensor, int, RandomGenerator)}, with replacement when asked (a category may repeat). */
    public static Tensor multinomial(Tensor weights, int samples, boolean replacement, RandomGenerator rng) {
        return Sampling.multinomial(weights, samples, replacement, rng);
    }

    // ---------------------------------------------------------------- attention

    /**
     * PyTorch's {@code scaled_dot_product_attention(q, k, v)}: {@code softmax(q k^T / sqrt(E)) v} for
     * {@code q (..., L, E)}, {@code k (..., S, E)}, {@code v (..., S, Ev)} (batch dimensions
     * broadcast), giving {@code (..., L, Ev)}; differentiable in all three.
     *
     * <pre>{@code
     * Tensor out = Tensor.scaledDotProductAttention(q, k, v);   // (2, 4, 10, 16) each -> (2, 4, 10, 16)
     * }</pre>
     */
    public static Tensor scaledDotProductAttention(Tensor query, Tensor key, Tensor value) {
        return Attention.scaledDotProduct(query, key, value, null, false, null);
    }

    /** {@link #scaledDotProductAttention(Tensor, Tensor, Tensor)} where query {@code i} attends to keys {@code 0..i} only ({@code is_causal=True}). */
    public static Tensor scaledDotProductAttention(Tensor query, Tensor key, Tensor value, boolean causal) {
        return Attention.scaledDotProduct(query, key, value, null, causal, null);
    }

    /**
     * {@link #scaledDotProductAttention(Tensor, Tensor, Tensor)} with every option of PyTorch's.
     * There is no bool dtype: an integer {@code mask} is PyTorch's boolean mask (nonzero: the query
     * may attend to that key), a floating one (the query's dtype) is added to the scores; either
     * broadcasts to {@code (..., L, S)}, and a mask with {@code causal} is refused. A query masked from
     * every key gets zeros (PyTorch's math path), not NaN.
     *
     * @param mask   null, or the mask
     * @param causal query {@code i} attends to keys {@code 0..i} only ({@code tril(ones(L, S))})
     * @param scale  the scores' factor, or null for {@code 1 / sqrt(E)}
     */
    public static Tensor scaledDotProductAttention(Tensor query, Tensor key, Tensor value, Tensor mask, boolean causal, Double scale) {
        return Attention.scaledDotProduct(query, key, value, mask, causal, scale);
    }
}
