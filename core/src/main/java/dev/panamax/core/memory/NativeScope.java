package dev.panamax.core.memory;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Scoped freeing: the handles handed to a scope ({@link #adopt}) or created through it
 * ({@link #allocate}) are closed when the scope closes, except what was {@linkplain #keep kept}.
 * Nothing joins a scope by accident: a handle made while a scope is open belongs to its maker, as
 * every other handle does (a compute buffer, a batch, an object that closes its own handles).
 * Scopes nest; a kept handle moves to the enclosing scope (or, from the outermost scope, to the
 * caller).
 *
 * <pre>{@code
 * NativeBuffer result;
 * try (var scope = NativeScope.open()) {
 *     var tmp = scope.allocate(1 << 20);                    // closed with the scope
 *     var staged = scope.adopt(NativeBuffer.allocateConfined(256));
 *     result = scope.keep(scope.allocate(64));             // survives it
 * }
 * }</pre>
 * Adopting is the JDK's {@code addOrCleanupIfFail}: a handle the scope cannot take (the scope is
 * closed, or belongs to another thread) is closed at once and the failure rethrown, so no handle is
 * left without an owner. A scope belongs to the thread that opened it; scopes close innermost first.
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
     * Hands {@code handle} to this scope, which closes it when it closes; returns it. When the scope
     * cannot take it (closed, or used from another thread than its own) the handle is closed at once
     * and the failure thrown: the handle never outlives its chance of an owner.
     *
     * @throws IllegalStateException when the scope is closed (the handle is closed)
     * @throws WrongThreadException  from another thread than the scope's (the handle is closed)
     */
    public <H extends NativeHandle> H adopt(H handle) {
        java.util.Objects.requireNonNull(handle, "handle");
        try {
            checkOpen("adopt");
        } catch (RuntimeException refused) {
            try {
                handle.close();
            } catch (RuntimeException e) {
                refused.addSuppressed(e);
            }
            throw refused;
        }
        add(handle);
        return handle;
    }

    /** Zeroed native memory of {@code byteSize} bytes for any thread, owned by this scope: {@code adopt(NativeBuffer.allocate(byteSize))}. */
    public NativeBuffer allocate(long byteSize) {
        checkOpen("allocate");
        return adopt(NativeBuffer.allocate(byteSize));
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

    /** Whether {@link #close()} has run. */
    public boolean isClosed() {
        return closed;
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
