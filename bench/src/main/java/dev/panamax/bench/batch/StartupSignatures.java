package dev.panamax.bench.batch;

import dev.panamax.core.abi.CFunction;
import dev.panamax.core.abi.CFunctionType;
import dev.panamax.core.abi.CType;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The startup fixtures: {@value #COUNT} C functions of distinct signatures ({@code pmxs_f0} ..),
 * generated the same way by the build (C and thunks) and by the measuring JVM (bindings).
 */
public final class StartupSignatures {
    static final int COUNT = 2000;
    private static final List<CType> PARAMS = List.of(CType.I32, CType.I64, CType.F64, CType.F32, CType.POINTER,
            CType.I16, CType.I8);
    private static final List<CType> RETURNS = List.of(CType.I32, CType.VOID, CType.I64, CType.F64, CType.POINTER,
            CType.F32);

    private StartupSignatures() {}

    /** The functions, in a fixed order; every signature differs from every other. */
    public static List<CFunction> functions() {
        List<CFunction> out = new ArrayList<>(COUNT);
        Set<CFunctionType> seen = new HashSet<>();
        for (int i = 0; out.size() < COUNT; i++) {
            CType ret = RETURNS.get(i % RETURNS.size());
            List<CFunctionType.Param> ps = new ArrayList<>();
            // the i / |RETURNS|-th parameter list in a base-|PARAMS| counting order, 1 to 6 parameters
            int code = i / RETURNS.size() + 1;
            for (int k = 0; code > 0; k++) {
                ps.add(new CFunctionType.Param("p" + k, PARAMS.get(code % PARAMS.size())));
                code /= PARAMS.size();
            }
            CFunctionType t = new CFunctionType(ret, ps);
            if (seen.add(t)) out.add(new CFunction("pmxs_f" + out.size(), t));
        }
        return out;
    }

    /** C definitions of the functions: each combines its arguments into its result. */
    static String cSource(String headerName) {
        StringBuilder b = new StringBuilder("/* MACHINE GENERATED FILE, DO NOT EDIT. Panamax batch-suite startup fixtures. */\n");
        b.append("#include \"").append(headerName).append("\"\n#include <stdint.h>\n\n");
        for (CFunction f : functions()) {
            CFunctionType t = f.type();
            String ret = cName(t.returns());
            b.append(ret).append(' ').append(f.symbol()).append('(');
            for (int i = 0; i < t.params().size(); i++) {
                if (i > 0) b.append(", ");
                b.append(cName(t.params().get(i).type())).append(" p").append(i);
            }
            if (t.params().isEmpty()) b.append("void");
            b.append(") {\n    double acc = ").append(f.symbol().substring(6)).append(';');
            for (int i = 0; i < t.params().size(); i++) {
                b.append(t.params().get(i).type() == CType.POINTER ? " acc += (double) (uintptr_t) p" + i + ";" : " acc += (double) p" + i + ";");
            }
            b.append('\n');
            if (t.returns() instanceof CType.Void) b.append("    (void) acc;\n");
            else if (t.returns() == CType.POINTER) b.append("    return (void *) (uintptr_t) (int64_t) acc;\n");
            else b.append("    return (").append(ret).append(") acc;\n");
            b.append("}\n");
        }
        return b.toString();
    }

    private static String cName(CType t) {
        return switch (t) {
            case CType.Void v -> "void";
            case CType.Pointer p -> "void *";
            case CType.Scalar s -> s.kind().cName();
            default -> throw new IllegalArgumentException(t.toString());
        };
    }
}
