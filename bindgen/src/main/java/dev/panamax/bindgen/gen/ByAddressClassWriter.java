package dev.panamax.bindgen.gen;

import dev.panamax.bindgen.gen.BindingPlan.RawFunction;
import dev.panamax.bindgen.gen.BindingPlan.RawParam;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The downcalls the typed layer makes when it passes pointers of its own as addresses: one
 * package-private static method per function and shape (which parameters are addresses), linked on
 * first use like the raw layer's, on the function's declared tier except {@code critical}, which the
 * typed layer links {@link #typedTier standard}. On the 64-bit ABIs Panamax runs
 * on a pointer argument travels exactly as a 64-bit integer does, so the same symbol is linked with
 * {@code JAVA_LONG} in those positions; the class refuses to initialize where addresses are not 64
 * bits wide. The raw layer is untouched: this class is not part of the contract.
 */
final class ByAddressClassWriter {
    private ByAddressClassWriter() {}

    /** One by-address downcall: the raw function and which of its parameters are addresses. */
    record Shape(RawFunction raw, List<Boolean> addresses) {
        Shape {
            addresses = List.copyOf(addresses);
        }

        /** The handle field's name: the symbol and the positions passed as addresses. */
        String field() {
            StringBuilder b = new StringBuilder("$").append(raw.name());
            for (int i = 0; i < addresses.size(); i++) if (addresses.get(i)) b.append('$').append(i);
            return b.toString();
        }
    }

    /**
     * Which parameters of {@code f} go to C as addresses: those {@link TypedFunction#byAddress} names
     * whose raw carrier is a pointer (not a struct by value, not an integer-typed handle).
     */
    static List<Boolean> addresses(TypedFunction f, RawFunction raw) {
        List<Boolean> mask = new ArrayList<>();
        for (int i = 0; i < f.params().size(); i++) {
            RawParam rp = raw.params().get(i);
            mask.add(f.byAddress(f.params().get(i)) && rp.carrier().equals("MemorySegment") && rp.layout().equals("ValueLayout.ADDRESS"));
        }
        return mask;
    }

    /** Whether the typed method for {@code f} calls through this class. */
    static boolean calls(TypedFunction f, RawFunction raw) {
        return addresses(f, raw).contains(true);
    }

    /** The shapes the typed layer needs, in the order of its methods, each once. */
    static List<Shape> shapes(BindingPlan plan) {
        Map<String, RawFunction> raw = plan.rawFunctions().stream().collect(Collectors.toMap(RawFunction::name, Function.identity()));
        Map<String, Shape> shapes = new LinkedHashMap<>();
        for (TypedFunction f : plan.typedFunctions()) {
            RawFunction r = raw.get(f.name());
            if (!calls(f, r) || LifecycleCall.of(plan.handles(), f) != null) continue;
            Shape shape = new Shape(r, addresses(f, r));
            shapes.putIfAbsent(shape.field(), shape);
        }
        return List.copyOf(shapes.values());
    }

    /** The by-address classes: their sources by class name, and the class of each shape (by {@link Shape#field()}). */
    record Output(Map<String, String> sources, Map<String, String> classOfShape) {
        Output {
            sources = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(sources));
            classOfShape = Map.copyOf(classOfShape);
        }
    }

    /**
     * The classes for {@link #shapes}: one while its static initializer fits ({@code CByAddress}), then
     * {@code CByAddress2}, ...; each declares its handles when first used, a few hundred at most.
     */
    static Output write(BindingPlan plan) {
        List<List<Shape>> chunks = ClassSplit.split(shapes(plan), sh -> ClassSplit.downcallInitBytes(sh.raw().params().size()),
                ClassSplit.INIT_BUDGET, ClassSplit.HOLDER_FUNCTIONS);
        Map<String, String> sources = new LinkedHashMap<>();
        Map<String, String> classOf = new HashMap<>();
        for (int i = 0; i < chunks.size(); i++) {
            if (chunks.get(i).isEmpty()) continue;
            String name = plan.names().byAddress() + (i == 0 ? "" : Integer.toString(i + 1));
            for (Shape sh : chunks.get(i)) classOf.put(sh.field(), name);
            sources.put(name, write(plan, name, chunks.get(i)));
        }
        return new Output(sources, classOf);
    }

    private static String write(BindingPlan plan, String name, List<Shape> shapes) {
        BindingPlan.Names n = plan.names();
        Source s = new Source(plan, List.of("dev.panamax.core.binding.Unchecked", "dev.panamax.core.call.Tier", "java.lang.foreign.MemorySegment",
                "java.lang.foreign.SegmentAllocator", "java.lang.foreign.ValueLayout", "java.lang.invoke.MethodHandle"));
        s.doc("Downcalls of " + plan.library() + " for the typed layer {@link " + n.typed() + "}: the functions of {@link " + n.raw() + "}",
                "with the pointers the typed layer makes itself (handles' addresses, its scratch memory) passed as 64-bit",
                "addresses, so the linker does no per-segment work for them. Package-private; linked on first call.");
        s.open("final class " + name + " {");
        s.open("static {");
        s.open("if (ValueLayout.ADDRESS.byteSize() != Long.BYTES) {");
        s.line("throw new ExceptionInInitializerError(\"" + n.byAddress() + " passes pointers as 64-bit addresses; this platform's are \"");
        s.line("        + ValueLayout.ADDRESS.byteSize() * 8 + \" bits wide\");");
        s.close("}");
        s.close("}");
        s.line("");
        for (Shape shape : shapes) {
            RawFunction f = shape.raw();
            List<String> layouts = new ArrayList<>();
            for (int i = 0; i < f.params().size(); i++) {
                layouts.add(shape.addresses().get(i) ? "ValueLayout.JAVA_LONG" : f.params().get(i).layout());
            }
            s.line(RawClassWriter.handleField("private static final", shape.field(), n.raw() + ".$$library", f, layouts, typedTier(f.tier())));
        }
        s.line("");
        s.line("private " + name + "() {}");
        for (Shape shape : shapes) method(s, shape);
        s.close("}");
        return s.toString();
    }

    /**
     * The tier the typed layer links a function of tier {@code declared} at: {@code critical} becomes
     * {@code standard}. A critical downcall does not poll for a safepoint, and C2 drops the safepoint
     * poll of a loop whose body calls one (it takes the call for a safepoint): a thread calling a typed
     * getter in a loop that ends when another thread closes the handle then keeps every other thread
     * stopped at the next safepoint, the closer included, for good. A standard downcall polls as it
     * returns. The raw layer keeps the declared tier; {@code critical_heap} (heap arrays in place) needs
     * the critical link and keeps it.
     */
    static String typedTier(String declared) {
        return declared.equals("CRITICAL") ? "STANDARD" : declared;
    }

    private static void method(Source s, Shape shape) {
        RawFunction f = shape.raw();
        List<String> params = new ArrayList<>();
        List<String> args = new ArrayList<>();
        if (f.returnsGroup()) {
            params.add("SegmentAllocator $allocator");
            args.add("$allocator");
        }
        for (int i = 0; i < f.params().size(); i++) {
            RawParam p = f.params().get(i);
            params.add((shape.addresses().get(i) ? "long" : p.carrier()) + " " + p.javaName());
            args.add(p.javaName());
        }
        s.line("");
        s.doc("{@code " + JavaNames.doc(f.cSignature()) + "}; tier " + typedTier(f.tier()).toLowerCase(Locale.ROOT) + "; the {@code long}s are addresses.");
        s.open("static " + f.returnCarrier() + " " + f.name() + "(" + String.join(", ", params) + ") {");
        RawClassWriter.invokeBody(s, shape.field(), f.returnCarrier(), args);
        s.close("}");
    }
}
