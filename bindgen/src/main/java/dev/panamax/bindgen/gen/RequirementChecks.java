package dev.panamax.bindgen.gen;

import dev.panamax.bindgen.decl.Function;
import dev.panamax.bindgen.decl.Requirement;
import dev.panamax.bindgen.gen.TypedFunction.Mapping;
import dev.panamax.bindgen.gen.TypedFunction.TypedParam;
import dev.panamax.core.abi.ScalarKind;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The checks of a function's {@code requires:} rules in its typed method, first among its argument
 * checks: each rule a condition on the Java arguments (exact 64-bit arithmetic, unsigned parameters
 * widened as unsigned), a broken one thrown as {@code ArgumentChecks.requirement}, naming the
 * parameter the rule is about, its value, the rule and the other values it read.
 *
 * <pre>{@code
 * if (!(lda >= Math.max(1L, (order == 101L ? k : m)))) throw ArgumentChecks.requirement("cblas_sgemm", "lda", lda,
 *         "lda >= max(1, order == 101 ? k : m)", ", order = " + order + ", k = " + k + ", m = " + m);
 * }</pre>
 */
final class RequirementChecks {
    private RequirementChecks() {}

    static void write(Source s, TypedFunction f, Function decl) {
        Map<String, String> values = new LinkedHashMap<>();
        for (TypedParam p : f.params()) {
            if (p.mapping() instanceof Mapping.Value v) values.put(p.decl().name(), asLong(v.kind(), p.javaName()));
        }
        for (Requirement r : decl.requires()) {
            // a parameter this variant takes from an array's length is not known yet: such a rule is not checked here
            if (!values.keySet().containsAll(r.condition().refs())) continue;
            String parameter = r.parameter();
            List<String> others = new ArrayList<>();
            for (String ref : r.condition().refs()) {
                if (!ref.equals(parameter)) others.add(JavaNames.literal(", " + ref + " = ") + " + " + values.get(ref));
            }
            s.line("if (!(" + r.condition().toJava(values::get) + ")) throw ArgumentChecks.requirement(" + JavaNames.literal(f.name())
                    + ", " + JavaNames.literal(parameter) + ", " + values.get(parameter) + ", " + JavaNames.literal(r.text()) + ", "
                    + (others.isEmpty() ? "\"\"" : String.join(" + ", others)) + ");");
        }
    }

    private static String asLong(ScalarKind kind, String javaName) {
        return switch (kind) {
            case U8, U16, U32 -> Carriers.toLong(kind, javaName);
            default -> javaName;
        };
    }
}
