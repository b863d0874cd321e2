package dev.panamax.core.call;

import java.lang.foreign.AddressLayout;
import java.lang.foreign.GroupLayout;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.ArrayList;
import java.util.List;

import static java.lang.invoke.MethodType.methodType;

/**
 * Turns a {@link LinkRequest} into the method handle users call: the linker's downcall handle,
 * adapted with method-handle combinators only (so the JIT sees through every layer) for errno
 * capture, the heap-memory check and Java array parameters.
 *
 * <p>Plan: validate (pure, at declaration) → link (the native linker, at first call) → adapt:
 * errno state folded in and the result checked; pointer parameters of tiers that refuse heap memory
 * guarded for a clear error; array parameters viewed in place ({@link Tier#acceptsHeapMemory()})
 * or staged through a {@link ScratchStack} frame opened before and closed after the call.
 */
final class Downcalls {
    private static final Linker LINKER = Linker.nativeLinker();
    private static final MethodHandle PUSH_FRAME;
    private static final MethodHandle STAGE;
    private static final MethodHandle CLOSE_AFTER_CALL;
    private static final MethodHandle ERRNO_STATE;
    private static final MethodHandle REFUSE_HEAP;

    static {
        MethodHandles.Lookup l = MethodHandles.lookup();
        try {
            PUSH_FRAME = l.findStatic(ScratchStack.class, "push", methodType(ScratchStack.Frame.class));
            STAGE = l.findVirtual(ScratchStack.Frame.class, "stage",
                    methodType(MemorySegment.class, Object.class, ArrayType.class, Direction.class));
            CLOSE_AFTER_CALL = l.findStatic(ScratchStack.Frame.class, "closeAfterCall",
                    methodType(void.class, Throwable.class, ScratchStack.Frame.class));
            ERRNO_STATE = l.findStatic(Errno.class, "state", methodType(MemorySegment.class));
            REFUSE_HEAP = l.findStatic(Downcalls.class, "refuseHeap",
                    methodType(MemorySegment.class, HeapGuard.class, MemorySegment.class));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private Downcalls() {}

    /** Checks what can be checked without linking; throws {@link NativeLinkException} naming the problem. */
    static void validate(LinkRequest r) {
        String symbol = r.symbol();
        if (symbol == null || symbol.isBlank()) throw NativeLinkException.invalidDeclaration(String.valueOf(symbol), "empty symbol name");
        Signature s = r.signature();
        s.returnLayout().ifPresent(layout -> requirePassable(symbol, "return", layout));
        for (int i = 0; i < s.params().size(); i++) {
            if (s.params().get(i) instanceof Param.Value v) requirePassable(symbol, "parameter " + i, v.layout());
        }
        Class<?> ret = s.javaType().returnType();
        if (!r.errnoCheck().accepts(ret)) {
            throw NativeLinkException.invalidDeclaration(symbol, "errno check " + r.errnoCheck()
                    + " cannot judge a result of type " + ret.getSimpleName()
                    + (r.errnoCheck() == ErrnoCheck.RETURNS_NULL ? " (expected a pointer result)" : " (expected an integral result)"));
        }
    }

    private static void requirePassable(String symbol, String where, MemoryLayout layout) {
        if (!(layout instanceof ValueLayout) && !(layout instanceof GroupLayout)) {
            throw NativeLinkException.invalidDeclaration(symbol, where + " has layout " + layout
                    + "; expected a value layout (JAVA_INT, ADDRESS, ...) or a struct/union layout");
        }
    }

    /** Links {@code r} to the function at {@code address} and adapts it. */
    static MethodHandle link(String library, MemorySegment address, LinkRequest r) {
        Signature s = r.signature();
        List<Linker.Option> options = new ArrayList<>(r.tier().linkerOptions());
        boolean errno = r.errnoCheck() != ErrnoCheck.NONE;
        if (errno) options.add(Linker.Option.captureCallState("errno"));
        MethodHandle h;
        try {
            h = LINKER.downcallHandle(address, s.nativeDescriptor(), options.toArray(Linker.Option[]::new));
        } catch (IllegalArgumentException | UnsupportedOperationException e) {
            throw NativeLinkException.linkFailed(library, r.symbol(), s, r.tier(), e);
        }
        int first = s.firstParamPosition();
        if (errno) {
            h = MethodHandles.foldArguments(h, first, ERRNO_STATE);
            h = MethodHandles.filterReturnValue(h, ErrnoFilters.filter(h.type().returnType(), r.errnoCheck(), r.symbol()));
        }
        if (!r.tier().acceptsHeapMemory()) h = guardHeapPointers(h, r);
        h = adaptArrays(h, r);
        return h.asType(s.javaType());
    }

    // ------------------------------------------------------------------ heap memory at tiers that refuse it

    record HeapGuard(String symbol, Tier tier, int parameter) {}

    /**
     * Checks every pointer argument before the linker sees it, so that heap memory is refused with a
     * {@link HeapMemoryException} naming the function and the parameter. A filter per pointer, not a
     * handler around the call: an exception handler made the compiled call too big for C2 to inline
     * into the generated method that wraps it, which cost ~7 ns per call of a nine-argument function.
     */
    private static MethodHandle guardHeapPointers(MethodHandle h, LinkRequest r) {
        List<Param> params = r.signature().params();
        int first = r.signature().firstParamPosition();
        for (int i = 0; i < params.size(); i++) {
            if (params.get(i) instanceof Param.Value v && v.layout() instanceof AddressLayout) {
                h = MethodHandles.filterArguments(h, first + i, REFUSE_HEAP.bindTo(new HeapGuard(r.symbol(), r.tier(), i)));
            }
        }
        return h;
    }

    /** {@code segment} as it is, unless it is heap memory. Null passes: the linker refuses it with its own message. */
    private static MemorySegment refuseHeap(HeapGuard g, MemorySegment segment) {
        if (segment != null && !segment.isNative()) {
            throw new HeapMemoryException(g.symbol(), g.parameter(), g.tier(), segment);
        }
        return segment;
    }

    // ------------------------------------------------------------------ Java array parameters

    private static MethodHandle adaptArrays(MethodHandle h, LinkRequest r) {
        List<Param> params = r.signature().params();
        int first = r.signature().firstParamPosition();
        List<Integer> positions = new ArrayList<>();
        for (int i = 0; i < params.size(); i++) {
            if (params.get(i) instanceof Param.Array) positions.add(first + i);
        }
        if (positions.isEmpty()) return h;
        if (r.tier().acceptsHeapMemory()) {
            for (int pos : positions) {
                Param.Array a = (Param.Array) params.get(pos - first);
                h = MethodHandles.filterArguments(h, pos, heapView(a.type()));
            }
            return h;
        }
        return stageArrays(h, positions, params, first);
    }

    private static MethodHandle heapView(ArrayType type) {
        try {
            return MethodHandles.lookup().findStatic(HeapArrays.class, "of", methodType(MemorySegment.class, type.arrayClass()));
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("no heap view for " + type, e);
        }
    }

    /**
     * (a0.., MemorySegment at each array position, ..)R becomes (a0.., T[] at each array position, ..)R:
     * open a frame, stage every array into it, call, copy out/inout arrays back, close the frame
     * (also when the call throws).
     */
    private static MethodHandle stageArrays(MethodHandle target, List<Integer> positions, List<Param> params, int first) {
        MethodHandle h = target;
        for (int k = positions.size() - 1; k >= 0; k--) {
            int pos = positions.get(k);
            Param.Array a = (Param.Array) params.get(pos - first);
            MethodHandle stage = MethodHandles.insertArguments(STAGE, 2, a.type(), a.direction())
                    .asType(methodType(MemorySegment.class, ScratchStack.Frame.class, a.type().arrayClass()));
            h = MethodHandles.collectArguments(h, pos, stage); // param pos becomes (Frame, T[])
        }
        // merge the per-array Frame parameters into one leading Frame parameter
        MethodType original = target.type();
        MethodType withArrays = original;
        for (int pos : positions) {
            Param.Array a = (Param.Array) params.get(pos - first);
            withArrays = withArrays.changeParameterType(pos, a.type().arrayClass());
        }
        MethodType framed = withArrays.insertParameterTypes(0, ScratchStack.Frame.class);
        int[] reorder = new int[h.type().parameterCount()];
        int j = 0;
        for (int i = 0; i < original.parameterCount(); i++) {
            if (positions.contains(i)) reorder[j++] = 0;
            reorder[j++] = i + 1;
        }
        h = MethodHandles.permuteArguments(h, framed, reorder);

        Class<?> ret = original.returnType();
        MethodHandle cleanup = ret == void.class ? CLOSE_AFTER_CALL
                : MethodHandles.foldArguments(
                        MethodHandles.dropArguments(MethodHandles.dropArguments(MethodHandles.identity(ret), 0, Throwable.class),
                                2, ScratchStack.Frame.class),
                        0, MethodHandles.dropArguments(CLOSE_AFTER_CALL, 1, ret));
        h = MethodHandles.tryFinally(h, cleanup);
        return MethodHandles.foldArguments(h, 0, PUSH_FRAME);
    }
}
