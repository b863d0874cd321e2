package dev.panamax.bindgen.decl;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * A {@code length} computed from other parameters: {@code "1 + (n - 1) * abs(incx)"}, or with a
 * comparison choosing between two, {@code "order == 101 ? (m - 1) * lda + n : (n - 1) * lda + m"}.
 * Integers, parameter names, {@code + - *}, unary minus, parentheses, {@code abs(x)}, {@code max(a, b)},
 * {@code min(a, b)} and {@code a OP b ? x : y} with OP one of {@code == != < <= > >=}. The typed layer
 * evaluates it in exact 64-bit arithmetic before the call; a value of zero or less asks for nothing.
 */
public sealed interface LengthExpr {
    record Num(long value) implements LengthExpr {}
    record Ref(String name) implements LengthExpr {}
    record Neg(LengthExpr operand) implements LengthExpr {}
    record Binary(char op, LengthExpr left, LengthExpr right) implements LengthExpr {}
    record Call(String function, List<LengthExpr> args) implements LengthExpr {}
    record Choice(String comparison, LengthExpr left, LengthExpr right, LengthExpr then, LengthExpr otherwise) implements LengthExpr {}

    /** The functions an expression may call, with their number of arguments. */
    java.util.Map<String, Integer> FUNCTIONS = java.util.Map.of("abs", 1, "max", 2, "min", 2);

    /** The parameter names the expression reads, in order of first use. */
    default Set<String> refs() {
        Set<String> out = new LinkedHashSet<>();
        collect(this, out);
        return out;
    }

    private static void collect(LengthExpr e, Set<String> out) {
        switch (e) {
            case Num n -> { }
            case Ref r -> out.add(r.name());
            case Neg n -> collect(n.operand(), out);
            case Binary b -> { collect(b.left(), out); collect(b.right(), out); }
            case Call c -> c.args().forEach(a -> collect(a, out));
            case Choice c -> { collect(c.left(), out); collect(c.right(), out); collect(c.then(), out); collect(c.otherwise(), out); }
        }
    }

    /** Java source computing the expression as a {@code long}, overflow raising an exception; {@code ref} gives each name's long value. */
    default String toJava(Function<String, String> ref) {
        return switch (this) {
            case Num n -> n.value() + "L";
            case Ref r -> ref.apply(r.name());
            case Neg n -> "Math.negateExact(" + n.operand().toJava(ref) + ")";
            case Binary b -> (switch (b.op()) {
                case '+' -> "Math.addExact(";
                case '-' -> "Math.subtractExact(";
                default -> "Math.multiplyExact(";
            }) + b.left().toJava(ref) + ", " + b.right().toJava(ref) + ")";
            case Call c -> switch (c.function()) {
                case "abs" -> "Math.absExact(" + c.args().getFirst().toJava(ref) + ")";
                default -> "Math." + c.function() + "(" + c.args().get(0).toJava(ref) + ", " + c.args().get(1).toJava(ref) + ")";
            };
            case Choice c -> "(" + c.left().toJava(ref) + " " + c.comparison() + " " + c.right().toJava(ref) + " ? "
                    + c.then().toJava(ref) + " : " + c.otherwise().toJava(ref) + ")";
        };
    }

    /**
     * The expression written out with single spaces and only the parentheses it needs:
     * {@code "1 + (n - 1) * abs(incx)"}; parsing it gives the same expression.
     */
    default String text() {
        return text(this, 0);
    }

    /** {@code e} as text inside an operator binding as tightly as {@code outer} (0 none, 1 {@code + -}, 2 {@code *}, 3 unary). */
    private static String text(LengthExpr e, int outer) {
        return switch (e) {
            case Num n -> Long.toString(n.value());
            case Ref r -> r.name();
            case Neg n -> "-" + text(n.operand(), 3);
            case Binary b -> {
                int own = b.op() == '*' ? 2 : 1;
                // left-associative: a right operand of the same strength keeps its parentheses (a - (b - c))
                String body = text(b.left(), own) + " " + b.op() + " " + text(b.right(), own + 1);
                yield own < outer ? "(" + body + ")" : body;
            }
            case Call c -> c.function() + "(" + String.join(", ", c.args().stream().map(a -> text(a, 0)).toList()) + ")";
            case Choice c -> {
                String body = text(c.left(), 1) + " " + c.comparison() + " " + text(c.right(), 1) + " ? "
                        + text(c.then(), 1) + " : " + text(c.otherwise(), 1);
                yield outer > 0 ? "(" + body + ")" : body;
            }
        };
    }

    /** Whether {@code text} is an expression rather than a plain parameter name. */
    static boolean isExpression(String text) {
        return !text.matches("[A-Za-z_][A-Za-z0-9_]*");
    }

    /**
     * Parses {@code text}; a malformed expression is an {@link IllegalArgumentException} saying what
     * was found at which character and what was expected.
     */
    static LengthExpr parse(String text) {
        Parser p = new Parser(text);
        LengthExpr e = p.expression();
        p.skipSpaces();
        if (p.at < text.length()) throw p.unexpected("an operator or the end");
        return e;
    }

    /**
     * Parses a requirement's condition: comparisons of expressions joined by {@code &&} and {@code ||};
     * malformed text is an {@link IllegalArgumentException} as for {@link #parse}.
     */
    static Requirement.Condition parseCondition(String text) {
        Parser p = new Parser(text);
        Requirement.Condition c = p.condition();
        p.skipSpaces();
        if (p.at < text.length()) throw p.unexpected("a comparison operator, && or || or the end");
        if (c.refs().isEmpty()) throw new IllegalArgumentException("'" + text + "' reads no parameter; expected a rule about the parameters");
        return c;
    }

    /**
     * Recursive descent over the grammar in the type's documentation. Nesting (parentheses, unary minus,
     * call arguments, choices) and the height of the tree built (a chain {@code a + a + ... + a} is as
     * tall as it is long) stop at {@link Limits#LENGTH_EXPRESSION_DEPTH}, so nothing that walks the
     * expression afterwards, nor javac on the code it becomes, runs out of stack.
     */
    final class Parser {
        private final String text;
        private int at;
        private int nesting;
        private final java.util.IdentityHashMap<LengthExpr, Integer> heights = new java.util.IdentityHashMap<>();

        private Parser(String text) {
            this.text = text;
        }

        LengthExpr expression() {
            enter();
            try {
                LengthExpr left = sum();
                String comparison = comparison();
                if (comparison == null) return left;
                LengthExpr right = sum();
                expect('?');
                LengthExpr then = expression();
                expect(':');
                LengthExpr otherwise = expression();
                return tree(new Choice(comparison, left, right, then, otherwise), left, right, then, otherwise);
            } finally {
                nesting--;
            }
        }

        private void enter() {
            if (++nesting > Limits.LENGTH_EXPRESSION_DEPTH) throw tooDeep();
        }

        /** {@code e}, one level above its {@code children}; refused past the height limit. */
        private LengthExpr tree(LengthExpr e, LengthExpr... children) {
            int height = 0;
            for (LengthExpr c : children) height = Math.max(height, heights.getOrDefault(c, 1));
            if (height + 1 > Limits.LENGTH_EXPRESSION_DEPTH) throw tooDeep();
            heights.put(e, height + 1);
            return e;
        }

        private IllegalArgumentException tooDeep() {
            return new IllegalArgumentException("'" + shown() + "' nests deeper than " + Limits.LENGTH_EXPRESSION_DEPTH
                    + " levels at character " + (at + 1) + "; expected at most " + Limits.LENGTH_EXPRESSION_DEPTH
                    + " levels of parentheses, operators, calls and choices");
        }

        /** The text for a message, cut when long. */
        private String shown() {
            return text.length() > 80 ? text.substring(0, 80) + "..." : text;
        }

        Requirement.Condition condition() {
            List<Requirement.Condition> any = new ArrayList<>();
            do {
                List<Requirement.Condition> all = new ArrayList<>();
                do {
                    LengthExpr left = sum();
                    String op = comparison();
                    if (op == null) throw unexpected("a comparison (== != < <= > >=)");
                    all.add(new Requirement.Compare(op, left, sum()));
                } while (token("&&"));
                any.add(all.size() == 1 ? all.getFirst() : new Requirement.Join(true, all));
            } while (token("||"));
            return any.size() == 1 ? any.getFirst() : new Requirement.Join(false, any);
        }

        private boolean token(String t) {
            skipSpaces();
            if (!text.startsWith(t, at)) return false;
            at += t.length();
            return true;
        }

        private String comparison() {
            skipSpaces();
            for (String op : List.of("==", "!=", "<=", ">=", "<", ">")) {
                if (text.startsWith(op, at)) {
                    at += op.length();
                    return op;
                }
            }
            return null;
        }

        private LengthExpr sum() {
            LengthExpr e = product();
            while (true) {
                skipSpaces();
                if (at < text.length() && (text.charAt(at) == '+' || text.charAt(at) == '-')) {
                    char op = text.charAt(at++);
                    LengthExpr right = product();
                    e = tree(new Binary(op, e, right), e, right);
                } else {
                    return e;
                }
            }
        }

        private LengthExpr product() {
            LengthExpr e = unary();
            while (true) {
                skipSpaces();
                if (at < text.length() && text.charAt(at) == '*') {
                    at++;
                    LengthExpr right = unary();
                    e = tree(new Binary('*', e, right), e, right);
                } else {
                    return e;
                }
            }
        }

        private LengthExpr unary() {
            skipSpaces();
            if (at < text.length() && text.charAt(at) == '-') {
                at++;
                enter();
                try {
                    LengthExpr operand = unary();
                    return tree(new Neg(operand), operand);
                } finally {
                    nesting--;
                }
            }
            return atom();
        }

        private LengthExpr atom() {
            skipSpaces();
            if (at >= text.length()) throw unexpected("a number, a parameter name, a function or '('");
            char c = text.charAt(at);
            if (c == '(') {
                at++;
                LengthExpr e = expression();
                expect(')');
                return e;
            }
            if (Character.isDigit(c)) {
                int start = at;
                while (at < text.length() && Character.isDigit(text.charAt(at))) at++;
                try {
                    return new Num(Long.parseLong(text.substring(start, at)));
                } catch (NumberFormatException e) {
                    at = start;
                    throw unexpected("a number that fits in 64 bits");
                }
            }
            if (Character.isLetter(c) || c == '_') {
                int start = at;
                while (at < text.length() && (Character.isLetterOrDigit(text.charAt(at)) || text.charAt(at) == '_')) at++;
                String name = text.substring(start, at);
                skipSpaces();
                if (at < text.length() && text.charAt(at) == '(') {
                    Integer arity = FUNCTIONS.get(name);
                    if (arity == null) {
                        at = start;
                        throw unexpected("one of the functions " + new java.util.TreeSet<>(FUNCTIONS.keySet()));
                    }
                    at++;
                    List<LengthExpr> args = new ArrayList<>();
                    args.add(expression());
                    while (args.size() < arity) {
                        expect(',');
                        args.add(expression());
                    }
                    expect(')');
                    return tree(new Call(name, List.copyOf(args)), args.toArray(LengthExpr[]::new));
                }
                return new Ref(name);
            }
            throw unexpected("a number, a parameter name, a function or '('");
        }

        private void expect(char c) {
            skipSpaces();
            if (at >= text.length() || text.charAt(at) != c) throw unexpected("'" + c + "'");
            at++;
        }

        void skipSpaces() {
            while (at < text.length() && text.charAt(at) == ' ') at++;
        }

        IllegalArgumentException unexpected(String expected) {
            String found = at >= text.length() ? "the end" : "'" + text.charAt(at) + "'";
            return new IllegalArgumentException(found + " at character " + (at + 1) + " of '" + shown() + "'; expected " + expected);
        }
    }
}
