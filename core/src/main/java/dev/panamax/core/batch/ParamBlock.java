package dev.panamax.core.batch;

import dev.panamax.core.abi.BlockLayout;
import dev.panamax.core.abi.CFunctionType;
import dev.panamax.core.abi.Classification;
import dev.panamax.core.abi.Mode;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.ValueLayout;

/**
 * The memory a MetaABI thunk reads its arguments from and writes an FP or struct/union result to,
 * laid out as the function's {@link Classification} planned it. Parameters are addressed by index
 * (or {@link #indexOf(String) name}); each accessor checks the parameter's C type, so writing a
 * double into an {@code int32_t} slot is an error, not a silent reinterpretation.
 *
 * <pre>{@code
 * ParamBlock b = ParamBlock.allocate(MetaAbi.classify(type), arena); // int32_t add(int32_t a, int32_t b)
 * b.setInt(0, 2).setInt(1, 40);
 * long r = thunk.invoke(b);                                            // 42 in the return register
 * }</pre>
 *
 * In VOID_PTR mode the block is one {@code void *}-sized cell whose value is passed as {@code param};
 * in STRUCT mode its address is. Not thread-safe.
 */
public final class ParamBlock {
    private static final ValueLayout.OfLong CELL = ValueLayout.JAVA_LONG;

    private final Classification plan;
    private final Storage storage;
    private final long base;
    private final int[] offsets;
    private final int[] sizes;
    private final ValueKind[] kinds;

    /**
     * The memory blocks live in. A batch shares one among all its blocks and swaps in a larger
     * segment when recording outgrows it, so accessors read {@code segment} at every access.
     */
    static final class Storage {
        MemorySegment segment;

        Storage(MemorySegment segment) {
            this.segment = segment;
        }
    }

    ParamBlock(Classification plan, Storage storage, long base) {
        this(plan, storage, base, Shape.of(plan));
    }

    /** A block whose parameters' offsets, sizes and kinds were worked out once for its plan (a batch reuses them per function). */
    ParamBlock(Classification plan, Storage storage, long base, Shape shape) {
        this.plan = plan;
        this.storage = storage;
        this.base = base;
        this.offsets = shape.offsets;
        this.sizes = shape.sizes;
        this.kinds = shape.kinds;
    }

    /** Where each parameter of a plan sits, how large it is and its kind; shared, never written after it is made. */
    static final class Shape {
        final int[] offsets;
        final int[] sizes;
        final ValueKind[] kinds;

        private Shape(int[] offsets, int[] sizes, ValueKind[] kinds) {
            this.offsets = offsets;
            this.sizes = sizes;
            this.kinds = kinds;
        }

        static Shape of(Classification plan) {
            BlockLayout block = plan.block();
            int n = block.params().size();
            int[] offsets = new int[n];
            int[] sizes = new int[n];
            ValueKind[] kinds = new ValueKind[n];
            for (int i = 0; i < n; i++) {
                offsets[i] = block.params().get(i).offset();
                sizes[i] = block.params().get(i).size();
                kinds[i] = ValueKind.of(plan.type().params().get(i).type());
            }
            return new Shape(offsets, sizes, kinds);
        }
    }

    /** A zeroed block for {@code plan}, allocated with its planned size and alignment. */
    public static ParamBlock allocate(Classification plan, SegmentAllocator allocator) {
        BlockLayout b = plan.block();
        MemorySegment s = b.size() == 0 ? MemorySegment.NULL : allocator.allocate(b.size(), b.align());
        if (b.size() != 0) s.fill((byte) 0);
        return new ParamBlock(plan, new Storage(s), 0);
    }

    /** A block over existing memory, which must be at least the planned size and suitably aligned. */
    public static ParamBlock wrap(Classification plan, MemorySegment segment) {
        BlockLayout b = plan.block();
        if (b.size() == 0) return new ParamBlock(plan, new Storage(MemorySegment.NULL), 0);
        if (segment.byteSize() < b.size() || segment.address() % b.align() != 0) {
            throw BatchErrors.badBlockMemory(segment, b);
        }
        return new ParamBlock(plan, new Storage(segment.asSlice(0, b.size())), 0);
    }

    /** The plan this block follows. */
    public Classification plan() {
        return plan;
    }

    /**
     * The block's memory ({@link MemorySegment#NULL} when the plan needs none). For a batch entry,
     * this slice (like {@link #param} and {@link #returnSlot}) stays valid until the batch records
     * another call, which may move the argument area; the setters and getters always reach the
     * current memory.
     */
    public MemorySegment segment() {
        int size = plan.block().size();
        return size == 0 ? MemorySegment.NULL : storage.segment.asSlice(base, size);
    }

    /**
     * Where parameter {@code index} starts, in bytes from the start of the memory the block lives in:
     * {@link #segment()} for a lone block, {@link Batch#arguments()} for a batch entry. Lets a caller
     * write many entries' arguments through one segment.
     */
    public long offsetOf(int index) {
        return base + offsets[check(index)];
    }

    /**
     * The value to pass as the thunk's {@code param}: NULL in VOID mode (and VOID_PTR without
     * parameter), the cell's value in VOID_PTR mode, the block's address in STRUCT mode.
     */
    public MemorySegment argument() {
        return switch (plan.mode()) {
            case VOID -> MemorySegment.NULL;
            case VOID_PTR -> offsets.length == 0 ? MemorySegment.NULL : MemorySegment.ofAddress(storage.segment.get(CELL, base));
            case STRUCT -> segment();
        };
    }

    /** True when the thunk reads the cell's value (VOID_PTR with a parameter) rather than the block's address. */
    boolean passesByValue() {
        return plan.mode() == Mode.VOID_PTR && offsets.length == 1;
    }

    /** Number of parameters. */
    public int parameterCount() {
        return offsets.length;
    }

    /** The index of the parameter called {@code name}. */
    public int indexOf(String name) {
        var ps = plan.type().params();
        for (int i = 0; i < ps.size(); i++) if (ps.get(i).name().equals(name)) return i;
        throw BatchErrors.noSuchParameter(name, plan.type());
    }

    /** Parameter {@code index}'s slot, to write a struct or union field by field. */
    public MemorySegment param(int index) {
        return storage.segment.asSlice(base + offsets[check(index)], sizes[index]);
    }

    public ParamBlock setBoolean(int index, boolean v) {
        storage.segment.set(ValueLayout.JAVA_BOOLEAN, offset(index, ValueKind.BOOLEAN), v);
        return this;
    }

    public ParamBlock setByte(int index, byte v) {
        storage.segment.set(ValueLayout.JAVA_BYTE, offset(index, ValueKind.BYTE), v);
        return this;
    }

    public ParamBlock setShort(int index, short v) {
        storage.segment.set(ValueLayout.JAVA_SHORT, offset(index, ValueKind.SHORT), v);
        return this;
    }

    public ParamBlock setInt(int index, int v) {
        storage.segment.set(ValueLayout.JAVA_INT, offset(index, ValueKind.INT), v);
        return this;
    }

    public ParamBlock setLong(int index, long v) {
        storage.segment.set(ValueLayout.JAVA_LONG, offset(index, ValueKind.LONG), v);
        return this;
    }

    public ParamBlock setFloat(int index, float v) {
        storage.segment.set(ValueLayout.JAVA_FLOAT, offset(index, ValueKind.FLOAT), v);
        return this;
    }

    public ParamBlock setDouble(int index, double v) {
        storage.segment.set(ValueLayout.JAVA_DOUBLE, offset(index, ValueKind.DOUBLE), v);
        return this;
    }

    public ParamBlock setAddress(int index, MemorySegment v) {
        storage.segment.set(ValueLayout.ADDRESS, offset(index, ValueKind.ADDRESS), v);
        return this;
    }

    /** Copies {@code value} (exactly the parameter's size) into parameter {@code index}: structs, unions, f80, or any raw bytes. */
    public ParamBlock set(int index, MemorySegment value) {
        check(index);
        if (value.byteSize() != sizes[index]) throw BatchErrors.sizeMismatch(index, plan.type(), sizes[index], value.byteSize());
        MemorySegment.copy(value, 0, storage.segment, base + offsets[index], sizes[index]);
        return this;
    }

    public boolean getBoolean(int index) {
        return storage.segment.get(ValueLayout.JAVA_BOOLEAN, offset(index, ValueKind.BOOLEAN));
    }

    public byte getByte(int index) {
        return storage.segment.get(ValueLayout.JAVA_BYTE, offset(index, ValueKind.BYTE));
    }

    public short getShort(int index) {
        return storage.segment.get(ValueLayout.JAVA_SHORT, offset(index, ValueKind.SHORT));
    }

    public int getInt(int index) {
        return storage.segment.get(ValueLayout.JAVA_INT, offset(index, ValueKind.INT));
    }

    public long getLong(int index) {
        return storage.segment.get(ValueLayout.JAVA_LONG, offset(index, ValueKind.LONG));
    }

    public float getFloat(int index) {
        return storage.segment.get(ValueLayout.JAVA_FLOAT, offset(index, ValueKind.FLOAT));
    }

    public double getDouble(int index) {
        return storage.segment.get(ValueLayout.JAVA_DOUBLE, offset(index, ValueKind.DOUBLE));
    }

    public MemorySegment getAddress(int index) {
        return storage.segment.get(ValueLayout.ADDRESS, offset(index, ValueKind.ADDRESS));
    }

    /**
     * Checks recorded arguments against {@code plan} before anything is written: their count, and
     * for each one its Java type ({@link ValueKind#accepts}), that a pointer is native memory and that
     * a struct, union or long double has exactly the type's size.
     */
    static void checkArguments(String function, Classification plan, Object[] args) {
        CFunctionType t = plan.type();
        if (args.length != t.params().size()) throw BatchErrors.argumentCount(function, t, args.length);
        for (int i = 0; i < args.length; i++) {
            ValueKind kind = ValueKind.of(t.params().get(i).type());
            Object v = args[i];
            if (!kind.accepts(v)) throw BatchErrors.argumentType(function, t, i, kind, v);
            if (kind == ValueKind.ADDRESS && v instanceof MemorySegment s && !s.isNative()) {
                throw BatchErrors.heapArgument(function, t, i, s);
            }
            if (kind == ValueKind.BYTES && ((MemorySegment) v).byteSize() != plan.block().params().get(i).size()) {
                throw BatchErrors.sizeMismatch(i, t, plan.block().params().get(i).size(), ((MemorySegment) v).byteSize());
            }
        }
    }

    /** Writes argument {@code index}, already {@linkplain #checkArguments checked}. */
    void setArgument(int index, Object v) {
        switch (kinds[index]) {
            case BOOLEAN -> setBoolean(index, (Boolean) v);
            case BYTE -> setByte(index, (Byte) v);
            case SHORT -> setShort(index, ((Number) v).shortValue());
            case INT -> setInt(index, ((Number) v).intValue());
            case LONG -> setLong(index, ((Number) v).longValue());
            case FLOAT -> setFloat(index, (Float) v);
            case DOUBLE -> setDouble(index, ((Number) v).doubleValue());
            case ADDRESS -> setAddress(index, v == null ? MemorySegment.NULL : (MemorySegment) v);
            case BYTES -> set(index, (MemorySegment) v);
        }
    }

    /** The return slot (FP or struct/union return), to read a struct result field by field. */
    public MemorySegment returnSlot() {
        BlockLayout.Slot slot = plan.block().returnSlot();
        if (slot == null) throw BatchErrors.noReturnSlot(plan.type());
        return storage.segment.asSlice(base + slot.offset(), slot.size());
    }

    /** The f32 result in the return slot. */
    public float returnFloat() {
        return returnSlot(ValueKind.FLOAT).get(ValueLayout.JAVA_FLOAT, 0);
    }

    /** The f64 result in the return slot. */
    public double returnDouble() {
        return returnSlot(ValueKind.DOUBLE).get(ValueLayout.JAVA_DOUBLE, 0);
    }

    private MemorySegment returnSlot(ValueKind expected) {
        MemorySegment s = returnSlot();
        ValueKind actual = ValueKind.of(plan.type().returns());
        if (actual != expected) throw BatchErrors.wrongReturnKind(plan.type(), actual, expected);
        return s;
    }

    private int check(int index) {
        if (index < 0 || index >= offsets.length) throw BatchErrors.badIndex(index, plan.type());
        return index;
    }

    private long offset(int index, ValueKind expected) {
        if (index < 0 || index >= offsets.length) throw BatchErrors.badIndex(index, plan.type());
        if (kinds[index] != expected) throw BatchErrors.wrongKind(index, plan.type(), kinds[index], expected);
        return base + offsets[index];
    }

    @Override
    public String toString() {
        return "ParamBlock[mode=" + plan.mode() + " leaf=" + plan.leaf() + " size=" + plan.block().size() + "]";
    }

    static String describe(CFunctionType t) {
        return t.params().stream().map(p -> p.name()).toList().toString();
    }
}
