package dev.panamax.core.memory;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Scoped freeing: every handle created on this thread while the scope is the innermost open one
 * is closed when the scope closes, except what was {@linkplain #keep kept}. Scopes nest; a kept
 * handle moves to the enclosing scope (or, from the outermost scope, to the caller).
 *
 * <pre>{@code
 * NativeBuffer result;
 * try (var scope = NativeScope.open()) {
 *     var tmp = NativeBuffer.allocate(1 << 20);   // closed with the scope
 *     result = scope.keep(NativeBuffer.allocate(64));
 * }
 * }</pre>
 * A scope belongs to the thread that opened it; scopes close innermost first.
 */
public final class NativeScope implements AutoCloseable {
    private static final ThreadLocal<NativeScope> CURRENT = new ThreadLocal<>();
    /** Compact the list (drop handles already released) when it doubles past this. */
    private static final int COMPACT_AT = 64;

    private final NativeScope parent;
    private final Thread thread;
    private List<NativeHandle> handles = new ArrayList<>();
    private int compactAt = COMPACT_AT;
    private boolean closed;

    private NativeScope(NativeScope parent) {
        this.parent = parent;
        this.thread = Thread.currentThread();
    }

    /** Opens a scope on the current thread, nested in the current one if any. */
    public static NativeScope open() {
        NativeScope s = new NativeScope(CURRENT.get());
        CURRENT.set(s);
        return s;
    }

    /** The innermost open scope of the current thread, or null. */
    public static NativeScope current() {
        return CURRENT.get();
    }

    /**
     * Runs {@code action} with no scope open on this thread, so the handles it creates join no
     * scope; the thread's scopes are back in place afterwards. For objects that own handles and close
     * them themselves: a {@code Batch} replaces its buffers as it grows, and a buffer adopted by
     * whatever scope happened to be open then would be freed under the batch when that scope closed.
     *
     * <pre>{@code
     * NativeBuffer mine = NativeScope.unscoped(() -> NativeBuffer.allocateConfined(4096));
     * }</pre>
     */
    public static <T> T unscoped(java.util.function.Supplier<T> action) {
        NativeScope current = CURRENT.get();
        if (current == null) return action.get();
        CURRENT.remove();
        try {
            return action.get();
        } finally {
            CURRENT.set(current);
        }
    }

    /** Called by every handle constructor. */
    static void adopt(NativeHandle h) {
        NativeScope s = CURRENT.get();
        if (s != null) s.add(h);
    }

    private void add(NativeHandle h) {
        if (handles.size() >= compactAt) {
            handles.removeIf(NativeHandle::isReleased);
            compactAt = Math.max(COMPACT_AT, handles.size() * 2);
        }
        handles.add(h);
    }

    /**
     * Takes {@code handle} out of this scope: it moves to the enclosing scope, or belongs to the
     * caller when this is the outermost one. Returns it.
     */
    public <H extends NativeHandle> H keep(H handle) {
        checkOpen("keep");
        if (!handles.remove(handle)) {
            throw new IllegalArgumentException("handle not in this scope: handle=" + handle + " scopeDepth=" + depth());
        }
        if (parent != null) parent.add(handle);
        return handle;
    }

    /** Whether this scope will close {@code handle}. */
    public boolean holds(NativeHandle handle) {
        return handles.contains(handle);
    }

    /** How many scopes enclose this one (0 for the outermost). */
    public int depth() {
        int d = 0;
        for (NativeScope p = parent; p != null; p = p.parent) d++;
        return d;
    }

    /** Closes every handle still in the scope, newest first, and ends the scope. */
    @Override
    public void close() {
        if (closed) return;
        checkOpen("close");
        if (CURRENT.get() != this) {
            throw new IllegalStateException("scopes close innermost first: depth=" + depth()
                    + " innermostDepth=" + (CURRENT.get() == null ? -1 : CURRENT.get().depth()));
        }
        closed = true;
        if (parent == null) CURRENT.remove();
        else CURRENT.set(parent);
        RuntimeException failure = null;
        for (int i = handles.size() - 1; i >= 0; i--) {
            try {
                handles.get(i).close();
            } catch (RuntimeException e) {
                if (failure == null) failure = e;
                else failure.addSuppressed(e);
            }
        }
        handles = List.of();
        if (failure != null) throw failure;
    }

    private void checkOpen(String operation) {
        if (Thread.currentThread() != thread) {
            throw new WrongThreadException(String.format(Locale.ROOT, "scope used from another thread: operation=%s owner=%s thread=%s",
                    operation, thread.getName(), Thread.currentThread().getName()));
        }
        if (closed) throw new IllegalStateException("scope already closed: operation=" + operation + " depth=" + depth());
    }
}
