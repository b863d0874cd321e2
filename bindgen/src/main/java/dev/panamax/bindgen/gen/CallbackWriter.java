package dev.panamax.bindgen.gen;

import dev.panamax.bindgen.gen.BindingPlan.CallbackParam;
import dev.panamax.bindgen.gen.BindingPlan.CallbackPlan;

import java.util.ArrayList;
import java.util.List;

/**
 * A callback type as a functional interface. A void callback with a user-data parameter goes
 * through one shared {@code CallbackRegistry} per type: the typed layer registers the handler and
 * passes its id as the user data, so native code never holds a Java reference. Any other callback
 * gets an upcall stub per handler ({@code stub(arena, handler)}). Either way no exception reaches
 * native code. Handlers run on the thread that calls back (the library's own, often): handles
 * passed in are borrowed, valid during the call.
 */
final class CallbackWriter {
    private CallbackWriter() {}

    static String write(BindingPlan plan, CallbackPlan cb) {
        String c = cb.className();
        Source s = new Source(plan, List.of("dev.panamax.core.memory.AllocatesForCaller", "dev.panamax.core.binding.Staging", "dev.panamax.core.upcall.CallbackRegistry", "dev.panamax.core.upcall.UpcallStub",
                "dev.panamax.core.upcall.Upcalls", "java.lang.foreign.Arena", "java.lang.foreign.FunctionDescriptor",
                "java.lang.foreign.MemorySegment", "java.lang.foreign.ValueLayout", "java.lang.invoke.MethodHandle",
                "java.lang.invoke.MethodHandles"));
        boolean registry = cb.usesRegistry();
        List<CallbackParam> handlerParams = new ArrayList<>();
        for (int i = 0; i < cb.params().size(); i++) if (!registry || i != cb.userDataIndex()) handlerParams.add(cb.params().get(i));
        s.doc("A Java handler for the C callback {@code " + cb.declName() + "} of " + plan.library() + ".",
                registry ? "Passed to the typed layer, it is registered in a shared registry and reached through one stub;"
                        + (cb.calls() == dev.panamax.bindgen.decl.TypeDecl.Callback.Calls.ONCE
                        ? " the library calls it once, then the registration is dropped." : " it stays registered.")
                        : "{@link #stub} makes the function pointer to pass (it lives as long as its arena).",
                "It runs on the thread that calls back, often the library's own: handles it gets are borrowed for the call,",
                "and an exception it throws is caught and reported at the native boundary, never thrown into C.");
        s.line("@FunctionalInterface");
        s.line("@AllocatesForCaller");
        s.open("public interface " + c + " {");
        List<String> typedParams = new ArrayList<>();
        for (CallbackParam p : handlerParams) typedParams.add(p.typedType() + " " + p.javaName());
        s.doc("Called back with the arguments of {@code " + cb.declName() + "}" + (registry ? " (the user data left out)." : "."));
        s.line(cb.returnCarrier() + " invoke(" + String.join(", ", typedParams) + ");");
        s.line("");
        s.doc("The C signature, user data included.");
        List<String> layouts = cb.params().stream().map(CallbackParam::layout).toList();
        s.line("FunctionDescriptor DESCRIPTOR = " + (cb.returnLayout() == null
                ? "FunctionDescriptor.ofVoid(" + String.join(", ", layouts) + ");"
                : "FunctionDescriptor.of(" + cb.returnLayout() + (layouts.isEmpty() ? "" : ", ") + String.join(", ", layouts) + ");"));
        s.line("");
        s.doc("The same callback with raw C values" + (registry ? ", as the registry calls it." : "."));
        s.line("@FunctionalInterface");
        s.open("interface Native {");
        List<String> rawParams = new ArrayList<>();
        for (CallbackParam p : handlerParams) rawParams.add(p.carrier() + " " + p.javaName());
        s.line(cb.returnCarrier() + " invoke(" + String.join(", ", rawParams) + ");");
        s.close("}");
        s.line("");
        s.doc("{@code handler} as a handler of raw values: borrowed handles and strings made from the addresses.");
        s.open("static Native adapt(" + c + " handler) {");
        List<String> lambdaParams = new ArrayList<>();
        List<String> args = new ArrayList<>();
        for (int i = 0; i < handlerParams.size(); i++) {
            CallbackParam p = handlerParams.get(i);
            lambdaParams.add("$" + i);
            args.add(p.handleClass() != null ? p.handleClass() + ".borrowed($" + i + ")"
                    : p.string() ? "Staging.string($" + i + ")" : "$" + i);
        }
        String call = "handler.invoke(" + String.join(", ", args) + ")";
        s.line("return (" + String.join(", ", lambdaParams) + ") -> " + call + ";");
        s.close("}");
        if (registry) {
            s.line("");
            s.doc("The shared registry of this callback type: inline dispatch (the handler runs before the C caller",
                    "continues), one stub for every handler.");
            s.open("static CallbackRegistry<Native> registry() {");
            s.line("return Holder.REGISTRY;");
            s.close("}");
            s.line("");
            s.doc("Registers {@code handler} (once: dropped after its first call); returns the id to pass as user data.");
            s.open("static int register(" + c + " handler, boolean once) {");
            s.line("Native n = adapt(handler);");
            s.line("return once ? Holder.REGISTRY.registerOnce(n) : Holder.REGISTRY.register(n);");
            s.close("}");
            s.line("");
            s.doc("Holds the registry, made on first use and alive for the life of the JVM.");
            s.open("final class Holder {");
            s.line("static final CallbackRegistry<Native> REGISTRY = CallbackRegistry.builder(Native.class, DESCRIPTOR, "
                    + cb.userDataIndex() + ")");
            s.line("        .name(" + JavaNames.literal(plan.library() + "." + cb.declName()) + ").inline()"
                    + ".lookup(MethodHandles.lookup()).build(Arena.global());");
            s.line("");
            s.line("private Holder() {}");
            s.close("}");
        } else {
            s.line("");
            s.doc("An upcall stub calling {@code handler}, alive as long as {@code arena}; when the handler throws, the",
                    "stub returns " + (cb.returnCarrier().equals("void") ? "normally." : "zero."));
            s.open("static UpcallStub stub(Arena arena, " + c + " handler) {");
            s.line("MethodHandle target;");
            s.open("try {");
            s.line("target = MethodHandles.lookup().findVirtual(Native.class, \"invoke\", DESCRIPTOR.toMethodType())"
                    + ".bindTo(adapt(handler));");
            s.mid("} catch (ReflectiveOperationException e) {");
            s.line("throw new IllegalStateException(e);");
            s.close("}");
            String name = JavaNames.literal(plan.library() + "." + cb.declName());
            if (cb.returnCarrier().equals("void")) {
                s.line("return Upcalls.voidStub(" + name + ", target, DESCRIPTOR, arena);");
            } else {
                String fallback = cb.returnCarrier().equals("MemorySegment") && cb.returnLayout().endsWith(".LAYOUT")
                        ? "MemorySegment.ofArray(new byte[(int) " + cb.returnLayout() + ".byteSize()])"
                        : Carriers.zero(cb.returnCarrier());
                s.line("return Upcalls.stub(" + name + ", target, DESCRIPTOR, " + fallback + ", arena);");
            }
            s.close("}");
        }
        s.close("}");
        return s.toString();
    }
}
