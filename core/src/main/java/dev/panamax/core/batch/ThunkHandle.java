package dev.panamax.core.batch;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * The one downcall handle that serves every MetaABI thunk: {@code (ADDRESS thunk, ADDRESS param) -> ADDRESS}.
 * FFM calls the thunk pointer given as the first argument, so binding a thousand functions links
 * this one shape (twice: a STANDARD and a CRITICAL variant) instead of a thousand descriptors.
 */
public final class ThunkHandle {
    /** {@code void *thunk(void *param)}. */
    public static final FunctionDescriptor DESCRIPTOR = FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.ADDRESS);

    private static final MethodHandle STANDARD = Linker.nativeLinker().downcallHandle(DESCRIPTOR);
    private static final MethodHandle CRITICAL = Linker.nativeLinker().downcallHandle(DESCRIPTOR,
            Linker.Option.critical(false));

    private ThunkHandle() {}

    /** The plain downcall: {@code (MemorySegment thunk, MemorySegment param) -> MemorySegment}; the thunk may block or call back. */
    public static MethodHandle standard() {
        return STANDARD;
    }

    /** The {@code critical(false)} variant, for thunks of short functions that never block or call back. */
    public static MethodHandle critical() {
        return CRITICAL;
    }

    /** Calls {@code thunk(param)} with a plain downcall and returns the raw return register. */
    public static long invoke(MemorySegment thunk, MemorySegment param) {
        try {
            return ((MemorySegment) STANDARD.invokeExact(thunk, param)).address();
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** Calls {@code thunk(param)} with a critical downcall and returns the raw return register. */
    public static long invokeCritical(MemorySegment thunk, MemorySegment param) {
        try {
            return ((MemorySegment) CRITICAL.invokeExact(thunk, param)).address();
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) return r;
        if (t instanceof Error e) throw e;
        return new IllegalStateException("downcall failed", t);
    }
}
