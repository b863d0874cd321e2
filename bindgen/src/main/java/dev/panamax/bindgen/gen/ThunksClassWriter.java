package dev.panamax.bindgen.gen;

import dev.panamax.bindgen.gen.BindingPlan.ThunkPlan;
import dev.panamax.core.abi.CFunctionType;
import dev.panamax.core.abi.CType;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The thunks of the batchable functions, as core {@code Thunk}s ready for a {@code Batch}: each
 * classified at class initialization from the same C model the C glue was emitted from, critical
 * when declared so, with the status rule of its error convention. The thunks come from the library
 * itself when it carries them, else from the glue library the build compiled into the jar.
 */
final class ThunksClassWriter {
    private ThunksClassWriter() {}

    static String write(BindingPlan plan) {
        BindingPlan.Names n = plan.names();
        Source s = new Source(plan, List.of("dev.panamax.core.BundledNatives", "dev.panamax.core.abi.CFunction",
                "dev.panamax.core.abi.CFunctionType", "dev.panamax.core.abi.CType", "dev.panamax.core.batch.StatusRule",
                "dev.panamax.core.batch.Thunk", "dev.panamax.core.call.NativeLibrary", "java.lang.foreign.SymbolLookup",
                "java.util.List"));
        s.doc("The MetaABI thunks of the batchable functions of " + plan.library() + ", to record into a {@code Batch}:",
                "{@code batch.add(" + n.thunks() + "." + plan.thunks().getFirst().name() + ")}. Loaded on first use: from the library",
                "itself if it carries them, else from {@code " + plan.glueLibraryFile() + "} in the jar.");
        s.open("public final class " + n.thunks() + " {");
        Map<String, String> structFields = new LinkedHashMap<>();
        List<String> thunkLines = new ArrayList<>();
        for (ThunkPlan t : plan.thunks()) {
            String fn = "new CFunction(" + JavaNames.literal(t.name()) + ", " + functionType(t.function().type(), structFields) + ")";
            thunkLines.add("public static final Thunk " + t.name() + " = $$thunk(" + fn + ", " + t.critical() + ", "
                    + (t.statusRule() == null ? "null" : t.statusRule()) + ");");
        }
        s.line("private static final SymbolLookup $$glue = $$glue();");
        for (Map.Entry<String, String> e : structFields.entrySet()) {
            s.line("private static final CType $$T_" + e.getKey() + " = " + e.getValue() + ";");
        }
        s.line("");
        for (String l : thunkLines) s.line(l);
        s.line("");
        s.line("private " + n.thunks() + "() {}");
        s.line("");
        s.open("private static SymbolLookup $$glue() {");
        s.line("NativeLibrary library = " + n.raw() + ".$$library;");
        s.line("if (library.find(" + JavaNames.literal("pmx_thunk_" + plan.thunks().getFirst().name()) + ").isPresent()) return library::find;");
        s.line("NativeLibrary glue = NativeLibrary.load(BundledNatives.extract(" + n.thunks() + ".class, "
                + JavaNames.literal(plan.glueLibraryFile()) + "));");
        s.line("return glue::find;");
        s.close("}");
        s.line("");
        s.open("private static Thunk $$thunk(CFunction function, boolean critical, StatusRule status) {");
        s.line("Thunk t = Thunk.find($$glue, function);");
        s.line("if (critical) t = t.asCritical();");
        s.line("return status == null ? t : t.withStatus(status);");
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
