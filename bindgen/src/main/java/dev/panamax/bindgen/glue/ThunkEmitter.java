package dev.panamax.bindgen.glue;

import dev.panamax.core.abi.BlockLayout;
import dev.panamax.core.abi.CFunction;
import dev.panamax.core.abi.CFunctionType;
import dev.panamax.core.abi.CType;
import dev.panamax.core.abi.Classification;
import dev.panamax.core.abi.MetaAbi;
import dev.panamax.core.batch.Thunk;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The execute step of the MetaABI: C source with one thunk {@code void *pmx_thunk_NAME(void *param)}
 * per function, unpacking {@code param} as the function's {@link Classification} says.
 *
 * <ul>
 * <li>VOID: calls the function (its return register is meaningless).</li>
 * <li>VOID_PTR: copies the low bytes of {@code param} into the one parameter (a tiny struct/union
 *     arrives packed the same way); the result stays in the return register.</li>
 * <li>STRUCT: reads every parameter from the block at its planned offset; an FP or struct/union
 *     result goes into the return slot at offset 0, an integer/bool/pointer result stays in the register.</li>
 * </ul>
 * A register result is left as the function returned it: its low bytes (the C type's width) hold
 * the value and the bytes above are unspecified, so the thunk ends in a tail jump.
 * Every copy is a fixed-size {@code memcpy}, which gcc turns into one move; the header carries
 * {@code _Static_assert}s that gcc's layout of every struct and union matches the model's.
 */
public final class ThunkEmitter {
    private static final Set<String> C_KEYWORDS = Set.of("auto", "break", "case", "char", "const", "continue",
            "default", "do", "double", "else", "enum", "extern", "float", "for", "goto", "if", "inline", "int", "long",
            "register", "restrict", "return", "short", "signed", "sizeof", "static", "struct", "switch", "typedef",
            "union", "unsigned", "void", "volatile", "while", "bool", "true", "false");

    private ThunkEmitter() {}

    /** The C name under which a thunk sees {@code f} returning {@code void *} (same symbol, asm label). */
    private static String uniformName(CFunction f) {
        return "pmx_vp_" + f.symbol();
    }

    /**
     * Header and source for {@code functions}; {@code unit} names the files
     * ({@code pmx_thunks_<unit>.h} / {@code .c}) and must be a C identifier.
     */
    public static ThunkSources emit(String unit, List<CFunction> functions) {
        if (unit == null || !unit.matches("[A-Za-z_][A-Za-z0-9_]*")) {
            throw new IllegalArgumentException("unit name must be a C identifier: unit=" + unit);
        }
        Map<String, CFunction> bySymbol = new LinkedHashMap<>();
        for (CFunction f : functions) {
            if (bySymbol.putIfAbsent(f.symbol(), f) != null) {
                throw new IllegalArgumentException("function declared twice: symbol=" + f.symbol());
            }
        }
        Types types = new Types();
        for (CFunction f : functions) types.visit(f.type());
        String headerName = "pmx_thunks_" + unit + ".h";
        return new ThunkSources(headerName, header(unit, types, functions), "pmx_thunks_" + unit + ".c",
                source(headerName, functions));
    }

    // ------------------------------------------------------------------ header

    private static String header(String unit, Types types, List<CFunction> functions) {
        String guard = "PMX_THUNKS_" + unit.toUpperCase(Locale.ROOT) + "_H";
        StringBuilder b = new StringBuilder();
        b.append("/* MACHINE GENERATED FILE, DO NOT EDIT. Panamax MetaABI declarations: ").append(unit).append(" */\n");
        b.append("#ifndef ").append(guard).append("\n#define ").append(guard).append("\n\n");
        b.append("#include <stddef.h>\n#include <stdint.h>\n\n");
        for (Object t : types.ordered) {
            switch (t) {
                case CType.Aggregate a -> aggregate(b, a, types);
                case CFunctionType f -> b.append("typedef ").append(types.cName(f.returns())).append(" (*")
                        .append(types.fnTypedefs.get(f)).append(")(").append(paramList(f, types)).append(");\n\n");
                default -> throw new AssertionError(t);
            }
        }
        for (CFunction f : functions) {
            b.append(types.cName(f.type().returns())).append(' ').append(f.symbol()).append('(')
                    .append(paramList(f.type(), types)).append(");\n");
        }
        b.append("\n#endif\n");
        return b.toString();
    }

    private static void aggregate(StringBuilder b, CType.Aggregate a, Types types) {
        String kw = a instanceof CType.Struct ? "struct" : "union";
        b.append(kw);
        if (a.alignAs() != 0) b.append(" __attribute__((aligned(").append(a.alignAs()).append(")))");
        b.append(' ').append(a.name()).append(" {\n");
        for (CType.Field f : a.fields()) {
            CType t = f.type();
            StringBuilder dims = new StringBuilder();
            while (t instanceof CType.Array arr) {
                dims.append('[').append(arr.length()).append(']');
                t = arr.element();
            }
            b.append("    ").append(types.cName(t)).append(' ').append(cIdent(f.name(), "field")).append(dims).append(";\n");
        }
        b.append("};\ntypedef ").append(kw).append(' ').append(a.name()).append(' ').append(a.name()).append(";\n");
        b.append("_Static_assert(sizeof(").append(a.name()).append(") == ").append(a.size())
                .append(" && _Alignof(").append(a.name()).append(") == ").append(a.align())
                .append(", \"").append(a.name()).append(": gcc's layout differs from the Panamax model\");\n");
        for (int i = 0; i < a.fields().size(); i++) {
            b.append("_Static_assert(offsetof(").append(a.name()).append(", ").append(a.fields().get(i).name())
                    .append(") == ").append(a.offsetOf(i)).append(", \"").append(a.name()).append('.')
                    .append(a.fields().get(i).name()).append(": offset differs from the Panamax model\");\n");
        }
        b.append('\n');
    }

    private static String paramList(CFunctionType f, Types types) {
        if (f.params().isEmpty()) return "void";
        List<String> ps = new ArrayList<>();
        for (CFunctionType.Param p : f.params()) ps.add(types.cName(p.type()));
        return String.join(", ", ps);
    }

    private static String cIdent(String name, String what) {
        if (!name.matches("[A-Za-z_][A-Za-z0-9_]*") || C_KEYWORDS.contains(name)) {
            throw new IllegalArgumentException("not usable as a C identifier: " + what + "=" + name);
        }
        return name;
    }

    // ------------------------------------------------------------------ thunks

    private static String source(String headerName, List<CFunction> functions) {
        StringBuilder b = new StringBuilder();
        b.append("/* MACHINE GENERATED FILE, DO NOT EDIT. Panamax MetaABI thunks: void *pmx_thunk_NAME(void *param). */\n");
        b.append("#include \"").append(headerName).append("\"\n#include <string.h>\n\n");
        b.append("#if !defined(__x86_64__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__\n");
        b.append("#error \"Panamax MetaABI thunks are planned for x86-64 System V (little-endian, 8-byte void *)\"\n");
        b.append("#endif\n\n");
        b.append("#define PMX_THUNK __attribute__((visibility(\"default\")))\n\n");
        Types types = new Types();
        for (CFunction f : functions) types.visit(f.type());
        for (CFunction f : functions) thunk(b, f, MetaAbi.classify(f.type()), types);
        return b.toString();
    }

    private static void thunk(StringBuilder b, CFunction f, Classification c, Types types) {
        CFunctionType t = f.type();
        b.append("/* ").append(c.mode()).append(" leaf ").append(c.leaf()).append(" */\n");
        if (!c.returnsInSlot()) {
            // A void, integer, bool or pointer result: the thunk calls the function through a second
            // declaration of the same symbol (an asm label) that returns void *, so gcc emits a tail jump
            // and the function's return register is the thunk's. The low bytes hold the result (the
            // x86-64 SysV register convention); the upper bytes are unspecified and the Java side reads
            // only the result's width. A cast of the function itself would do the same, but gcc warns
            // about every call through one, with no option to say it is deliberate.
            b.append("extern void *").append(uniformName(f)).append('(').append(paramList(t, types)).append(") __asm__(\"")
                    .append(f.symbol()).append("\");\n");
        }
        b.append("PMX_THUNK void *").append(Thunk.symbolOf(f.symbol())).append("(void *param) {\n");
        List<String> args = new ArrayList<>();
        switch (c.mode()) {
            case VOID -> b.append("    (void) param;\n");
            case VOID_PTR -> {
                if (t.params().isEmpty()) {
                    b.append("    (void) param;\n");
                } else {
                    b.append("    ").append(types.cName(t.params().getFirst().type())).append(" pmx_a0;\n");
                    b.append("    memcpy(&pmx_a0, &param, sizeof pmx_a0);\n");
                    args.add("pmx_a0");
                }
            }
            case STRUCT -> {
                b.append("    unsigned char *pmx_b = (unsigned char *) param;\n");
                for (int i = 0; i < t.params().size(); i++) {
                    BlockLayout.ParamSlot slot = c.block().params().get(i);
                    b.append("    ").append(types.cName(t.params().get(i).type())).append(" pmx_a").append(i).append(";\n");
                    b.append("    memcpy(&pmx_a").append(i).append(", pmx_b + ").append(slot.offset())
                            .append(", sizeof pmx_a").append(i).append(");\n");
                    args.add("pmx_a" + i);
                }
                if (t.params().isEmpty() && !c.returnsInSlot()) b.append("    (void) pmx_b;\n");
            }
        }
        if (c.returnsInSlot()) {
            b.append("    ").append(types.cName(t.returns())).append(" pmx_r = ").append(f.symbol()).append('(')
                    .append(String.join(", ", args)).append(");\n");
            b.append("    memcpy(pmx_b, &pmx_r, sizeof pmx_r);\n    return NULL;\n");
        } else {
            b.append("    return ").append(uniformName(f)).append('(').append(String.join(", ", args)).append(");\n");
        }
        b.append("}\n\n");
    }

    /** The named types a set of functions uses, in an order where each comes after what it contains by value. */
    private static final class Types {
        final List<Object> ordered = new ArrayList<>();
        final Map<String, CType.Aggregate> aggregates = new HashMap<>();
        final Map<CFunctionType, String> fnTypedefs = new HashMap<>();

        void visit(CFunctionType f) {
            visit(f.returns());
            for (CFunctionType.Param p : f.params()) visit(p.type());
        }

        void visit(CType t) {
            switch (t) {
                case CType.Aggregate a -> {
                    CType.Aggregate seen = aggregates.get(a.name());
                    if (seen != null) {
                        if (!seen.equals(a)) {
                            throw new IllegalArgumentException("two different types share a name: name=" + a.name()
                                    + " first=" + seen + " second=" + a);
                        }
                        return;
                    }
                    cIdent(a.name(), "type");
                    aggregates.put(a.name(), a);
                    for (CType.Field f : a.fields()) visit(f.type());
                    ordered.add(a);
                }
                case CType.Array arr -> visit(arr.element());
                case CType.FunctionPointer fp -> {
                    if (fnTypedefs.containsKey(fp.signature())) return;
                    visit(fp.signature());
                    fnTypedefs.put(fp.signature(), "pmx_fn" + fnTypedefs.size());
                    ordered.add(fp.signature());
                }
                default -> { }
            }
        }

        String cName(CType t) {
            return switch (t) {
                case CType.Void v -> "void";
                case CType.Scalar s -> s.kind().cName();
                case CType.Pointer p -> "void *";
                case CType.FunctionPointer fp -> fnTypedefs.get(fp.signature());
                case CType.Aggregate a -> a.name();
                case CType.Array arr -> throw new IllegalArgumentException("array outside a struct field: " + arr);
            };
        }
    }
}
