package dev.panamax.bindgen.decl;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * A rule a function's arguments must satisfy, checked by the typed layer before the call:
 * {@code requires: ["m >= 0", "lda >= max(1, order == 101 ? k : m)", "incx != 0"]}. A condition is
 * comparisons ({@code == != < <= > >=}) of length expressions ({@link LengthExpr}), joined by
 * {@code &&} and {@code ||} ({@code &&} binding tighter), over the function's integer parameters. A
 * broken rule is an {@link IllegalArgumentException} naming the function, the parameter the rule
 * starts with, its value and the rule, e.g. {@code cblas_sgemm: lda = 3 breaks the requirement
 * lda >= max(1, order == 101 ? k : m) (order = 101, k = 5, m = 4)}.
 *
 * @param condition the parsed rule
 * @param text      the rule as written in the file (the message quotes it)
 * @param location  where it is written
 */
public record Requirement(Condition condition, String text, Location location) {
    /** The parameter the rule is about: the first one it names. */
    public String parameter() {
        return condition.refs().iterator().next();
    }

    /** A condition over the parameters. */
    public sealed interface Condition {
        /** The parameter names it reads, in order of first use. */
        Set<String> refs();

        /** Java source of the condition as a {@code boolean}; {@code ref} gives each name's long value. */
        String toJava(Function<String, String> ref);
    }

    /** {@code left OP right}. */
    public record Compare(String op, LengthExpr left, LengthExpr right) implements Condition {
        @Override
        public Set<String> refs() {
            Set<String> out = new LinkedHashSet<>(left.refs());
            out.addAll(right.refs());
            return out;
        }

        @Override
        public String toJava(Function<String, String> ref) {
            return left.toJava(ref) + " " + op + " " + right.toJava(ref);
        }
    }

    /** Conditions joined by {@code &&} ({@code all}) or {@code ||}. */
    public record Join(boolean all, List<Condition> parts) implements Condition {
        public Join {
            parts = List.copyOf(parts);
        }

        @Override
        public Set<String> refs() {
            Set<String> out = new LinkedHashSet<>();
            for (Condition c : parts) out.addAll(c.refs());
            return out;
        }

        @Override
        public String toJava(Function<String, String> ref) {
            return "(" + String.join(all ? " && " : " || ", parts.stream().map(c -> c.toJava(ref)).toList()) + ")";
        }
    }
}
