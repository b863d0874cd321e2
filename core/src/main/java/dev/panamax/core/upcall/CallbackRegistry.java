package dev.panamax.core.upcall;

import java.lang.foreign.AddressLayout;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.LongAdder;

import static java.lang.invoke.MethodType.methodType;

/**
 * Java handlers behind integer ids, reached through one shared upcall stub, so native code never
 * holds a Java reference: it gets the stub's address and an id (passed as its {@code user_data}),
 * and calls back with the id.
 *
 * <pre>{@code
 * CallbackRegistry<CompletionHandler> completions = CallbackRegistry.completions();
 * int id = completions.registerOnce(status -> future.complete(status));
 * start_async_work(completions.stub(), CallbackRegistry.userData(id));   // C: callback(user_data, status)
 * }</pre>
 *
 * <p>The native signature is given when the registry is built, with the position of the
 * {@code user_data} argument (a pointer, {@code int64_t} or {@code int32_t}); the handler is a
 * functional interface whose method takes the other arguments, in order, and returns void.
 *
 * <p>Dispatch: <em>inline</em> runs the handler on the calling (often native) thread; with an
 * executor (virtual threads by default) the arguments are handed over and the native thread
 * returns at once. Either way an exception from a handler is caught, counted and reported, never
 * thrown into native code.
 *
 * <p>One-shot registrations are removed by their first dispatch (a second dispatch with the same id
 * is a miss); persistent ones stay until {@link #unregister}. Unregistering is safe while native
 * threads are calling: a dispatch that found the handler before {@code unregister} returned may still
 * run it once; every later dispatch with that id finds nothing, returns at once and is counted in
 * {@link #missed()}. Ids are not reused for a long time (see {@code HandlerTable}), so a late call
 * cannot reach a newer handler.
 */
public final class CallbackRegistry<H> {
    private static final MethodHandle TAKE;
    private static final MethodHandle DISPATCH_ASYNC;
    private static final MethodHandle IS_NOT_NULL;
    private static final MethodHandle SEGMENT_ADDRESS;
    private static final ExecutorService VIRTUAL_THREADS = Executors.newThreadPerTaskExecutor(
            Thread.ofVirtual().name("panamax-callback-", 0).factory());

    static {
        MethodHandles.Lookup l = MethodHandles.lookup();
        try {
            TAKE = l.findVirtual(CallbackRegistry.class, "take", methodType(Object.class, long.class));
            DISPATCH_ASYNC = l.findVirtual(CallbackRegistry.class, "dispatchAsync",
                    methodType(void.class, MethodHandle.class, Object.class, Object[].class));
            IS_NOT_NULL = l.findStatic(Objects.class, "nonNull", methodType(boolean.class, Object.class));
            SEGMENT_ADDRESS = l.findVirtual(MemorySegment.class, "address", methodType(long.class));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private static final class Shared {
        static final CallbackRegistry<CompletionHandler> COMPLETIONS = builder(CompletionHandler.class,
                FunctionDescriptor.ofVoid(ValueLayout.ADDRESS, ValueLayout.JAVA_LONG), 0)
                .name("completions").build(Arena.global());
    }

    private final String name;
    private final Class<H> handlerType;
    private final Executor executor; // null: inline
    private final HandlerTable table = new HandlerTable();
    private final FailureSink failures;
    private final LongAdder dispatched = new LongAdder();
    private final LongAdder missed = new LongAdder();
    private final MemorySegment stub;

    private CallbackRegistry(Builder<H> b, Arena arena) {
        this.name = b.name;
        this.handlerType = b.handlerType;
        this.executor = b.inline ? null : b.executor;
        this.failures = new FailureSink(b.name, b.exceptionHandler);
        this.stub = Linker.nativeLinker().upcallStub(dispatcher(b), b.nativeShape, arena);
    }

    /**
     * The shared registry for completions: native signature {@code void (*)(void *user_data, int64_t status)},
     * handlers run on virtual threads, stub valid for the life of the JVM.
     */
    public static CallbackRegistry<CompletionHandler> completions() {
        return Shared.COMPLETIONS;
    }

    /**
     * Starts a registry for callbacks of native signature {@code nativeShape} (void return) whose
     * argument {@code userDataIndex} carries the id; {@code handlerType} is a functional interface
     * taking the other arguments.
     */
    public static <H> Builder<H> builder(Class<H> handlerType, FunctionDescriptor nativeShape, int userDataIndex) {
        return new Builder<>(handlerType, nativeShape, userDataIndex);
    }

    /** The id as a {@code user_data} pointer for native code. */
    public static MemorySegment userData(int id) {
        return MemorySegment.ofAddress(id);
    }

    /** Registers a handler that stays until {@link #unregister}; returns its id (never 0). */
    public int register(H handler) {
        return table.add(handlerType.cast(Objects.requireNonNull(handler, "handler")), false);
    }

    /** Registers a handler removed by its first dispatch; returns its id (never 0). */
    public int registerOnce(H handler) {
        return table.add(handlerType.cast(Objects.requireNonNull(handler, "handler")), true);
    }

    /** Removes a registration; false when {@code id} is not registered (already removed, or one-shot and dispatched). */
    public boolean unregister(int id) {
        HandlerTable.Entry e = table.get(id);
        return e != null && table.remove(e);
    }

    /** Whether {@code id} is registered now. */
    public boolean isRegistered(int id) {
        return table.get(id) != null;
    }

    /** Registrations live now. */
    public int size() {
        return table.size();
    }

    /** The shared upcall stub to hand to native code with {@link #userData(int)}. */
    public MemorySegment stub() {
        return stub;
    }

    /** Dispatches that found their handler. */
    public long dispatched() {
        return dispatched.sum();
    }

    /** Dispatches with an id that was not registered (never, or no longer): dropped. */
    public long missed() {
        return missed.sum();
    }

    /** Exceptions thrown by handlers (or by handing work to the executor), caught and reported. */
    public long exceptionCount() {
        return failures.count();
    }

    /** The name given at build time. */
    public String name() {
        return name;
    }

    /** The handler for a dispatch of {@code id}, claimed if one-shot; {@code null} when there is none. */
    private Object take(long id) {
        HandlerTable.Entry e = table.get(id);
        if (e == null || (e.oneShot() && !table.remove(e))) {
            missed.increment();
            return null;
        }
        dispatched.increment();
        return e.handler();
    }

    private void dispatchAsync(MethodHandle spreader, Object handler, Object[] args) {
        executor.execute(() -> {
            try {
                spreader.invoke(handler, args);
            } catch (Throwable t) {
                failures.record(t);
            }
        });
    }

    /**
     * The stub's target, in the native argument order: take(id) → handler, then call the handler's
     * method with the other arguments (or hand them to the executor); nothing when there is no handler.
     */
    private MethodHandle dispatcher(Builder<H> b) {
        MethodType nativeType = b.nativeShape.toMethodType();
        List<Class<?>> handlerArgs = new ArrayList<>(nativeType.parameterList());
        Class<?> userDataType = handlerArgs.remove(b.userDataIndex);
        MethodHandle call = b.handlerMethod().asType(methodType(void.class, Object.class).appendParameterTypes(handlerArgs));
        if (executor != null) {
            MethodHandle spreader = call.asSpreader(Object[].class, handlerArgs.size());
            call = MethodHandles.insertArguments(DISPATCH_ASYNC, 0, this, spreader)
                    .asCollector(Object[].class, handlerArgs.size())
                    .asType(call.type());
        }
        MethodHandle none = MethodHandles.empty(call.type());
        MethodHandle ifPresent = MethodHandles.guardWithTest(IS_NOT_NULL, call, none); // (Object handler, args..)void
        MethodHandle byId = MethodHandles.collectArguments(ifPresent, 0, TAKE.bindTo(this)); // (long id, args..)void
        if (userDataType == MemorySegment.class) {
            byId = MethodHandles.filterArguments(byId, 0, SEGMENT_ADDRESS);
        } else {
            byId = byId.asType(byId.type().changeParameterType(0, userDataType));
        }
        // byId takes (user data, the other arguments in native order); say which native argument feeds each
        int[] nativeIndexOf = new int[nativeType.parameterCount()];
        nativeIndexOf[0] = b.userDataIndex;
        for (int i = 0, k = 1; i < nativeIndexOf.length; i++) {
            if (i != b.userDataIndex) nativeIndexOf[k++] = i;
        }
        MethodHandle target = MethodHandles.permuteArguments(byId, nativeType, nativeIndexOf);
        return Upcalls.guard(target, failures, null);
    }

    /** Options of a registry. */
    public static final class Builder<H> {
        private final Class<H> handlerType;
        private final FunctionDescriptor nativeShape;
        private final int userDataIndex;
        private String name = "callbacks";
        private Executor executor = VIRTUAL_THREADS;
        private boolean inline;
        private UpcallExceptionHandler exceptionHandler;
        private MethodHandles.Lookup lookup = MethodHandles.publicLookup();

        private Builder(Class<H> handlerType, FunctionDescriptor nativeShape, int userDataIndex) {
            this.handlerType = Objects.requireNonNull(handlerType, "handlerType");
            this.nativeShape = Objects.requireNonNull(nativeShape, "nativeShape");
            this.userDataIndex = userDataIndex;
        }

        /** The name used in exception reports. */
        public Builder<H> name(String name) {
            this.name = Objects.requireNonNull(name, "name");
            return this;
        }

        /** Run handlers on this executor; the native thread returns as soon as the work is handed over. */
        public Builder<H> executor(Executor executor) {
            this.executor = Objects.requireNonNull(executor, "executor");
            this.inline = false;
            return this;
        }

        /** Run handlers on the calling thread, before the native call returns. */
        public Builder<H> inline() {
            this.inline = true;
            return this;
        }

        /** This registry's exception handler instead of {@link Upcalls#defaultExceptionHandler()}. */
        public Builder<H> onException(UpcallExceptionHandler handler) {
            this.exceptionHandler = handler;
            return this;
        }

        /** A lookup that can see {@code handlerType} when it is not public. */
        public Builder<H> lookup(MethodHandles.Lookup lookup) {
            this.lookup = Objects.requireNonNull(lookup, "lookup");
            return this;
        }

        /**
         * Creates the registry and its stub in {@code arena}; the stub lives as long as the arena.
         *
         * @throws IllegalArgumentException when the native signature, user-data position and handler
         *                                  interface do not fit together
         */
        public CallbackRegistry<H> build(Arena arena) {
            check();
            return new CallbackRegistry<>(this, arena);
        }

        private void check() {
            List<MemoryLayout> args = nativeShape.argumentLayouts();
            if (nativeShape.returnLayout().isPresent()) {
                throw problem("the native callback must return void, found " + nativeShape.returnLayout().get());
            }
            if (userDataIndex < 0 || userDataIndex >= args.size()) {
                throw problem("userDataIndex=" + userDataIndex + " is outside the " + args.size() + " arguments");
            }
            MemoryLayout ud = args.get(userDataIndex);
            if (!(ud instanceof AddressLayout) && !ud.equals(ValueLayout.JAVA_LONG) && !ud.equals(ValueLayout.JAVA_INT)) {
                throw problem("the user-data argument must be a pointer, int64 or int32, found " + ud);
            }
            Method m = samOf(handlerType);
            List<Class<?>> expected = new ArrayList<>(nativeShape.toMethodType().parameterList());
            expected.remove(userDataIndex);
            if (m.getReturnType() != void.class || !Arrays.asList(m.getParameterTypes()).equals(expected)) {
                throw problem("handler method " + m.getName() + Arrays.toString(m.getParameterTypes()) + " returns "
                        + m.getReturnType().getSimpleName() + "; expected void " + m.getName() + expected);
            }
        }

        private MethodHandle handlerMethod() {
            try {
                return lookup.unreflect(samOf(handlerType));
            } catch (IllegalAccessException e) {
                throw problem("cannot access " + handlerType.getName() + " (make it public, or pass a lookup that can see it)");
            }
        }

        private IllegalArgumentException problem(String what) {
            return new IllegalArgumentException("invalid callback registry: name=" + name + " handler="
                    + handlerType.getName() + " nativeShape=" + nativeShape + " problem=" + what);
        }

        private Method samOf(Class<?> type) {
            if (!type.isInterface()) throw problem("the handler type must be a functional interface");
            Method sam = null;
            for (Method m : type.getMethods()) {
                if (!Modifier.isAbstract(m.getModifiers())) continue;
                if (isObjectMethod(m)) continue;
                if (sam != null) throw problem("the handler type has more than one abstract method");
                sam = m;
            }
            if (sam == null) throw problem("the handler type has no abstract method");
            return sam;
        }

        private static boolean isObjectMethod(Method m) {
            try {
                Object.class.getMethod(m.getName(), m.getParameterTypes());
                return true;
            } catch (NoSuchMethodException e) {
                return false;
            }
        }
    }
}
