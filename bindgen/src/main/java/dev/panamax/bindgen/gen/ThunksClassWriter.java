package dev.panamax.bindgen.gen;

import dev.panamax.bindgen.gen.BindingPlan.ThunkPlan;
import dev.panamax.core.abi.CFunctionType;
import dev.panamax.core.abi.CType;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The batchable functions bound at {@code Tier.BATCHED}: one {@code BatchedFunction} each, declared
 * by the same C model the C glue was emitted from, critical when declared so, with the status rule of
 * its error convention, recorded into a {@code Batch} with {@code record(batch, args...)}. Their
 * thunks come from the library itself when it carries them, else from the glue library the build
 * compiled into the jar.
 */
final class ThunksClassWriter {
    private ThunksClassWriter() {}

    /** Static-initializer bytes of one thunk's field: the symbol, the C type's arguments, the recorder call. */
    private static int initBytes(ThunkPlan t) {
        return 40 + 16 * t.function().type().params().size();
    }

    /** Static-initializer bytes of one struct or union type's field. */
    private static int initBytes(CType.Aggregate a) {
        return 40 + 24 * a.fields().size();
    }

    /**
     * The thunks class, class name to source: one class while its static initializer fits; else a chain of
     * parts used as one class ({@link ClassSplit#partName}), the struct and union types they share in holders
     * of their own ({@code CThunksTypes1}, ...).
     */
    static Map<String, String> write(BindingPlan plan) {
        BindingPlan.Names n = plan.names();
        List<CType.Aggregate> aggregates = new ArrayList<>();
        for (ThunkPlan t : plan.thunks()) aggregates(t.function().type(), aggregates);
        int total = plan.thunks().stream().mapToInt(ThunksClassWriter::initBytes).sum()
                + aggregates.stream().mapToInt(ThunksClassWriter::initBytes).sum();
        Map<String, String> out = new LinkedHashMap<>();
        Map<String, String> typeRef = new HashMap<>();
        if (total <= ClassSplit.INIT_BUDGET) {
            for (CType.Aggregate a : aggregates) typeRef.put(a.name(), "$$T_" + a.name());
            out.put(n.thunks(), part(plan, plan.thunks(), 0, 1, aggregates, typeRef));
            return out;
        }
        List<List<CType.Aggregate>> typeHolders = ClassSplit.split(aggregates, ThunksClassWriter::initBytes, ClassSplit.INIT_BUDGET, Integer.MAX_VALUE);
        for (int i = 0; i < typeHolders.size(); i++) {
            if (typeHolders.get(i).isEmpty()) continue;
            String holder = n.thunks() + "Types" + (i + 1);
            for (CType.Aggregate a : typeHolders.get(i)) typeRef.put(a.name(), holder + ".$$T_" + a.name());
            Source s = new Source(plan, List.of("dev.panamax.core.abi.CType", "java.util.List"));
            s.doc("C struct and union types of {@link " + n.thunks() + "}'s functions. Package-private.");
            s.open("final class " + holder + " {");
            s.line("private " + holder + "() {}");
            s.line("");
            for (CType.Aggregate a : typeHolders.get(i)) s.line("static final CType $$T_" + a.name() + " = " + aggregate(a, typeRef) + ";");
            s.close("}");
            out.put(holder, s.toString());
        }
        List<List<ThunkPlan>> parts = ClassSplit.split(plan.thunks(), ThunksClassWriter::initBytes, ClassSplit.INIT_BUDGET, Integer.MAX_VALUE);
        for (int i = 0; i < parts.size(); i++) {
            out.put(ClassSplit.partName(n.thunks(), i, parts.size()), part(plan, parts.get(i), i, parts.size(), List.of(), typeRef));
        }
        return out;
    }

    /** Part {@code i} of {@code parts}; the first declares the glue library and the recorder; {@code inline} types are its own fields. */
    private static String part(BindingPlan plan, List<ThunkPlan> thunks, int i, int parts, List<CType.Aggregate> inline,
                               Map<String, String> typeRef) {
        BindingPlan.Names n = plan.names();
        Source s = new Source(plan, List.of("dev.panamax.core.BundledNatives", "dev.panamax.core.abi.CFunctionType",
                "dev.panamax.core.abi.CType", "dev.panamax.core.batch.Batch", "dev.panamax.core.batch.BatchEntry",
                "dev.panamax.core.batch.StatusRule", "dev.panamax.core.call.BatchedFunction",
                "dev.panamax.core.call.NativeLibrary", "dev.panamax.core.call.Tier", "dev.panamax.core.call.TypedRecorder",
                "java.lang.foreign.MemorySegment", "java.util.List"));
        if (i == parts - 1) {
            s.doc("The batchable functions of " + plan.library() + " bound at {@code Tier.BATCHED}, to record into a {@code Batch} with the",
                    "typed layer's arguments: {@code " + n.thunks() + "." + plan.thunks().getFirst().name() + ".record(batch, ...)}, handles",
                    "kept alive until the batch is closed, replayed with new arguments through the entry's parameter block. Their",
                    "MetaABI thunks come from the library itself if it carries them, else from {@code " + plan.glueLibraryFile() + "} in",
                    "the jar.");
        } else {
            s.doc(ClassSplit.partDoc(n.thunks(), i, parts));
        }
        ClassSplit.openPart(s, n.thunks(), i, parts);
        s.line("");
        String access = parts == 1 ? "private " : "";
        if (i == 0) {
            s.line(access + "static final NativeLibrary $$glue = NativeLibrary.deferred(" + JavaNames.literal("the thunks of " + plan.library())
                    + ", " + ClassSplit.partName(n.thunks(), 0, parts) + "::$$glue);");
        }
        for (CType.Aggregate a : inline) s.line("private static final CType $$T_" + a.name() + " = " + aggregate(a, typeRef) + ";");
        s.line("");
        for (ThunkPlan t : thunks) {
            s.line("public static final " + t.recorderClass() + " " + t.name() + " = new " + t.recorderClass() + "($$recorder("
                    + JavaNames.literal(t.name()) + ", " + functionType(t.function().type(), typeRef) + ", " + t.critical() + ", "
                    + (t.statusRule() == null ? "null" : t.statusRule()) + "));");
        }
        if (i == 0) {
            s.line("");
            s.doc("The library that exports the thunks: the bound library itself, or the glue library from the jar; found on first use.");
            s.open(access + "static NativeLibrary $$glue() {");
            s.line("NativeLibrary library = " + n.raw() + ".$$library;");
            s.line("if (library.find(" + JavaNames.literal("pmx_thunk_" + plan.thunks().getFirst().name()) + ").isPresent()) return library;");
            s.line("return NativeLibrary.load(BundledNatives.extract(" + n.thunks() + ".class, "
                    + JavaNames.literal(plan.glueLibraryFile()) + "));");
            s.close("}");
            s.line("");
            s.open(access + "static BatchedFunction $$recorder(String symbol, CFunctionType type, boolean critical, StatusRule status) {");
            s.line("BatchedFunction f = $$glue.function(symbol).type(type).tier(Tier.BATCHED).recorder();");
            s.line("if (critical) f = f.asCritical();");
            s.line("return status == null ? f : f.withStatus(status);");
            s.close("}");
        }
        for (ThunkPlan t : thunks) recorder(s, t);
        s.close("}");
        return s.toString();
    }

    /** The nested class whose {@code record} takes {@code t}'s typed arguments. */
    private static void recorder(Source s, ThunkPlan t) {
        List<String> params = new ArrayList<>();
        List<String> names = new ArrayList<>();
        params.add("Batch $$batch");
        names.add("$$batch");
        for (BindingPlan.RecordParam p : t.params()) {
            params.add(p.javaType() + " " + p.javaName());
            names.add(p.javaName());
        }
        s.line("");
        s.doc("Records {@code " + t.name() + "} with typed arguments; handles are kept alive until the batch is closed.");
        s.open("public static final class " + t.recorderClass() + " extends TypedRecorder {");
        s.open("private " + t.recorderClass() + "(BatchedFunction function) {");
        s.line("super(function);");
        s.close("}");
        s.line("");
        s.doc("Appends a call of {@code " + t.name() + "} to the batch; read its result from the entry after a run.");
        s.open("public BatchEntry record(" + String.join(", ", params) + ") {");
        s.line("return function().record(" + String.join(", ", names) + ");");
        s.close("}");
        s.close("}");
    }

    /** The struct and union types {@code t} uses, each once, nested ones before those that contain them. */
    private static void aggregates(CFunctionType t, List<CType.Aggregate> out) {
        aggregates(t.returns(), out);
        for (CFunctionType.Param p : t.params()) aggregates(p.type(), out);
    }

    private static void aggregates(CType t, List<CType.Aggregate> out) {
        switch (t) {
            case CType.FunctionPointer f -> aggregates(f.signature(), out);
            case CType.Array a -> aggregates(a.element(), out);
            case CType.Aggregate a -> {
                if (out.stream().anyMatch(seen -> seen.name().equals(a.name()))) return;
                for (CType.Field f : a.fields()) aggregates(f.type(), out);
                out.add(a);
            }
            default -> { }
        }
    }

    /** The initializer of an aggregate's field; the aggregates it holds are referred to through {@code typeRef}. */
    private static String aggregate(CType.Aggregate a, Map<String, String> typeRef) {
        List<String> fields = new ArrayList<>();
        for (CType.Field f : a.fields()) {
            fields.add("new CType.Field(" + JavaNames.literal(f.name()) + ", " + type(f.type(), typeRef) + ")");
        }
        String kind = a instanceof CType.Struct ? "Struct" : "Union";
        return "new CType." + kind + "(" + JavaNames.literal(a.name()) + ", List.of(" + String.join(", ", fields) + "), " + a.alignAs() + ")";
    }

    private static String functionType(CFunctionType t, Map<String, String> typeRef) {
        StringBuilder b = new StringBuilder("CFunctionType.of(").append(type(t.returns(), typeRef));
        for (CFunctionType.Param p : t.params()) {
            b.append(", ").append(JavaNames.literal(p.name())).append(", ").append(type(p.type(), typeRef));
        }
        return b.append(')').toString();
    }

    /** A C type as Java source; aggregates are fields ({@code typeRef}) initialized before use. */
    private static String type(CType t, Map<String, String> typeRef) {
        return switch (t) {
            case CType.Void v -> "CType.VOID";
            case CType.Scalar s -> "CType." + s.kind().name();
            case CType.Pointer p -> "CType.POINTER";
            case CType.FunctionPointer f -> "new CType.FunctionPointer(" + functionType(f.signature(), typeRef) + ")";
            case CType.Array a -> "new CType.Array(" + type(a.element(), typeRef) + ", " + a.length() + ")";
            case CType.Aggregate a -> typeRef.get(a.name());
        };
    }
}
