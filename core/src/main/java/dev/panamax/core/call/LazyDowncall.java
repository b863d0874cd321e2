package dev.panamax.core.call;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MutableCallSite;

import static java.lang.invoke.MethodType.methodType;

/**
 * A downcall that resolves its symbol and links on first invocation. Callers hold {@link #invoker()},
 * a fixed method handle over a {@link MutableCallSite}: its first target links the function and
 * installs the linked handle as the new target, so later calls go straight to it and the JIT, which
 * treats a call site's target as a constant, inlines it as if the linked handle had been held directly.
 */
final class LazyDowncall {
    private static final MethodHandle LINK;

    static {
        try {
            LINK = MethodHandles.lookup().findVirtual(LazyDowncall.class, "link", methodType(MethodHandle.class));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final NativeLibrary library;
    private final LinkRequest request;
    private final MutableCallSite site;
    private final MethodHandle invoker;
    private volatile MethodHandle linked;

    LazyDowncall(NativeLibrary library, LinkRequest request) {
        this.library = library;
        this.request = request;
        var type = request.signature().javaType();
        this.site = new MutableCallSite(type);
        site.setTarget(MethodHandles.foldArguments(MethodHandles.exactInvoker(type), LINK.bindTo(this)));
        this.invoker = site.dynamicInvoker();
    }

    /** The handle callers keep; constant for the life of the library. */
    MethodHandle invoker() {
        return invoker;
    }

    /** Links now if not yet linked; returns the linked handle. Throws {@link NativeLinkException} on failure. */
    MethodHandle link() {
        MethodHandle h = linked;
        if (h != null) return h;
        synchronized (this) {
            if (linked == null) {
                MethodHandle l = Downcalls.link(library.name(), library.symbol(request.symbol()), request);
                site.setTarget(l);
                linked = l;
            }
            return linked;
        }
    }
}
