package dev.panamax.bindgen.decl;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

/** {@code requires:} rules: parsed into conditions, each mistake refused at its place. */
class RequirementsTest {
    static final String HEAD = "format: 1\nlibrary: t\nfunctions:\n  - name: f\n    params: [[i32, n], [i32, lda], [u32, inc], [ptr, p]]\n";

    static Function parse(String... rules) {
        StringBuilder b = new StringBuilder(HEAD + "    requires:\n");
        for (String r : rules) b.append("      - \"").append(r).append("\"\n");
        return DeclarationsParser.parse(b.toString(), "t.yaml").functions().getFirst();
    }

    static void refused(String rule, String location, String message) {
        DeclarationsException e = assertThrows(DeclarationsException.class, () -> parse(rule));
        assertEquals("t.yaml:" + location + ": " + message, e.getMessage());
    }

    @Test
    void rulesBecomeConditionsInJava() {
        Function f = parse("n >= 0", "lda >= max(1, n)", "n == 1 || n == 2 && inc != 0");
        List<Requirement> r = f.requires();
        assertEquals(3, r.size());
        assertEquals("lda", r.get(1).parameter());
        assertEquals("lda >= max(1, n)", r.get(1).text());
        assertEquals("8:9", r.get(1).location().line() + ":" + r.get(1).location().column());
        assertEquals("lda >= Math.max(1L, n)", r.get(1).condition().toJava(name -> name));
        // && binds tighter than ||
        assertEquals("(n == 1L || (n == 2L && inc != 0L))", r.get(2).condition().toJava(name -> name));
        assertEquals(List.of("n", "inc"), List.copyOf(r.get(2).condition().refs()));
    }

    @Test
    void mistakesAreRefusedWithTheirPlace() {
        refused("n", "7:9", "requirement of function f: the end at character 2 of 'n'; expected a comparison (== != < <= > >=)");
        refused("n >= ", "7:9", "requirement of function f: the end at character 6 of 'n >= '; expected a number, a parameter name, a function or '('");
        refused("1 == 1", "7:9", "requirement of function f: '1 == 1' reads no parameter; expected a rule about the parameters");
        refused("m >= 0", "7:9", "requirement 'm >= 0' of function f reads 'm', no parameter of it; expected one of [n, lda, inc, p]");
        refused("p != 0", "7:9", "requirement 'p != 0' of f reads 'p' of type ptr; expected only integer parameters passed by value");
        refused("n >= 0 &&", "7:9", "requirement of function f: the end at character 10 of 'n >= 0 &&'; expected a number, a parameter name, a function or '('");
    }
}
