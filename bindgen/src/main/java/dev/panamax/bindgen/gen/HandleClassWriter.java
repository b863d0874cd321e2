package dev.panamax.bindgen.gen;

import dev.panamax.bindgen.gen.BindingPlan.HandlePlan;

import java.util.List;

/**
 * A handle class per opaque type, on the core's {@code NativeHandle}: owned handles release the
 * object exactly once (close, last {@code release()}, or the Cleaner when unreachable, reported as a
 * leak), borrowed ones never do. {@code newReference()} takes a second native reference through the
 * declared retain function.
 */
final class HandleClassWriter {
    private HandleClassWriter() {}

    static String write(BindingPlan plan, HandlePlan h) {
        BindingPlan.Names n = plan.names();
        String c = h.className();
        List<String> imports = new java.util.ArrayList<>(List.of("dev.panamax.core.memory.AllocatesForCaller", "dev.panamax.core.binding.Unchecked", "dev.panamax.core.memory.NativeHandle", "dev.panamax.core.memory.SegmentAccess",
                "dev.panamax.core.call.Tier", "java.lang.foreign.MemorySegment", "java.lang.foreign.ValueLayout",
                "java.lang.invoke.MethodHandle"));
        if (h.retain() != null && h.ownable()) imports.addAll(List.of("dev.panamax.core.memory.CallGuard", "dev.panamax.core.memory.CallSlot"));
        Source s = new Source(plan, imports);
        if (h.ownable()) {
            s.doc("A {@code " + h.declName() + "} of " + plan.library() + ". An owned handle releases its reference with {@code "
                            + h.release() + "} exactly once:",
                    "on {@link #close()}, on the last {@link #release()}, or, if it was dropped unreleased, by the Cleaner",
                    "(reported as a leak). A borrowed handle never releases.");
        } else {
            s.doc("A {@code " + h.declName() + "} of " + plan.library() + ": the library never frees these objects, so every handle is",
                    "borrowed and closing it only ends its use from Java.");
        }
        s.line("@AllocatesForCaller");
        s.open("public final class " + c + " extends NativeHandle {");
        if (h.ownable() && !h.releaseDeclared()) {
            s.line("private static final MethodHandle $release = " + n.raw() + ".$$library.function("
                    + JavaNames.literal(h.release()) + ").params(ValueLayout.ADDRESS).tier(Tier.STANDARD).link();");
        }
        if (h.retain() != null && !h.retainDeclared()) {
            s.line("private static final MethodHandle $retain = " + n.raw() + ".$$library.function("
                    + JavaNames.literal(h.retain()) + ").params(ValueLayout.ADDRESS).tier(Tier.STANDARD).link();");
        }
        if (h.ownable()) s.line("private static final NativeHandle.ReleaseAction RELEASE = " + c + "::releaseObject;");
        s.line("");
        s.open("private " + c + "(long address, boolean owner) {");
        s.line(h.ownable() ? "super(address, -1, owner, SegmentAccess.SHARED, RELEASE);"
                : "super(address, -1, false, SegmentAccess.SHARED, null);");
        s.close("}");
        if (h.ownable()) {
            s.line("");
            s.doc("Takes over one reference to the object at {@code address}; null for NULL.");
            s.open("public static " + c + " owned(MemorySegment address) {");
            s.line("return address.address() == 0 ? null : new " + c + "(address.address(), true);");
            s.close("}");
        }
        s.line("");
        s.doc("Refers to the object at {@code address} without owning it; null for NULL.");
        s.open("public static " + c + " borrowed(MemorySegment address) {");
        s.line("return address.address() == 0 ? null : new " + c + "(address.address(), false);");
        s.close("}");
        s.line("");
        s.doc("The object's address as a segment (zero length), for the raw layer {@link " + n.raw() + "}.");
        s.open("public MemorySegment handle() {");
        s.line("return pointer();");
        s.close("}");
        if (h.retain() != null && h.ownable()) {
            s.line("");
            s.doc("Takes a new native reference with {@code " + h.retain() + "} and returns an owned handle holding it:",
                    "the object then lives until both handles are released.");
            s.open("public " + c + " newReference() {");
            s.line("CallSlot $$in = CallGuard.enter();");
            s.open("try {");
            s.line("long address = CallGuard.use($$in, this);");
            s.line("MemorySegment object = MemorySegment.ofAddress(address);");
            if (h.retainDeclared()) {
                if (h.retainStatus() != null) {
                    s.line(n.exception() + ".check_" + h.retainStatus() + "(" + Carriers.toLong(h.retainStatusKind(),
                            n.raw() + "." + h.retain() + "(object)") + ", " + JavaNames.literal(h.retain()) + ");");
                } else {
                    s.line(n.raw() + "." + h.retain() + "(object);");
                }
            } else {
                s.open("try {");
                s.line("$retain.invokeExact(object);");
                s.mid("} catch (Throwable t) {");
                s.line("throw Unchecked.of(t);");
                s.close("}");
            }
            s.line("java.lang.ref.Reference.reachabilityFence(this);");
            s.line("return new " + c + "(address, true);");
            s.mid("} finally {");
            s.line("CallGuard.exit($$in);");
            s.close("}");
            s.close("}");
        }
        s.line("");
        s.line("@Override");
        s.open("public " + c + " retain() {");
        s.line("super.retain();");
        s.line("return this;");
        s.close("}");
        s.line("");
        s.line("@Override");
        s.open("public " + c + " touch(Object hint) {");
        s.line("super.touch(hint);");
        s.line("return this;");
        s.close("}");
        if (h.ownable()) {
            s.line("");
            s.doc("The release action: runs once, from close, the last release or the Cleaner; never refers to the handle.");
            s.open("private static void releaseObject(long address, long byteSize) {");
            s.line("MemorySegment object = MemorySegment.ofAddress(address);");
            if (h.releaseDeclared()) {
                if (h.releaseStatus() != null) {
                    s.line(n.exception() + ".check_" + h.releaseStatus() + "(" + Carriers.toLong(h.releaseStatusKind(),
                            n.raw() + "." + h.release() + "(object)") + ", " + JavaNames.literal(h.release()) + ");");
                } else {
                    s.line(n.raw() + "." + h.release() + "(object);");
                }
            } else {
                s.open("try {");
                s.line("$release.invokeExact(object);");
                s.mid("} catch (Throwable t) {");
                s.line("throw Unchecked.of(t);");
                s.close("}");
            }
            s.close("}");
        }
        s.close("}");
        return s.toString();
    }
}
