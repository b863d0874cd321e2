package dev.panamax.bindgen.gen;

import dev.panamax.bindgen.gen.BindingPlan.ConventionPlan;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The library's exception: a failed status or errcode named after its error convention,
 * {@code CL_INVALID_KERNEL_ARGS (-52) in clEnqueueNDRangeKernel}. Not final, so a hand-written layer
 * can add detail (a build log) in a subclass.
 */
final class ExceptionWriter {
    private ExceptionWriter() {}

    static String write(BindingPlan plan) {
        String cls = plan.names().exception();
        Source s = new Source(plan, List.of("java.util.Map"));
        s.doc("A call of " + plan.library() + " that reported failure through a status code or an errcode out-parameter,",
                "named after the error convention: {@code NAME (code) in function}.");
        s.open("public class " + cls + " extends RuntimeException {");
        s.line("private static final long serialVersionUID = 1L;");
        // Codes and names as two array literals, not Map.ofEntries(Map.entry(...), ...): javac infers the
        // type of every generic call in such a varargs list together, which took minutes for 1,000 names.
        for (ConventionPlan c : plan.conventions()) {
            List<String> codes = new ArrayList<>();
            List<String> names = new ArrayList<>();
            for (Map.Entry<Long, String> e : c.names().entrySet()) {
                codes.add(e.getKey() + "L");
                names.add(JavaNames.literal(e.getValue()));
            }
            s.line("private static final Map<Long, String> $" + c.name() + " = "
                    + (codes.isEmpty() ? "Map.of();" : "names(new long[] {" + String.join(", ", codes) + "},\n            new String[] {"
                    + String.join(", ", names) + "});"));
        }
        s.line("");
        s.line("private final String function;");
        s.line("private final String convention;");
        s.line("private final long code;");
        s.line("private final String errorName;");
        s.line("");
        s.doc("A failure of {@code function}: {@code code} under {@code convention}.");
        s.open("public " + cls + "(String function, String convention, long code) {");
        s.line("this(function, convention, code, null);");
        s.close("}");
        s.line("");
        s.doc("The same with {@code detail} appended to the message (after a colon), for subclasses that know more.");
        s.open("protected " + cls + "(String function, String convention, long code, String detail) {");
        s.line("super(message(function, convention, code, detail));");
        s.line("this.function = function;");
        s.line("this.convention = convention;");
        s.line("this.code = code;");
        s.line("this.errorName = nameOf(convention, code);");
        s.close("}");
        s.line("");
        s.doc("The C function that failed.");
        s.line("public final String function() { return function; }");
        s.line("");
        s.doc("The error convention the code was judged by.");
        s.line("public final String convention() { return convention; }");
        s.line("");
        s.doc("The status code, widened to long (unsigned types zero-extended).");
        s.line("public final long code() { return code; }");
        s.line("");
        s.doc("The code's name in its convention, or null when the declarations do not name it.");
        s.line("public final String errorName() { return errorName; }");
        s.line("");
        s.doc("The name of {@code code} in error convention {@code convention}, or null.");
        s.open("public static String nameOf(String convention, long code) {");
        s.open("return switch (convention) {");
        for (ConventionPlan c : plan.conventions()) s.line("case " + JavaNames.literal(c.name()) + " -> $" + c.name() + ".get(code);");
        s.line("default -> null;");
        s.close("};");
        s.close("}");
        s.line("");
        s.open("private static Map<Long, String> names(long[] codes, String[] names) {");
        s.line("Map<Long, String> m = new java.util.HashMap<>();");
        s.line("for (int i = 0; i < codes.length; i++) m.put(codes[i], names[i]);");
        s.line("return Map.copyOf(m);");
        s.close("}");
        s.line("");
        s.open("private static String message(String function, String convention, long code, String detail) {");
        s.line("String name = nameOf(convention, code);");
        s.line("String m = (name != null ? name : convention) + \" (\" + code + \") in \" + function;");
        s.line("return detail == null ? m : m + \": \" + detail;");
        s.close("}");
        for (ConventionPlan c : plan.conventions()) {
            s.line("");
            s.doc("Throws unless {@code code} is a success of " + c.name() + " (" + c.success() + ").");
            s.open("static void " + c.checkMethod() + "(long code, String function) {");
            List<String> tests = c.success().stream().distinct().map(v -> "code != " + v + "L").toList();
            s.line("if (" + String.join(" && ", tests) + ") throw new " + cls + "(function, "
                    + JavaNames.literal(c.name()) + ", code);");
            s.close("}");
        }
        s.close("}");
        return s.toString();
    }
}
