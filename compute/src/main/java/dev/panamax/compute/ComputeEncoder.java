package dev.panamax.compute;

import dev.panamax.compute.spi.Argument;
import dev.panamax.compute.spi.Command;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.List;

/**
 * Encodes kernel dispatches into a {@link CommandBuffer}. Its argument table persists across
 * dispatches and pipelines, as in Metal; each dispatch records a snapshot of it. Belongs to one
 * thread; {@link #close()} ends it.
 *
 * <pre>{@code
 * try (ComputeEncoder e = commandBuffer.computeEncoder()) {
 *     e.setPipeline(scale).setBuffer(0, x).setFloat(1, 0.5f).setInt(2, n);
 *     e.dispatchThreads(Size.of(n), Size.of(64));
 *     e.setFloat(1, 2f).dispatchThreads(Size.of(n), Size.of(64));   // only the factor changed
 * }
 * }</pre>
 *
 * In a {@link Validation#CHECKED} command buffer each dispatch is checked against the pipeline's
 * arguments and the device's limits, and a refusal names the command buffer, the command's index,
 * the pipeline and the argument.
 */
public final class ComputeEncoder implements AutoCloseable {
    private final CommandBuffer owner;
    private final boolean checked;
    private final DeviceInfo info;
    private ComputePipeline pipeline;
    private Argument[] table = new Argument[8];
    /** The highest argument index set since the last setPipeline. */
    private int highest = -1;
    /**
     * The snapshot of the table the last dispatch recorded (and, CHECKED, that passed the argument
     * checks), shared by the dispatches after it until the table or the pipeline changes; null then.
     */
    private Argument[] snapshot;
    /** The grid and threadgroup the last dispatch was checked with, for this pipeline. */
    private Size checkedGrid, checkedGroup;
    /**
     * The last dispatch recorded, while the table and pipeline are unchanged since (null after any
     * change): a dispatch that repeats it records the same immutable command again.
     */
    private Command.Dispatch lastDispatch;

    ComputeEncoder(CommandBuffer owner) {
        this.owner = owner;
        this.checked = owner.validation() == Validation.CHECKED;
        this.info = owner.queue().device().info();
    }

    /** The pipeline the next dispatches run. */
    public ComputeEncoder setPipeline(ComputePipeline pipeline) {
        owner.ensureOpenForCommands(this);
        if (pipeline == null) throw new EncodingException(owner.where() + ": the pipeline is null");
        if (checked) {
            if (pipeline.device() != owner.queue().device())
                throw new EncodingException(owner.where() + ": pipeline '" + pipeline.name() + "' belongs to another device ("
                        + pipeline.device().info().name() + "), not this queue's (" + info.name() + ")");
            if (pipeline.isClosed()) throw new EncodingException(owner.where() + ": pipeline '" + pipeline.name() + "' is closed");
        }
        owner.use(pipeline);
        this.pipeline = pipeline;
        this.highest = -1;
        this.snapshot = null;
        this.checkedGrid = null;
        this.checkedGroup = null;
        this.lastDispatch = null;
        return this;
    }

    /** Binds {@code buffer} from its start to argument {@code index}. */
    public ComputeEncoder setBuffer(int index, Buffer buffer) {
        return setBuffer(index, buffer, 0);
    }

    /** Binds {@code buffer} from {@code offset} to argument {@code index}. */
    public ComputeEncoder setBuffer(int index, Buffer buffer, long offset) {
        owner.ensureOpenForCommands(this);
        if (buffer == null) throw new EncodingException(at(index) + ": the buffer is null");
        if (checked) {
            if (buffer.device() != owner.queue().device())
                throw new EncodingException(at(index) + ": " + buffer.describe() + " belongs to another device ("
                        + buffer.device().info().name() + "), not this queue's (" + info.name() + ")");
            if (buffer.isClosed()) throw new EncodingException(at(index) + ": " + buffer.describe() + " is closed");
            if (offset < 0 || offset >= buffer.length())
                throw new EncodingException(at(index) + ": offset " + offset + " is outside " + buffer.describe()
                        + " (expected 0 to " + (buffer.length() - 1) + ")");
            if (offset % info.bufferOffsetAlignment() != 0)
                throw new EncodingException(at(index) + ": offset " + offset + " is not a multiple of " + info.bufferOffsetAlignment()
                        + " bytes, the alignment this device needs for a bound buffer offset");
        }
        owner.use(buffer);
        put(index, new Argument.BufferArgument(buffer, offset));
        return this;
    }

    /**
     * Binds a copy of {@code bytes}: by value to a value argument, or as the contents of a transient
     * buffer to a buffer argument (Metal's {@code setBytes}); read now, so the array may change after.
     */
    public ComputeEncoder setBytes(int index, byte[] bytes) {
        return bytes(index, bytes == null ? null : bytes.clone(), Argument.Elements.BYTES);
    }

    private ComputeEncoder bytes(int index, byte[] bytes, Argument.Elements elements) {
        owner.ensureOpenForCommands(this);
        if (bytes == null || bytes.length == 0) throw new EncodingException(at(index) + ": setBytes needs at least one byte");
        put(index, new Argument.BytesArgument(bytes, elements));
        return this;
    }

    /** Binds a copy of {@code bytes} (see {@link #setBytes(int, byte[])}). */
    public ComputeEncoder setBytes(int index, MemorySegment bytes) {
        return setBytes(index, bytes.toArray(ValueLayout.JAVA_BYTE));
    }

    /**
     * Binds a copy of {@code values}, as {@link #setBytes(int, byte[])}; CHECKED, an argument whose
     * elements are integers (an {@code int}, an {@code int4}) refuses floats.
     */
    public ComputeEncoder setFloats(int index, float... values) {
        byte[] b = new byte[values.length * Float.BYTES];
        MemorySegment.copy(values, 0, MemorySegment.ofArray(b), ValueLayout.JAVA_FLOAT_UNALIGNED, 0, values.length);
        return bytes(index, b, Argument.Elements.FLOATS);
    }

    /**
     * Binds a copy of {@code values}, as {@link #setBytes(int, byte[])}; CHECKED, an argument whose
     * elements are floating-point (a {@code float}, a {@code float4}) refuses integers.
     */
    public ComputeEncoder setInts(int index, int... values) {
        byte[] b = new byte[values.length * Integer.BYTES];
        MemorySegment.copy(values, 0, MemorySegment.ofArray(b), ValueLayout.JAVA_INT_UNALIGNED, 0, values.length);
        return bytes(index, b, Argument.Elements.INTS);
    }

    /** A 4-byte {@code int} (or {@code uint}) by value. */
    public ComputeEncoder setInt(int index, int value) {
        return scalar(index, value & 0xFFFF_FFFFL, Integer.BYTES, false);
    }

    /** An 8-byte {@code long} (or {@code ulong}, {@code size_t}) by value. */
    public ComputeEncoder setLong(int index, long value) {
        return scalar(index, value, Long.BYTES, false);
    }

    /** A 4-byte {@code float} by value. */
    public ComputeEncoder setFloat(int index, float value) {
        return scalar(index, Float.floatToRawIntBits(value) & 0xFFFF_FFFFL, Float.BYTES, true);
    }

    /** An 8-byte {@code double} by value. */
    public ComputeEncoder setDouble(int index, double value) {
        return scalar(index, Double.doubleToRawLongBits(value), Double.BYTES, true);
    }

    /** A 2-byte {@code short} (or {@code half} bits) by value. */
    public ComputeEncoder setShort(int index, short value) {
        return scalar(index, value & 0xFFFFL, Short.BYTES, false);
    }

    /**
     * Threadgroup memory of {@code bytes} for a threadgroup (OpenCL {@code __local}) argument. A
     * length beyond the device's {@link DeviceInfo#maxThreadgroupMemoryLength()} is refused in every
     * validation mode; CHECKED dispatches also check the total of every threadgroup argument and the
     * pipeline's own.
     */
    public ComputeEncoder setThreadgroupMemoryLength(int index, long bytes) {
        owner.ensureOpenForCommands(this);
        if (bytes <= 0) throw new EncodingException(at(index) + ": threadgroup memory needs a positive length, got " + bytes);
        if (bytes > info.maxThreadgroupMemoryLength())
            throw new EncodingException(at(index) + ": threadgroup memory of " + bytes + " bytes is more than this device has: length="
                    + bytes + " expected at most " + info.maxThreadgroupMemoryLength() + " (the device's threadgroup memory)");
        put(index, new Argument.ThreadgroupMemory(bytes));
        return this;
    }

    /**
     * Runs {@code grid} threads in groups of {@code threadgroup}. The grid must be a whole number of
     * threadgroups in every dimension, in every validation mode: a partial group at the edge would
     * run with another group size than the kernel was written for (a reduction in threadgroup memory
     * would compute a wrong result), so it is refused. For any other grid, round the group count up
     * and bounds-check in the kernel:
     *
     * <pre>{@code
     * // kernel: int i = get_global_id(0); if (i < n) ...
     * e.dispatchThreadgroups(Size.threadgroupsCovering(Size.of(n), Size.of(256)), Size.of(256));
     * }</pre>
     *
     * @throws EncodingException when the grid is not a whole number of threadgroups, or either has no threads in a dimension
     */
    public ComputeEncoder dispatchThreads(Size grid, Size threadgroup) {
        return dispatch(grid, threadgroup, true);
    }

    /**
     * Runs {@code threadgroups} groups of {@code threadgroup} threads each.
     *
     * @throws EncodingException when the number of threads in a dimension does not fit a {@code long}
     */
    public ComputeEncoder dispatchThreadgroups(Size threadgroups, Size threadgroup) {
        owner.ensureOpenForCommands(this);
        if (threadgroups == null || threadgroup == null) throw new EncodingException(owner.where() + ": threadgroups and threadgroup are required");
        Size grid = new Size(threads(threadgroups, threadgroup, 0), threads(threadgroups, threadgroup, 1), threads(threadgroups, threadgroup, 2));
        return dispatch(grid, threadgroup, false);
    }

    /** Threadgroups x threadgroup in dimension {@code d}, refused when it does not fit a long. */
    private long threads(Size threadgroups, Size threadgroup, int d) {
        long groups = threadgroups.get(d), group = threadgroup.get(d);
        long product = groups * group;
        if (Math.multiplyHigh(groups, group) != 0 || product < 0)
            throw new EncodingException(dispatchWhere() + ": threadgroups " + threadgroups + " of threadgroup " + threadgroup
                    + " overflow in dimension " + d + ": groups=" + groups + " threadgroup=" + group
                    + " expected at most " + Long.MAX_VALUE + " threads");
        return product;
    }

    /**
     * Later dispatches see the memory writes of earlier ones. Commands of a command buffer run in
     * order on the devices Panamax drives, so this records an explicit barrier for the backend.
     */
    public ComputeEncoder memoryBarrier() {
        owner.ensureOpenForCommands(this);
        owner.add(new Command.Barrier());
        return this;
    }

    /** Ends encoding; the command buffer can then take another encoder or be committed. Idempotent. */
    public void endEncoding() {
        owner.encoderEnded(this);
    }

    /** {@link #endEncoding()}. */
    @Override
    public void close() {
        endEncoding();
    }

    // ------------------------------------------------------------------------------------------

    private ComputeEncoder scalar(int index, long bits, int bytes, boolean floating) {
        owner.ensureOpenForCommands(this);
        put(index, new Argument.ScalarArgument(bits, bytes, floating));
        return this;
    }

    private void put(int index, Argument a) {
        if (index < 0) throw new EncodingException(at(index) + ": negative argument index");
        if (index >= table.length) {
            if (index > 4095) throw new EncodingException(at(index) + ": argument index above 4095");
            table = Arrays.copyOf(table, Math.max(index + 1, table.length * 2));
        }
        table[index] = a;
        if (index > highest) highest = index;
        snapshot = null;
        lastDispatch = null;
    }

    private ComputeEncoder dispatch(Size grid, Size threadgroup, boolean exact) {
        owner.ensureOpenForCommands(this);
        Command.Dispatch last = lastDispatch;
        if (last != null && last.exactGrid() == exact && (last.grid() == grid || last.grid().equals(grid))
                && (last.threadgroup() == threadgroup || last.threadgroup().equals(threadgroup))) {
            owner.add(last); // the same pipeline, arguments and sizes: checked already
            return this;
        }
        if (pipeline == null) throw new EncodingException(owner.where() + ": no pipeline set (setPipeline before dispatching)");
        if (grid == null || threadgroup == null) throw new EncodingException(where() + ": grid and threadgroup are required");
        Argument[] args = snapshot;
        if (args == null) { // the table changed since the last dispatch: snapshot it (and check it) once
            int count = checked ? pipeline.arguments().size() : Math.max(highest + 1, pipeline.arguments().size());
            args = Arrays.copyOf(table, count);
            if (checked) checkArguments(args);
            snapshot = args;
        }
        if (!(grid.equals(checkedGrid) && threadgroup.equals(checkedGroup))) {
            checkWholeGroups(grid, threadgroup);
            if (checked) checkLimits(grid, threadgroup);
            checkedGrid = grid;
            checkedGroup = threadgroup;
        }
        Command.Dispatch d = new Command.Dispatch(pipeline, args, grid, threadgroup, exact);
        owner.add(d);
        lastDispatch = d;
        return this;
    }

    private void checkArguments(Argument[] args) {
        ComputePipeline p = pipeline;
        byte[] accepts = p.accepts;
        long[] sizes = p.valueBytes;
        int n = accepts.length;
        boolean fine = highest < n;
        long threadgroupBytes = 0;
        for (int i = 0; fine && i < n; i++) {
            Argument a = args[i];
            int accepted = accepts[i];
            fine = switch (a) {
                case Argument.BufferArgument b -> (accepted & ComputePipeline.BUFFER) != 0 && !b.buffer().isClosed();
                case Argument.BytesArgument b -> (accepted & ComputePipeline.BUFFER) != 0
                        || ((accepted & ComputePipeline.BYTES) != 0 && (accepted & elementsBit(b.elements())) != 0
                        && fitsValue(sizes[i], b.bytes().length));
                case Argument.ScalarArgument s -> (accepted & (s.floating() ? ComputePipeline.FLOAT : ComputePipeline.INTEGER)) != 0
                        && fitsValue(sizes[i], s.bytes());
                case Argument.ThreadgroupMemory t -> {
                    threadgroupBytes += t.bytes();
                    yield (accepted & ComputePipeline.THREADGROUP) != 0;
                }
                case null -> false;
            };
        }
        if (!fine) refuseArguments(args, p.arguments());
        if (threadgroupBytes > 0 && threadgroupBytes + p.staticThreadgroupMemoryLength() > info.maxThreadgroupMemoryLength())
            refuseThreadgroupMemory(args, threadgroupBytes);
    }

    private static int elementsBit(Argument.Elements elements) {
        return switch (elements) {
            case BYTES -> ComputePipeline.BYTES;
            case INTS -> ComputePipeline.INTS;
            case FLOATS -> ComputePipeline.FLOATS;
        };
    }

    private boolean fitsValue(long expected, long bytes) {
        return (expected < 0 || bytes == expected) && bytes <= info.maxBytesArgument();
    }

    /** Throws the refusal that names the first argument that does not fit. */
    private void refuseArguments(Argument[] args, List<ArgumentInfo> infos) {
        if (highest >= infos.size())
            throw new EncodingException(where() + ": argument " + highest + " is set, but '" + pipeline.name() + "' takes "
                    + infos.size() + " argument" + (infos.size() == 1 ? "" : "s") + " " + names(infos));
        for (ArgumentInfo ai : infos) {
            Argument a = args[ai.index()];
            if (a == null) throw new EncodingException(argument(ai) + " is not set (" + infos.size() + " arguments expected: " + names(infos) + ")");
            switch (ai.addressSpace()) {
                case DEVICE, CONSTANT -> {
                    if (a instanceof Argument.ScalarArgument s)
                        throw new EncodingException(argument(ai) + " takes a buffer, got " + kind(s));
                    if (a instanceof Argument.ThreadgroupMemory)
                        throw new EncodingException(argument(ai) + " takes a buffer, got threadgroup memory");
                    if (a instanceof Argument.BufferArgument b && b.buffer().isClosed())
                        throw new EncodingException(argument(ai) + ": " + b.buffer().describe() + " is closed");
                }
                case THREADGROUP -> {
                    if (!(a instanceof Argument.ThreadgroupMemory))
                        throw new EncodingException(argument(ai) + " is threadgroup memory: give its length with setThreadgroupMemoryLength, got " + kind(a));
                }
                case IMAGE, SAMPLER, OBJECT -> throw new EncodingException(argument(ai) + " is " + switch (ai.addressSpace()) {
                    case IMAGE -> "an image";
                    case SAMPLER -> "a sampler";
                    default -> "an object (a pipe, a device queue, an event)";
                } + ", which the compute API does not bind (it binds buffers, values and threadgroup memory): got " + kind(a)
                        + "; expected a kernel that takes a buffer instead");
                case VALUE, UNKNOWN -> refuseValue(ai, a);
            }
        }
        throw new IllegalStateException(where() + ": the arguments were refused, but no check names one (the quick and the named checks disagree)");
    }

    private void refuseValue(ArgumentInfo ai, Argument a) {
        boolean unknown = ai.addressSpace() == AddressSpace.UNKNOWN;
        if (!unknown && (a instanceof Argument.BufferArgument || a instanceof Argument.ThreadgroupMemory))
            throw new EncodingException(argument(ai) + " takes a value" + (ai.valueBytes() >= 0 ? " of " + ai.valueBytes() + " bytes" : "")
                    + ", got " + kind(a));
        if (a instanceof Argument.BufferArgument b && b.buffer().isClosed())
            throw new EncodingException(argument(ai) + ": " + b.buffer().describe() + " is closed");
        if (a instanceof Argument.ScalarArgument s && !unknown) {
            boolean fits = switch (ai.valueType()) {
                case INTEGER, HALF -> !s.floating();
                case FLOAT -> s.floating();
                case VECTOR -> false;
                case OTHER, NONE -> true;
            };
            if (!fits)
                throw new EncodingException(argument(ai) + " takes " + expectedValue(ai) + ", got " + kind(s));
        }
        if (a instanceof Argument.BytesArgument b && !unknown && b.elements() != Argument.Elements.BYTES) {
            int accepted = ComputePipeline.accepts(ai);
            if ((accepted & ComputePipeline.BYTES) != 0 && (accepted & elementsBit(b.elements())) == 0)
                throw new EncodingException(argument(ai) + " takes " + expectedValue(ai) + ", got " + kind(b));
        }
        long n = a.valueBytes();
        if (n < 0) return;
        if (ai.valueBytes() >= 0 && n != ai.valueBytes())
            throw new EncodingException(argument(ai) + " takes " + ai.valueBytes() + " bytes, got " + n + " (expected " + expectedValue(ai) + ")");
        if (n > info.maxBytesArgument())
            throw new EncodingException(argument(ai) + ": " + n + " bytes by value is more than this device takes ("
                    + info.maxBytesArgument() + "); declare it as a pointer and setBytes will pass a transient buffer");
    }

    private static String expectedValue(ArgumentInfo ai) {
        return switch (ai.valueType()) {
            case INTEGER -> "an integer: setInt, setLong or setShort of its size, or setBytes or setInts";
            case FLOAT -> "a floating-point value: setFloat or setDouble of its size, or setBytes or setFloats";
            case HALF -> "a half: setShort with its bits, or setBytes";
            case VECTOR -> "a vector: setBytes, or " + (ComputePipeline.floatingElements(ai) ? "setFloats" : "setInts") + " of its size";
            case OTHER, NONE -> "a value: setBytes of its size";
        };
    }

    private void refuseThreadgroupMemory(Argument[] args, long threadgroupBytes) {
        StringBuilder each = new StringBuilder();
        for (int i = 0; i < args.length; i++) {
            if (args[i] instanceof Argument.ThreadgroupMemory t)
                each.append(each.isEmpty() ? "" : ", ").append(pipeline.arguments().get(i).describe()).append('=').append(t.bytes());
        }
        throw new EncodingException(where() + ": threadgroup memory of " + threadgroupBytes + " bytes for the arguments [" + each
                + "] plus the " + pipeline.staticThreadgroupMemoryLength() + " bytes '" + pipeline.name()
                + "' declares itself is more than this device has: expected at most " + info.maxThreadgroupMemoryLength() + " bytes in all");
    }

    /** Checked in every validation mode (cheap, and only when the sizes change): no empty dimension, whole threadgroups. */
    private void checkWholeGroups(Size grid, Size group) {
        for (int d = 0; d < 3; d++) {
            long threads = grid.get(d), size = group.get(d);
            if (threads == 0) throw new EncodingException(where() + ": grid " + grid + " has no threads in dimension " + d);
            if (size == 0) throw new EncodingException(where() + ": threadgroup " + group + " has no threads in dimension " + d);
            if (threads % size != 0)
                throw new EncodingException(where() + ": grid " + grid + " is not a whole number of threadgroups " + group
                        + " in dimension " + d + " (grid=" + threads + " threadgroup=" + size + " remainder=" + threads % size
                        + "); a partial threadgroup would run with another group size. Round the group count up and bounds-check"
                        + " in the kernel: dispatchThreadgroups(Size.threadgroupsCovering(grid, threadgroup), threadgroup)"
                        + " with if (i < n) in the kernel");
        }
    }

    private void checkLimits(Size grid, Size group) {
        Size max = info.maxGridSize();
        for (int d = 0; d < 3; d++) {
            if (grid.get(d) > max.get(d))
                throw new EncodingException(where() + ": grid " + grid + " is beyond this device's limit " + max + " in dimension " + d);
        }
        long limit = Math.min(pipeline.maxThreadsPerThreadgroup(), info.maxThreadsPerThreadgroup());
        long threads = threads(group);
        if (threads > limit)
            throw new EncodingException(where() + ": threadgroup " + group + " has " + (threads == Long.MAX_VALUE ? "more than " + Long.MAX_VALUE : threads)
                    + " threads, more than '" + pipeline.name() + "' can run (" + limit + ")");
    }

    /** The threads of a threadgroup, or Long.MAX_VALUE when that does not fit a long. */
    private static long threads(Size group) {
        try {
            return group.count();
        } catch (ArithmeticException tooMany) {
            return Long.MAX_VALUE;
        }
    }

    /** {@code command buffer #3 command 2 (dispatch 'scale'): argument 1 'factor' (float)}: made only for a message. */
    private String argument(ArgumentInfo ai) {
        return where() + ": argument " + ai.describe();
    }

    private static String kind(Argument a) {
        return switch (a) {
            case Argument.BufferArgument b -> b.buffer().describe();
            case Argument.ScalarArgument s -> "a " + s.bytes() + "-byte " + (s.floating() ? "floating-point" : "integer") + " value ("
                    + setter(s) + ")";
            case Argument.BytesArgument b -> switch (b.elements()) {
                case BYTES -> b.bytes().length + " bytes";
                case INTS -> b.bytes().length / Integer.BYTES + " integers (setInts)";
                case FLOATS -> b.bytes().length / Float.BYTES + " floats (setFloats)";
            };
            case Argument.ThreadgroupMemory t -> "threadgroup memory";
        };
    }

    private static String setter(Argument.ScalarArgument s) {
        return switch (s.bytes()) {
            case 2 -> "setShort";
            case 4 -> s.floating() ? "setFloat" : "setInt";
            default -> s.floating() ? "setDouble" : "setLong";
        };
    }

    private static String names(List<ArgumentInfo> infos) {
        StringBuilder b = new StringBuilder("[");
        for (ArgumentInfo ai : infos) b.append(ai.index() == 0 ? "" : ", ").append(ai.index()).append(" '").append(ai.name()).append('\'');
        return b.append(']').toString();
    }

    private String where() {
        return owner.where() + " (dispatch '" + pipeline.name() + "')";
    }

    /** {@link #where()}, or the command buffer's place when no pipeline is set yet. */
    private String dispatchWhere() {
        return pipeline == null ? owner.where() : where();
    }

    private String at(int index) {
        if (pipeline == null) return owner.where() + ", argument " + index;
        List<ArgumentInfo> infos = pipeline.arguments();
        return owner.where() + " (pipeline '" + pipeline.name() + "'), argument "
                + (index >= 0 && index < infos.size() ? infos.get(index).describe() : Integer.toString(index));
    }
}
