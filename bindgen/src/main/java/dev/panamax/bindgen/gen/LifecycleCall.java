package dev.panamax.bindgen.gen;

import dev.panamax.bindgen.gen.BindingPlan.HandlePlan;
import dev.panamax.bindgen.gen.TypedFunction.Mapping;
import dev.panamax.bindgen.gen.TypedFunction.Result;
import dev.panamax.bindgen.gen.TypedFunction.TypedParam;

import java.util.List;

/**
 * A typed function that is a handle type's declared retain or release: in the typed layer it acts on
 * the Java handle's own reference count instead of calling the library, so that the handle stays the
 * one owner of its native reference. A typed release drops one of the handle's references (the last
 * one calls the native release, once); a typed retain adds one. Calling the library directly instead
 * would leave the Java handle live over a freed object: its {@code close()}, or the Cleaner once it is
 * dropped, would release the object a second time.
 *
 * @param handle  the handle type whose retain or release this is
 * @param release true for the release, false for the retain
 */
record LifecycleCall(HandlePlan handle, boolean release) {
    /**
     * The lifecycle role of {@code f}, or null when it has none: {@code f} is named as a handle type's
     * retain or release, takes exactly that handle, and returns nothing the typed layer would hand back
     * (a status is checked by the native release itself when it runs).
     */
    static LifecycleCall of(List<HandlePlan> handles, TypedFunction f) {
        if (f.params().size() != 1 || !(f.params().getFirst().mapping() instanceof Mapping.HandleValue hv)) return null;
        for (HandlePlan h : handles) {
            if (!h.className().equals(hv.handleClass()) || !h.ownable()) continue;
            boolean release = f.name().equals(h.release()) && h.releaseDeclared();
            boolean retain = f.name().equals(h.retain()) && h.retainDeclared();
            if (!release && !retain) continue;
            return new LifecycleCall(h, release);
        }
        return null;
    }

    /** Whether the typed layer can offer it through the handle: the typed method returns nothing. */
    static boolean returnsNothing(TypedFunction f) {
        return f.result() instanceof Result.Void;
    }

    /** The handle parameter's Java name. */
    static String parameter(TypedFunction f) {
        TypedParam p = f.params().getFirst();
        return p.javaName();
    }
}
