package dev.panamax.core.memory;

import dev.panamax.core.Checks;
import dev.panamax.core.internal.memory.AsymmetricFence;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;

/**
 * Keeps a handle's native object alive while a native call is using it: a {@code close()} (or last
 * {@code release()}) on another thread during the call does not free the object under it, but defers
 * the release until the call has returned. Generated bindings bracket each call that passes handles:
 *
 * <pre>{@code
 * CallSlot in = CallGuard.enter();
 * long q = CallGuard.use(in, queue);          // published first, then checked: a released handle throws
 * int status = clFinish(q);
 * CallGuard.exit(in);                         // right after the call; status checks come after
 * }</pre>
 *
 * <p>How, without an atomic read-modify-write on the caller's side: each thread has a {@link CallSlot}
 * into which {@link #use} writes the handle's address with a plain store and a release store of its
 * height, then reads the handle's state ({@link NativeHandle#address()}: a released handle throws). A
 * thread releasing a handle first marks it released (an atomic swap), then runs an asymmetric fence
 * (Linux {@code membarrier}, {@link AsymmetricFence}: every running thread executes a full barrier),
 * then reads every slot. A caller whose store came before the fence is seen in its slot; a caller whose
 * read of the state came after it sees the handle released and never calls. When a slot holds the
 * address, the release is deferred: the handle is kept reachable and a background thread frees it once
 * no slot holds the address any more (it re-reads the slots every 100 µs while releases wait). Without
 * {@code membarrier} each caller fences its own publication ({@link VarHandle#fullFence()}).
 *
 * <p>The cost per call is a thread-local lookup, one plain and one release store per handle and a
 * release store at the end; a release pays the fence (microseconds) only while more than one thread
 * has made guarded calls. {@code -Dpanamax.checks=false} ({@link Checks#CHECKS}) removes the guard: then
 * {@link #enter()} gives null and the other methods only do what the call needs.
 */
public final class CallGuard {
    private static final boolean SELF_FENCE = Checks.CHECKS && !AsymmetricFence.AVAILABLE;
    private static final ThreadLocal<CallSlot> SLOTS = new ThreadLocal<>();
    // read racily: a slot's thread field is final, so any thread reading it sees it whole
    private static CallSlot first;
    private static final Set<CallSlot> REGISTERED = ConcurrentHashMap.newKeySet();
    private static final List<NativeHandle> DEFERRED = new ArrayList<>();
    private static final long POLL_NANOS = 100_000;
    private static Thread releaser;

    private CallGuard() {}

    /** The current thread's slot, or null when checks are off ({@link Checks#CHECKS}). */
    public static CallSlot enter() {
        if (!Checks.CHECKS) return null;
        // the first thread that made a guarded call finds its slot without the thread-local lookup
        CallSlot f = first;
        if (f != null && f.thread == Thread.currentThread()) return f;
        CallSlot s = SLOTS.get();
        return s != null ? s : register();
    }

    /**
     * Publishes {@code handle} as in use by this thread's call, then returns its address (0 for null).
     *
     * @throws HandleReleasedException when the handle was released: the call must not happen
     */
    public static long use(CallSlot slot, NativeHandle handle) {
        if (handle == null) return 0;
        if (slot == null) return handle.address();
        slot.push(handle.rawAddress());
        if (SELF_FENCE) VarHandle.fullFence();
        if (!handle.isReleased()) return handle.rawAddress();
        slot.dropLast();
        throw HandleReleasedException.released("call", handle);
    }

    /**
     * Publishes two handles as in use by this thread's call with one store (null ones publish nothing),
     * checks both, and returns the first one's address (0 for null); the call passes {@link #address}
     * of the other. Cheaper than {@link #use(CallSlot, NativeHandle)} per handle for a call that takes
     * several: the generated code writes it as the first handle's argument.
     *
     * @throws HandleReleasedException when one was released (the first of them): the call must not happen
     */
    public static long use(CallSlot slot, NativeHandle a, NativeHandle b) {
        if (slot == null) return a == null ? 0 : a.address();
        slot.push(rawOf(a), rawOf(b));
        if (SELF_FENCE) VarHandle.fullFence();
        if (released(a) || released(b)) {
            slot.dropLast(2);
            throw HandleReleasedException.released("call", released(a) ? a : b);
        }
        return rawOf(a);
    }

    /** {@link #use(CallSlot, NativeHandle, NativeHandle)} for three handles. */
    public static long use(CallSlot slot, NativeHandle a, NativeHandle b, NativeHandle c) {
        if (slot == null) return a == null ? 0 : a.address();
        slot.push(rawOf(a), rawOf(b), rawOf(c));
        if (SELF_FENCE) VarHandle.fullFence();
        if (released(a) || released(b) || released(c)) {
            slot.dropLast(3);
            throw HandleReleasedException.released("call", released(a) ? a : released(b) ? b : c);
        }
        return rawOf(a);
    }

    /**
     * The address to pass for a handle published by {@link #use(CallSlot, NativeHandle, NativeHandle)}
     * (0 for null). With checks off ({@code slot} null) nothing was published, and this is
     * {@link NativeHandle#address()}, which refuses a released handle.
     */
    public static long address(CallSlot slot, NativeHandle handle) {
        if (handle == null) return 0;
        return slot == null ? handle.address() : handle.rawAddress();
    }

    private static long rawOf(NativeHandle h) {
        return h == null ? 0 : h.rawAddress();
    }

    private static boolean released(NativeHandle h) {
        return h != null && h.isReleased();
    }

    /**
     * Publishes every handle of {@code handles} (nulls skipped); their addresses are then taken (and
     * their state checked) by whatever stages the array.
     */
    public static void hold(CallSlot slot, NativeHandle[] handles) {
        if (slot == null || handles == null) return;
        for (NativeHandle h : handles) {
            if (h != null) slot.push(h.rawAddress());
        }
        if (SELF_FENCE) VarHandle.fullFence();
    }

    /**
     * Ends the call: what it published is no longer in use by this thread. Needs no {@code finally}: if
     * an exception skips it, the thread's next call ends what was left (until then a release of those
     * objects only waits).
     */
    public static void exit(CallSlot slot) {
        if (slot != null) slot.endCall();
    }

    /**
     * {@link #exit(CallSlot)}, and {@code keep} stays reachable until here (as with
     * {@link java.lang.ref.Reference#reachabilityFence}): one call where a binding needs both after a
     * native call.
     */
    public static void exit(CallSlot slot, Object keep) {
        if (slot != null) slot.endCall();
        java.lang.ref.Reference.reachabilityFence(keep);
    }

    /**
     * {@code target}, an upcall's Java side, wrapped so that typed calls it makes while a native call of
     * the same thread is running keep that outer call's handles published: their ends return to the
     * height at the callback's start, not below it. Every stub {@link dev.panamax.core.upcall.Upcalls}
     * makes is wrapped so; wrap a stub made with the bare {@code Linker} the same way. Returns
     * {@code target} itself when checks are off.
     */
    public static MethodHandle upcallScope(MethodHandle target) {
        if (!Checks.CHECKS) return target;
        Class<?> r = target.type().returnType();
        // (CallSlot, args...) -> R: the slot comes from upcallStarts, folded in below
        MethodHandle body = MethodHandles.dropArguments(target, 0, CallSlot.class);
        // (Throwable, [R,] CallSlot) -> [R]: ends the callback's level, hands the result back
        MethodHandle cleanup;
        if (r == void.class) {
            cleanup = MethodHandles.dropArguments(UPCALL_ENDS, 0, Throwable.class);
        } else {
            MethodHandle ends = MethodHandles.dropArguments(UPCALL_ENDS, 0, Throwable.class, r);
            MethodHandle result = MethodHandles.dropArguments(MethodHandles.identity(r), 0, Throwable.class);
            cleanup = MethodHandles.foldArguments(MethodHandles.dropArguments(result, 2, CallSlot.class), ends);
        }
        return MethodHandles.foldArguments(MethodHandles.tryFinally(body, cleanup), UPCALL_STARTS);
    }

    private static final MethodHandle UPCALL_STARTS;
    private static final MethodHandle UPCALL_ENDS;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            UPCALL_STARTS = l.findStatic(CallGuard.class, "upcallStarts", MethodType.methodType(CallSlot.class));
            UPCALL_ENDS = l.findStatic(CallGuard.class, "upcallEnds", MethodType.methodType(void.class, CallSlot.class));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private static CallSlot upcallStarts() {
        CallSlot s = SLOTS.get();
        // a thread that never made a guarded call has nothing to keep: its callback's calls start at 0
        if (s != null) s.upcallStarts();
        return s;
    }

    private static void upcallEnds(CallSlot s) {
        if (s != null) s.upcallEnds();
    }

    // ------------------------------------------------------------------ the releasing side

    private static CallSlot register() {
        CallSlot s = new CallSlot(Thread.currentThread());
        REGISTERED.add(s);
        SLOTS.set(s);
        if (first == null) first = s;
        return s;
    }

    /**
     * Releases {@code handle}'s state now, or, when a call of any thread may be using its address,
     * once no call is: the caller has already marked the handle released.
     */
    static void releaseWhenUnused(NativeHandle handle, HandleState state, long address) {
        if (!handle.pinned() && !inUse(address)) {
            state.releaseByCode();
            return;
        }
        synchronized (DEFERRED) {
            DEFERRED.add(handle);
            if (releaser == null) {
                releaser = Thread.ofPlatform().daemon().name("panamax-deferred-release").start(CallGuard::releaseLoop);
            } else {
                DEFERRED.notifyAll();
            }
        }
    }

    /** Whether any thread's call may be using {@code address} (after the fence that makes slots current). */
    static boolean inUse(long address) {
        if (REGISTERED.isEmpty()) return false;
        Thread me = Thread.currentThread();
        boolean others = false;
        for (CallSlot s : REGISTERED) {
            if (!s.ownedBy(me)) {
                others = true;
                break;
            }
        }
        if (others) AsymmetricFence.run();
        boolean held = false;
        for (Iterator<CallSlot> it = REGISTERED.iterator(); it.hasNext(); ) {
            CallSlot s = it.next();
            if (s.holds(address)) {
                held = true;
            } else if (s.abandoned()) {
                it.remove();
            }
        }
        return held;
    }

    /** Whether a slot holds {@code address} now; no fence: a release already deferred only waits for it to go. */
    private static boolean heldNow(long address) {
        for (CallSlot s : REGISTERED) {
            if (s.holds(address)) return true;
        }
        return false;
    }

    /** Releases deferred since their calls returned or their pins went; how many still wait for a call to return. */
    static int releaseDeferred() {
        List<NativeHandle> ready = new ArrayList<>();
        int waiting;
        synchronized (DEFERRED) {
            for (Iterator<NativeHandle> it = DEFERRED.iterator(); it.hasNext(); ) {
                NativeHandle h = it.next();
                // slots first, then pins: a pin is taken while its taker's slot holds the address
                if (!heldNow(h.rawAddress()) && !h.pinned()) {
                    ready.add(h);
                    it.remove();
                }
            }
            waiting = waitingForCalls();
            // the releaser polls only while some wait for a call: wake it for those left here
            if (waiting > 0) DEFERRED.notifyAll();
        }
        for (NativeHandle h : ready) {
            try {
                h.releaseDeferred();
            } catch (Throwable t) {
                System.getLogger("dev.panamax.core.memory").log(System.Logger.Level.ERROR,
                        "deferred release failed: " + h, t);
            }
        }
        return waiting;
    }

    /** Releases waiting: how many native objects outlive their handles' release because a call still uses them. */
    public static int deferredReleases() {
        synchronized (DEFERRED) {
            return DEFERRED.size();
        }
    }

    /** Deferred releases not pinned: they wait for calls to return. Under the DEFERRED lock. */
    private static int waitingForCalls() {
        int n = 0;
        for (NativeHandle h : DEFERRED) {
            if (!h.pinned()) n++;
        }
        return n;
    }

    private static void releaseLoop() {
        while (true) {
            try {
                if (releaseDeferred() > 0) {
                    LockSupport.parkNanos(POLL_NANOS);
                    continue;
                }
                synchronized (DEFERRED) {
                    // woken by the next deferral; pinned ones are freed by their unpin
                    if (waitingForCalls() == 0) DEFERRED.wait();
                }
            } catch (InterruptedException ignored) {
                // lives as long as the JVM
            } catch (Throwable t) {
                System.getLogger("dev.panamax.core.memory").log(System.Logger.Level.ERROR, "deferred release loop", t);
            }
        }
    }
}
