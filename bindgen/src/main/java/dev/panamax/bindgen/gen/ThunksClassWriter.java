package dev.panamax.bindgen.gen;

import dev.panamax.bindgen.gen.BindingPlan.ThunkPlan;
import dev.panamax.core.abi.CFunctionType;
import dev.panamax.core.abi.CType;

import java.util.ArrayList;
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

    static String write(BindingPlan plan) {
        BindingPlan.Names n = plan.names();
        Source s = new Source(plan, List.of("dev.panamax.core.BundledNatives", "dev.panamax.core.abi.CFunctionType",
                "dev.panamax.core.abi.CType", "dev.panamax.core.batch.StatusRule", "dev.panamax.core.call.BatchedFunction",
                "dev.panamax.core.call.NativeLibrary", "dev.panamax.core.call.Tier", "java.util.List"));
        s.doc("The batchable functions of " + plan.library() + " bound at {@code Tier.BATCHED}, to record into a {@code Batch}:",
                "{@code " + n.thunks() + "." + plan.thunks().getFirst().name() + ".record(batch, args...)}, replayed with new",
                "arguments through the entry's parameter block. Their MetaABI thunks come from the library itself if it carries",
                "them, else from {@code " + plan.glueLibraryFile() + "} in the jar.");
        s.open("public final class " + n.thunks() + " {");
        Map<String, String> structFields = new LinkedHashMap<>();
        List<String> thunkLines = new ArrayList<>();
        for (ThunkPlan t : plan.thunks()) {
            thunkLines.add("public static final BatchedFunction " + t.name() + " = $$recorder(" + JavaNames.literal(t.name())
                    + ", " + functionType(t.function().type(), structFields) + ", " + t.critical() + ", "
                    + (t.statusRule() == null ? "null" : t.statusRule()) + ");");
        }
        s.line("private static final NativeLibrary $$glue = $$glue();");
        for (Map.Entry<String, String> e : structFields.entrySet()) {
            s.line("private static final CType $$T_" + e.getKey() + " = " + e.getValue() + ";");
        }
        s.line("");
        for (String l : thunkLines) s.line(l);
        s.line("");
        s.line("private " + n.thunks() + "() {}");
        s.line("");
        s.doc("The library that exports the thunks: the bound library itself, or the glue library from the jar.");
        s.open("private static NativeLibrary $$glue() {");
        s.line("NativeLibrary library = " + n.raw() + ".$$library;");
        s.line("if (library.find(" + JavaNames.literal("pmx_thunk_" + plan.thunks().getFirst().name()) + ").isPresent()) return library;");
        s.line("return NativeLibrary.load(BundledNatives.extract(" + n.thunks() + ".class, "
                + JavaNames.literal(plan.glueLibraryFile()) + "));");
        s.close("}");
        s.line("");
        s.open("private static BatchedFunction $$recorder(String symbol, CFunctionType type, boolean critical, StatusRule status) {");
        s.line("BatchedFunction f = $$glue.function(symbol).type(type).tier(Tier.BATCHED).recorder();");
        s.line("if (critical) f = f.asCritical();");
        s.line("return status == null ? f : f.withStatus(status);");
        s.close("}");
        s.close("}");
        return s.toString();
    }

    private static String functionType(CFunctionType t, Map<String, String> structs) {
        StringBuilder b = new StringBuilder("CFunctionType.of(").append(type(t.returns(), structs));
        for (CFunctionType.Param p : t.params()) {
            b.append(", ").append(JavaNames.literal(p.name())).append(", ").append(type(p.type(), structs));
        }
        return b.append(')').toString();
    }

    /** A C type as Java source; aggregates become fields initialized before use (nested ones first). */
    private static String type(CType t, Map<String, String> structs) {
        return switch (t) {
            case CType.Void v -> "CType.VOID";
            case CType.Scalar s -> "CType." + s.kind().name();
            case CType.Pointer p -> "CType.POINTER";
            case CType.FunctionPointer f -> "new CType.FunctionPointer(" + functionType(f.signature(), structs) + ")";
            case CType.Array a -> "new CType.Array(" + type(a.element(), structs) + ", " + a.length() + ")";
            case CType.Aggregate a -> {
                if (!structs.containsKey(a.name())) {
                    List<String> fields = new ArrayList<>();
                    for (CType.Field f : a.fields()) {
                        fields.add("new CType.Field(" + JavaNames.literal(f.name()) + ", " + type(f.type(), structs) + ")");
                    }
                    String kind = a instanceof CType.Struct ? "Struct" : "Union";
                    structs.put(a.name(), "new CType." + kind + "(" + JavaNames.literal(a.name()) + ", List.of("
                            + String.join(", ", fields) + "), " + a.alignAs() + ")");
                }
                yield "$$T_" + a.name();
            }
        };
    }
}
