package dev.panamax.core.batch;

import dev.panamax.core.abi.CType;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * One recorded call of a {@link Batch}: its arguments ({@link #params()}) and, after a run, its
 * result: the returned register through {@code result*()}, or an FP/struct/union result in
 * {@code params().returnSlot()}.
 */
public final class BatchEntry {
    private final Batch batch;
    private final int index;
    private final Thunk thunk;
    private final ParamBlock params;
    private final ValueKind resultKind;
    private StatusRule status;

    BatchEntry(Batch batch, int index, Thunk thunk, ParamBlock params) {
        this.batch = batch;
        this.index = index;
        this.thunk = thunk;
        this.params = params;
        CType ret = thunk.plan().type().returns();
        this.resultKind = CType.isRegisterScalar(ret) ? ValueKind.of(ret) : null;
    }

    /** Position in the batch. */
    public int index() {
        return index;
    }

    /** The function this entry calls. */
    public Thunk thunk() {
        return thunk;
    }

    /** The entry's parameter block: write arguments here before a run, read a slot result after. */
    public ParamBlock params() {
        return params;
    }

    /** Checks this entry's result with {@code rule} at every run (replacing the thunk's own rule); null to stop checking. */
    public BatchEntry expectStatus(StatusRule rule) {
        if (rule != null && resultKind == null) throw BatchErrors.statusNeedsRegisterInteger(thunk.name(), thunk.plan().type().returns());
        writeFlags(rule);
        return this;
    }

    /** The status rule checked at each run, or null. */
    public StatusRule statusRule() {
        return status;
    }

    /** The raw return register of the last run: the low bytes (the result type's width) hold the result, the rest is unspecified. */
    public long resultRaw() {
        if (resultKind == null) throw BatchErrors.noRegisterResult(thunk.name(), thunk.plan().type().returns());
        if (index >= batch.ranInLastRun()) throw BatchErrors.notRun(index, batch.ranInLastRun());
        return batch.buffer().get(ValueLayout.JAVA_LONG, (long) index * BatchNative.ENTRY_SIZE + BatchNative.RESULT);
    }

    public boolean resultBoolean() {
        return (result(ValueKind.BOOLEAN) & 0xff) != 0;
    }

    public byte resultByte() {
        return (byte) result(ValueKind.BYTE);
    }

    public short resultShort() {
        return (short) result(ValueKind.SHORT);
    }

    public int resultInt() {
        return (int) result(ValueKind.INT);
    }

    public long resultLong() {
        return result(ValueKind.LONG);
    }

    public MemorySegment resultAddress() {
        return MemorySegment.ofAddress(result(ValueKind.ADDRESS));
    }

    /** The result as a status value: sign-extended for signed integers, zero-extended otherwise. */
    long status() {
        return extend(resultRaw());
    }

    private long extend(long raw) {
        CType ret = thunk.plan().type().returns();
        int bits = 8 * ret.size();
        if (bits >= 64) return raw;
        boolean signed = ret instanceof CType.Scalar s && s.kind().isSigned();
        long shifted = raw << (64 - bits);
        return signed ? shifted >> (64 - bits) : shifted >>> (64 - bits);
    }

    private long result(ValueKind asked) {
        if (resultKind != null && resultKind != asked) {
            throw new IllegalArgumentException("result type mismatch: function=" + thunk.name() + " returns="
                    + thunk.plan().type().returns() + " is " + resultKind.description + ", not " + asked.description);
        }
        return resultRaw();
    }

    void writeFlags(StatusRule rule) {
        this.status = rule;
        int flags = params.passesByValue() ? BatchNative.BY_VALUE : 0;
        long low = 0;
        long high = 0;
        if (rule != null) {
            CType ret = thunk.plan().type().returns();
            flags |= BatchNative.CHECK | (ret.size() << 8);
            if (ret instanceof CType.Scalar s && s.kind().isSigned()) flags |= BatchNative.SIGNED;
            if (rule.successInRange()) flags |= BatchNative.SUCCESS_INSIDE;
            low = rule.low();
            high = rule.high();
        }
        long base = (long) index * BatchNative.ENTRY_SIZE;
        MemorySegment buf = batch.buffer();
        buf.set(ValueLayout.JAVA_INT, base + BatchNative.FLAGS, flags);
        buf.set(ValueLayout.JAVA_INT, base + BatchNative.FLAGS + 4, 0);
        buf.set(ValueLayout.JAVA_LONG, base + BatchNative.LOW, low);
        buf.set(ValueLayout.JAVA_LONG, base + BatchNative.HIGH, high);
    }

    @Override
    public String toString() {
        return "BatchEntry[index=" + index + " function=" + thunk.name() + " leaf=" + thunk.plan().leaf() + "]";
    }
}
