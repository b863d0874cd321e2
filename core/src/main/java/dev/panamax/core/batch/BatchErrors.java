package dev.panamax.core.batch;

import dev.panamax.core.abi.BlockLayout;
import dev.panamax.core.abi.CFunctionType;

import java.lang.foreign.MemorySegment;

/** Exceptions of the batch package, with key=value details. */
final class BatchErrors {
    private BatchErrors() {}

    static IndexOutOfBoundsException badIndex(int index, CFunctionType t) {
        return new IndexOutOfBoundsException("no such parameter: index=" + index + " count=" + t.params().size()
                + " params=" + ParamBlock.describe(t));
    }

    static IllegalArgumentException noSuchParameter(String name, CFunctionType t) {
        return new IllegalArgumentException("no such parameter: name=" + name + " params=" + ParamBlock.describe(t));
    }

    static IllegalArgumentException wrongKind(int index, CFunctionType t, ValueKind actual, ValueKind asked) {
        var p = t.params().get(index);
        return new IllegalArgumentException("parameter type mismatch: index=" + index + " name=" + p.name()
                + " type=" + p.type() + " is " + actual.description + ", not " + asked.description);
    }

    static IllegalArgumentException wrongReturnKind(CFunctionType t, ValueKind actual, ValueKind asked) {
        return new IllegalArgumentException("return type mismatch: type=" + t.returns() + " is " + actual.description
                + ", not " + asked.description);
    }

    static IllegalArgumentException sizeMismatch(int index, CFunctionType t, int expected, long actual) {
        return new IllegalArgumentException("value size mismatch: index=" + index + " name=" + t.params().get(index).name()
                + " expected=" + expected + " actual=" + actual);
    }

    static IllegalArgumentException argumentCount(String function, CFunctionType t, int actual) {
        return new IllegalArgumentException("wrong argument count: function=" + function + " expected="
                + t.params().size() + " actual=" + actual + " params=" + ParamBlock.describe(t));
    }

    static IllegalArgumentException argumentType(String function, CFunctionType t, int index, ValueKind kind, Object v) {
        var p = t.params().get(index);
        return new IllegalArgumentException("argument type mismatch: function=" + function + " index=" + index
                + " name=" + p.name() + " type=" + kind.description + " expected=" + kind.boxes
                + " actual=" + (v == null ? "null" : v.getClass().getSimpleName()));
    }

    static IllegalArgumentException heapArgument(String function, CFunctionType t, int index, MemorySegment s) {
        return new IllegalArgumentException("heap memory cannot be recorded: function=" + function + " index=" + index
                + " name=" + t.params().get(index).name() + " segment=" + s
                + " (a batch stores the pointer and runs later, when heap memory may have moved; pass native memory)");
    }

    static IllegalStateException noReturnSlot(CFunctionType t) {
        return new IllegalStateException("no return slot: returns=" + t.returns()
                + " (only FP and struct/union results use the slot; others come back in the register)");
    }

    static IllegalArgumentException badBlockMemory(MemorySegment s, BlockLayout b) {
        return new IllegalArgumentException("memory too small or misaligned for the block: size=" + s.byteSize()
                + " address=0x" + Long.toHexString(s.address()) + " needed.size=" + b.size() + " needed.align=" + b.align());
    }

    static IllegalArgumentException notCritical(String function) {
        return new IllegalArgumentException("function is not declared critical: function=" + function
                + " batchMode=CRITICAL (a CRITICAL batch may only hold short functions that never block and never"
                + " call back into Java; run it in a STANDARD batch, or declare it critical if it is)");
    }

    static IllegalArgumentException statusNeedsRegisterInteger(String function, Object returns) {
        return new IllegalArgumentException("status check needs an integer, bool or pointer return: function="
                + function + " returns=" + returns);
    }

    static IllegalStateException closed() {
        return new IllegalStateException("batch is closed");
    }

    static IllegalStateException notRun(int index, int ran) {
        return new IllegalStateException("entry has no result: index=" + index + " ranInLastRun=" + ran
                + " (not run yet, or after the entry that failed)");
    }

    static IllegalStateException noRegisterResult(String function, Object returns) {
        return new IllegalStateException("no register result: function=" + function + " returns=" + returns
                + " (read FP and struct/union results from params().returnSlot())");
    }

    static IllegalArgumentException symbolNotFound(String thunk, String function) {
        return new IllegalArgumentException("thunk symbol not found: symbol=" + thunk + " function=" + function
                + " (generate the thunks with panamax bindgen and link them into the library)");
    }
}
