package dev.panamax.bindgen.gen;

import dev.panamax.bindgen.gen.BindingPlan.ConstantPlan;
import dev.panamax.bindgen.gen.BindingPlan.RawFunction;
import dev.panamax.bindgen.gen.BindingPlan.RawParam;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The raw layer, as the declarations contract fixes it: one final class, constants as
 * {@code public static final} fields, one static method per function named as its C symbol. Each
 * method calls a downcall handle declared through the core's call layer on the function's tier,
 * linked on first use and held in a {@code static final} field, so the JIT inlines it like a
 * hand-written FFM handle.
 *
 * <p>The handles live in package-private holder classes of at most {@link ClassSplit#HOLDER_FUNCTIONS}
 * functions ({@code CDowncalls1}, ...), so a program declares only the holders of the functions it
 * calls. A library too large for one class file is cut into a chain of parts ({@link ClassSplit#partName}),
 * still used as one class.
 */
final class RawClassWriter {
    private RawClassWriter() {}

    private static final List<String> IMPORTS = List.of("dev.panamax.core.binding.Unchecked", "dev.panamax.core.call.NativeLibrary",
            "dev.panamax.core.call.Tier", "java.lang.foreign.MemorySegment", "java.lang.foreign.SegmentAllocator",
            "java.lang.foreign.ValueLayout", "java.lang.invoke.MethodHandle", "java.util.List");

    /** A member of the raw class: a constant or a function. */
    private sealed interface Member {
        record Constant(ConstantPlan plan) implements Member {}
        record Method(RawFunction function) implements Member {}
    }

    /** Constant-pool entries of a constant (name, value, type) and of a method (name, descriptor, its handle's reference, invokeExact's type). */
    private static int poolEntries(Member m) {
        return switch (m) {
            case Member.Constant c -> 4;
            case Member.Method f -> 10 + f.function().params().size();
        };
    }

    /** The raw class (and its parts, when one class file cannot hold it) and the holders of its handles: class name to source. */
    static Map<String, String> write(BindingPlan plan) {
        BindingPlan.Names n = plan.names();
        Map<String, String> out = new LinkedHashMap<>();
        // holders: the handles, a few hundred per class, each class initialized on the first call of one of its functions
        List<List<RawFunction>> holders = ClassSplit.split(plan.rawFunctions(), f -> ClassSplit.downcallInitBytes(f.params().size()),
                ClassSplit.INIT_BUDGET, ClassSplit.HOLDER_FUNCTIONS);
        Map<String, String> holderOf = new HashMap<>();
        for (int i = 0; i < holders.size(); i++) {
            if (holders.get(i).isEmpty()) continue;
            String holder = holderName(n, i);
            for (RawFunction f : holders.get(i)) holderOf.put(f.name(), holder);
            out.put(holder, holder(plan, holder, holders.get(i)));
        }
        List<Member> members = new ArrayList<>();
        for (ConstantPlan c : plan.constants()) members.add(new Member.Constant(c));
        for (RawFunction f : plan.rawFunctions()) members.add(new Member.Method(f));
        List<List<Member>> parts = ClassSplit.split(members, RawClassWriter::poolEntries, ClassSplit.POOL_BUDGET, Integer.MAX_VALUE);
        for (int i = 0; i < parts.size(); i++) {
            out.put(ClassSplit.partName(n.raw(), i, parts.size()), part(plan, parts.get(i), i, parts.size(), holderOf));
        }
        return out;
    }

    /** The holder class of the {@code i}th run of handles. */
    static String holderName(BindingPlan.Names n, int i) {
        return n.raw() + "Downcalls" + (i + 1);
    }

    private static String holder(BindingPlan plan, String name, List<RawFunction> functions) {
        BindingPlan.Names n = plan.names();
        Source s = new Source(plan, List.of("dev.panamax.core.call.Tier", "java.lang.foreign.ValueLayout", "java.lang.invoke.MethodHandle"));
        s.doc("Downcall handles of {@link " + n.raw() + "}, declared when this class initializes (on the first call of one of",
                "them) and each linked on its own first call. Package-private.");
        s.open("final class " + name + " {");
        s.line("private " + name + "() {}");
        s.line("");
        for (RawFunction f : functions) {
            s.line(handleField("static final", "$" + f.name(), n.raw() + ".$$library", f, f.params().stream().map(RawParam::layout).toList()));
        }
        s.close("}");
        return s.toString();
    }

    private static String part(BindingPlan plan, List<Member> members, int i, int parts, Map<String, String> holderOf) {
        Source s = new Source(plan, IMPORTS);
        BindingPlan.Names n = plan.names();
        boolean top = i == parts - 1;
        List<String> doc = new ArrayList<>(List.of("The raw layer of " + plan.library() + " ({@code " + plan.sourceName() + "}): one static method per C function,",
                "named as its symbol, with C scalars as Java primitives and every pointer, handle, callback and",
                "struct as a {@link MemorySegment}. Status codes are returned as they are; the typed layer",
                "{@link " + n.typed() + "} checks them. A downcall is linked on its first call, on the tier its",
                "declaration gives."));
        if (!top) doc = List.of(ClassSplit.partDoc(n.raw(), i, parts));
        s.doc(doc.toArray(String[]::new));
        ClassSplit.openPart(s, n.raw(), i, parts);
        boolean constants = false;
        for (Member m : members) {
            if (!(m instanceof Member.Constant(ConstantPlan c))) continue;
            if (!constants) s.line("");
            constants = true;
            s.line("public static final " + c.javaType() + " " + c.name() + " = " + c.literal() + ";");
        }
        if (top) {
            List<String> quoted = plan.libraryNames().stream().map(JavaNames::literal).toList();
            s.line("");
            s.doc("The library, loaded on the first call: " + String.join(", ", plan.libraryNames()) + ", the first that loads. A library",
                    "that is not installed fails each call with the same {@code LibraryNotFoundException}, never this class's initialization.");
            s.line("static final NativeLibrary $$library = NativeLibrary.deferred(List.of(" + String.join(", ", quoted) + "));");
        }
        for (Member m : members) {
            if (m instanceof Member.Method(RawFunction f)) method(s, f, holderOf.get(f.name()));
        }
        s.close("}");
        return s.toString();
    }

    /** The {@code static final} field of a downcall declared through the core's call layer, linked on first call. */
    static String handleField(String modifiers, String field, String library, RawFunction f, List<String> layouts) {
        return handleField(modifiers, field, library, f, layouts, f.tier());
    }

    /** {@link #handleField(String, String, String, RawFunction, List)} linked at {@code tier} instead of the declared one. */
    static String handleField(String modifiers, String field, String library, RawFunction f, List<String> layouts, String tier) {
        StringBuilder b = new StringBuilder(modifiers + " MethodHandle " + field + " = " + library + ".function("
                + JavaNames.literal(f.name()) + ")");
        if (f.returnLayout() != null) b.append(".returns(").append(f.returnLayout()).append(")");
        if (!layouts.isEmpty()) b.append(".params(").append(String.join(", ", layouts)).append(")");
        b.append(".tier(Tier.").append(tier).append(").link();");
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

    private static void method(Source s, RawFunction f, String holder) {
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
        invokeBody(s, holder + ".$" + f.name(), f.returnCarrier(), args);
        s.close("}");
    }
}
