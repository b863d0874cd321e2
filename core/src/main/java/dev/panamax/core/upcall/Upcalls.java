package dev.panamax.core.upcall;

import dev.panamax.core.memory.CallGuard;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.invoke.WrongMethodTypeException;
import java.util.Objects;
import java.util.concurrent.atomic.LongAdder;

import static java.lang.invoke.MethodType.methodType;

/**
 * Upcall stubs that never let an exception into native code.
 *
 * <p>An exception escaping an FFM upcall ends the JVM. Every stub made here wraps its target with
 * {@link MethodHandles#catchException}: whatever it throws is caught, counted, handed to an
 * {@link UpcallExceptionHandler} (by default one that logs through {@link System.Logger}), and the
 * stub returns its declared fallback value to the native caller.
 *
 * <pre>{@code
 * UpcallStub compare = Upcalls.stub("compare", COMPARE_HANDLE,
 *         FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS), 0, arena);
 * qsort(base, n, size, compare.address());
 * }</pre>
 */
public final class Upcalls {
    static final LongAdder TOTAL_EXCEPTIONS = new LongAdder();
    private static final System.Logger LOG = System.getLogger("dev.panamax.upcall");
    private static final UpcallExceptionHandler LOGGING = (upcall, error) ->
            LOG.log(System.Logger.Level.WARNING, "exception in upcall " + upcall
                    + " caught at the native boundary; the stub returned its fallback value", error);
    private static volatile UpcallExceptionHandler defaultHandler = LOGGING;
    private static final MethodHandle RECORD;

    static {
        try {
            RECORD = MethodHandles.lookup().findVirtual(FailureSink.class, "record", methodType(void.class, Throwable.class));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private Upcalls() {}

    /**
     * A stub for {@code target} with the native signature {@code descriptor}; when the target throws,
     * the stub returns {@code fallback} (ignored for void functions).
     */
    public static UpcallStub stub(String name, MethodHandle target, FunctionDescriptor descriptor, Object fallback, Arena arena) {
        return builder(name, target, descriptor).fallback(fallback).build(arena);
    }

    /** A stub for a void function. */
    public static UpcallStub voidStub(String name, MethodHandle target, FunctionDescriptor descriptor, Arena arena) {
        return builder(name, target, descriptor).build(arena);
    }

    /** Starts a stub with more options (a handler of its own). */
    public static Builder builder(String name, MethodHandle target, FunctionDescriptor descriptor) {
        return new Builder(name, target, descriptor);
    }

    /** Exceptions caught at the boundary by every stub and registry so far. */
    public static long exceptionCount() {
        return TOTAL_EXCEPTIONS.sum();
    }

    /** The handler used by stubs that have none of their own. */
    public static UpcallExceptionHandler defaultExceptionHandler() {
        return defaultHandler;
    }

    /** Replaces the default handler; {@code null} restores the logging one. */
    public static void setDefaultExceptionHandler(UpcallExceptionHandler handler) {
        defaultHandler = handler == null ? LOGGING : handler;
    }

    /**
     * {@code target} wrapped so that no exception escapes: caught, given to {@code sink}, and
     * {@code fallback} returned instead (nothing for void).
     */
    static MethodHandle guard(MethodHandle target, FailureSink sink, Object fallback) {
        MethodType t = target.type();
        MethodHandle record = RECORD.bindTo(sink);
        MethodHandle onError;
        if (t.returnType() == void.class) {
            onError = record;
        } else {
            MethodHandle value = MethodHandles.dropArguments(MethodHandles.constant(t.returnType(), fallback), 0, Throwable.class);
            onError = MethodHandles.foldArguments(value, record);
        }
        // typed calls the callback makes nest inside the native call it runs in (CallGuard)
        return MethodHandles.catchException(CallGuard.upcallScope(target), Throwable.class,
                MethodHandles.dropArguments(onError, 1, t.parameterList()));
    }

    /** Options of one stub. */
    public static final class Builder {
        private final String name;
        private final MethodHandle target;
        private final FunctionDescriptor descriptor;
        private Object fallback;
        private boolean fallbackDeclared;
        private UpcallExceptionHandler handler;

        private Builder(String name, MethodHandle target, FunctionDescriptor descriptor) {
            this.name = Objects.requireNonNull(name, "name");
            this.target = Objects.requireNonNull(target, "target");
            this.descriptor = Objects.requireNonNull(descriptor, "descriptor");
        }

        /** What the stub returns to native code when the target throws. Required unless the function returns void. */
        public Builder fallback(Object value) {
            this.fallback = value;
            this.fallbackDeclared = true;
            return this;
        }

        /** This stub's own exception handler instead of the default. */
        public Builder onException(UpcallExceptionHandler handler) {
            this.handler = handler;
            return this;
        }

        /**
         * Creates the stub in {@code arena}.
         *
         * @throws IllegalArgumentException when the target does not fit the descriptor, or a non-void
         *                                  function has no fallback (or one of the wrong type)
         */
        public UpcallStub build(Arena arena) {
            MethodType nativeType = descriptor.toMethodType();
            MethodHandle typed;
            try {
                typed = target.asType(nativeType);
            } catch (WrongMethodTypeException e) {
                throw new IllegalArgumentException("upcall target does not fit its native signature: upcall=" + name
                        + " target=" + target.type() + " expected=" + nativeType, e);
            }
            Class<?> ret = nativeType.returnType();
            if (ret != void.class) {
                if (!fallbackDeclared) {
                    throw new IllegalArgumentException("upcall returns a value but declares no fallback: upcall=" + name
                            + " returns=" + ret.getSimpleName()
                            + " (declare what the stub returns to native code when the target throws)");
                }
                try {
                    MethodHandles.constant(ret, fallback);
                } catch (ClassCastException | NullPointerException | IllegalArgumentException e) {
                    throw new IllegalArgumentException("upcall fallback has the wrong type: upcall=" + name
                            + " returns=" + ret.getSimpleName() + " fallback=" + fallback
                            + (fallback == null ? "" : " (" + fallback.getClass().getSimpleName() + ")"), e);
                }
            }
            FailureSink sink = new FailureSink(name, handler);
            MethodHandle guarded = guard(typed, sink, fallback);
            MemorySegment address = Linker.nativeLinker().upcallStub(guarded, descriptor, arena);
            return new UpcallStub(name, descriptor, address, sink);
        }
    }
}
