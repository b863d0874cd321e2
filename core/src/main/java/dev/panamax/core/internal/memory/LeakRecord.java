package dev.panamax.core.internal.memory;

import dev.panamax.core.memory.AllocatesForCaller;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * What leak detection remembers of one tracked resource: where it was allocated and the last few
 * {@code touch(hint)} records. Lives in the resource's cleanup state, never in the handle, so the
 * GC-driven cleanup can still report it after the handle is gone.
 */
public final class LeakRecord {
    /** How many touch records a resource keeps (the newest ones). */
    public static final int MAX_TOUCHES = 4;
    private static final int MAX_FRAMES = 24;
    private static final StackWalker WALKER = StackWalker.getInstance(
            Set.of(StackWalker.Option.RETAIN_CLASS_REFERENCE), 32);
    private static final String INTERNAL_PACKAGE = "dev.panamax.core.internal.memory";
    /**
     * Panamax's own classes whose frames say nothing about the caller: the memory classes, and the
     * classes that allocate handles on a caller's behalf (a batch's buffers are the caller's batch).
     */
    private static final java.util.Set<String> OWN = java.util.Set.of(
            "dev.panamax.core.memory.NativeHandle", "dev.panamax.core.memory.NativeBuffer",
            "dev.panamax.core.memory.PooledBuffer", "dev.panamax.core.memory.BufferPool",
            "dev.panamax.core.memory.BufferPool$PoolState", "dev.panamax.core.memory.BufferPool$PoolTracker",
            "dev.panamax.core.memory.BufferPool$SizeClass",
            "dev.panamax.core.memory.HandleState", "dev.panamax.core.memory.LeakDetection",
            "dev.panamax.core.memory.NativeScope", "dev.panamax.core.batch.Batch",
            "dev.panamax.core.batch.BatchRegion", "dev.panamax.core.call.BatchedFunction");

    private final StackTraceElement[] allocation;
    private final Touch[] touches = new Touch[MAX_TOUCHES];
    private int touchCount;

    /** One {@code touch(hint)}: the hint, the thread and where it was called. */
    public record Touch(String hint, String thread, StackTraceElement[] site) {}

    public LeakRecord() {
        this.allocation = capture();
    }

    /**
     * Captures the caller's stack, leaving out Panamax's memory internals, handle constructors and the
     * frames of classes that allocate on their caller's behalf.
     */
    static StackTraceElement[] capture() {
        return WALKER.walk(frames -> frames
                .dropWhile(LeakRecord::isInternal)
                .limit(MAX_FRAMES)
                .map(StackWalker.StackFrame::toStackTraceElement)
                .toArray(StackTraceElement[]::new));
    }

    /** Whether every frame of a class is left out: Panamax's memory internals and classes marked {@link AllocatesForCaller}. */
    private static final ClassValue<Boolean> ALLOCATES_FOR_CALLER = new ClassValue<>() {
        @Override
        protected Boolean computeValue(Class<?> c) {
            if (c.getPackageName().equals(INTERNAL_PACKAGE) || OWN.contains(c.getName())) return true;
            // the class itself or any class it is nested in (a marked helper's nested and local classes)
            for (Class<?> k = c; k != null; k = k.getEnclosingClass()) {
                if (k.isAnnotationPresent(AllocatesForCaller.class)) return true;
            }
            return false;
        }
    };

    private static boolean isInternal(StackWalker.StackFrame f) {
        Class<?> c = f.getDeclaringClass();
        if (ALLOCATES_FOR_CALLER.get(c)) return true;
        // constructors and factories of handle subclasses in other packages
        return dev.panamax.core.memory.NativeHandle.class.isAssignableFrom(c) && (f.getMethodName().equals("<init>") || f.getMethodName().startsWith("allocate"));
    }

    public void touch(String hint) {
        Touch t = new Touch(hint, Thread.currentThread().getName(), capture());
        synchronized (touches) {
            touches[touchCount % MAX_TOUCHES] = t;
            touchCount++;
        }
    }

    public StackTraceElement[] allocation() {
        return allocation.clone();
    }

    /** The first frame outside Panamax's memory code, or {@code "unknown"}. */
    public String allocationSite() {
        return allocation.length == 0 ? "unknown" : allocation[0].toString();
    }

    /** The kept touches, oldest first. */
    public List<Touch> touches() {
        synchronized (touches) {
            List<Touch> out = new ArrayList<>(MAX_TOUCHES);
            int from = Math.max(0, touchCount - MAX_TOUCHES);
            for (int i = from; i < touchCount; i++) out.add(touches[i % MAX_TOUCHES]);
            return out;
        }
    }

    /** Total touches made, including those no longer kept. */
    public int touchCount() {
        synchronized (touches) {
            return touchCount;
        }
    }

}
