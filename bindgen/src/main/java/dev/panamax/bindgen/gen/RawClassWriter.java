package dev.panamax.bindgen.gen;

import dev.panamax.bindgen.gen.BindingPlan.ConstantPlan;
import dev.panamax.bindgen.gen.BindingPlan.RawFunction;
import dev.panamax.bindgen.gen.BindingPlan.RawParam;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The raw layer, as the declarations contract fixes it: one final class, constants as
 * {@code public static final} fields, one static method per function named as its C symbol. Each
 * method calls a downcall handle declared through the core's call layer on the function's tier,
 * linked on first use and held in a {@code static final} field, so the JIT inlines it like a
 * hand-written FFM handle.
 */
final class RawClassWriter {
    private RawClassWriter() {}

    static String write(BindingPlan plan) {
        Source s = new Source(plan, List.of("dev.panamax.core.binding.Unchecked", "dev.panamax.core.call.NativeLibrary", "dev.panamax.core.call.Tier",
                "java.lang.foreign.MemorySegment", "java.lang.foreign.SegmentAllocator", "java.lang.foreign.ValueLayout",
                "java.lang.invoke.MethodHandle", "java.util.List"));
        BindingPlan.Names n = plan.names();
        s.doc("The raw layer of " + plan.library() + " ({@code " + plan.sourceName() + "}): one static method per C function,",
                "named as its symbol, with C scalars as Java primitives and every pointer, handle, callback and",
                "struct as a {@link MemorySegment}. Status codes are returned as they are; the typed layer",
                "{@link " + n.typed() + "} checks them. A downcall is linked on its first call, on the tier its",
                "declaration gives.");
        s.open("public final class " + n.raw() + " {");
        for (ConstantPlan c : plan.constants()) {
            s.line("public static final " + c.javaType() + " " + c.name() + " = " + c.literal() + ";");
        }
        if (!plan.constants().isEmpty()) s.line("");
        List<String> quoted = plan.libraryNames().stream().map(JavaNames::literal).toList();
        s.doc("The library, loaded when this class initializes: " + String.join(", ", plan.libraryNames()) + ", the first that loads.");
        s.line("static final NativeLibrary $$library = NativeLibrary.loadFirst(List.of(" + String.join(", ", quoted) + "));");
        s.line("");
        for (RawFunction f : plan.rawFunctions()) {
            s.line(handleField("$" + f.name(), "$$library", f, f.params().stream().map(RawParam::layout).toList()));
        }
        if (!plan.rawFunctions().isEmpty()) s.line("");
        s.line("private " + n.raw() + "() {}");
        for (RawFunction f : plan.rawFunctions()) method(s, f);
        s.close("}");
        return s.toString();
    }

    /** The {@code static final} field of a downcall declared through the core's call layer, linked on first call. */
    static String handleField(String field, String library, RawFunction f, List<String> layouts) {
        StringBuilder b = new StringBuilder("private static final MethodHandle " + field + " = " + library + ".function("
                + JavaNames.literal(f.name()) + ")");
        if (f.returnLayout() != null) b.append(".returns(").append(f.returnLayout()).append(")");
        if (!layouts.isEmpty()) b.append(".params(").append(String.join(", ", layouts)).append(")");
        b.append(".tier(Tier.").append(f.tier()).append(").link();");
        return b.toString();
    }

    /** A downcall method's body: the handle invoked exactly, a checked throwable rethrown unchecked. */
    static void invokeBody(Source s, String field, String returnCarrier, List<String> args) {
        s.open("try {");
        String call = field + ".invokeExact(" + String.join(", ", args) + ");";
        s.line(returnCarrier.equals("void") ? call : "return (" + returnCarrier + ") " + call);
        s.mid("} catch (Throwable $t) {");
        s.line("throw Unchecked.of($t);");
        s.close("}");
    }

    private static void method(Source s, RawFunction f) {
        List<String> params = new ArrayList<>();
        List<String> args = new ArrayList<>();
        if (f.returnsGroup()) {
            params.add("SegmentAllocator $allocator");
            args.add("$allocator");
        }
        for (RawParam p : f.params()) {
            params.add(p.carrier() + " " + p.javaName());
            args.add(p.javaName());
        }
        s.line("");
        List<String> doc = new ArrayList<>();
        doc.add("{@code " + JavaNames.doc(f.cSignature()) + "}; tier " + f.tier().toLowerCase(Locale.ROOT)
                + (f.decl().returns().status() != null ? ", returns status " + f.decl().returns().status() + " (unchecked)" : "")
                + ".");
        if (f.returnsGroup()) doc.add("The struct result is allocated with {@code $allocator}.");
        s.doc(doc.toArray(String[]::new));
        s.open("public static " + f.returnCarrier() + " " + f.name() + "(" + String.join(", ", params) + ") {");
        invokeBody(s, "$" + f.name(), f.returnCarrier(), args);
        s.close("}");
    }
}
