package dev.panamax.bindgen.importer;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * How many tokens the preprocessor makes of a macro, worked out from the macro bodies before clang is
 * asked to expand anything: {@code #define D1 (D0 + D0)}, {@code #define D2 (D1 + D1)}, ... doubles at
 * each step, and thirty such lines would have clang expand a billion tokens. The count is an upper
 * bound (a function-like macro counts each use of a parameter as the whole argument list) and saturates
 * just above {@link #LIMIT}; the work is linear in the bodies read, each macro's size computed once.
 *
 * <pre>{@code
 * MacroSize sizes = new MacroSize(name -> definitions.get(name));   // null for a name that is no macro
 * if (sizes.of("D30") > MacroSize.LIMIT) skip("expands to more than " + MacroSize.LIMIT + " tokens");
 * }</pre>
 */
final class MacroSize {
    /** The most tokens a macro may expand to and still be evaluated. */
    static final long LIMIT = 10_000;
    private static final long OVER = LIMIT + 1;
    /** Macros nested deeper than this are counted as too large rather than followed (the stack is finite). */
    private static final int MAX_DEPTH = 500;

    /**
     * A macro as the header defines it: {@code parameters} null for an object-like macro; {@code body}
     * the tokens after the name (and, for a function-like macro, after its parameter list).
     */
    record Definition(List<String> parameters, List<String> body) {
        boolean functionLike() {
            return parameters != null;
        }
    }

    private final Function<String, Definition> definitions;
    private final Map<String, Long> objectSizes = new HashMap<>();
    private final Map<String, long[]> functionSizes = new HashMap<>();
    private final Set<String> expanding = new HashSet<>();
    private int depth;
    /** Whether the size being worked out met the depth limit: what it finds is then not remembered. */
    private boolean cut;

    /** {@code definitions} gives a name's definition, or null when the name is not a macro. */
    MacroSize(Function<String, Definition> definitions) {
        this.definitions = definitions;
    }

    /** The tokens object-like macro {@code name} expands to, at most {@code LIMIT + 1}. */
    long of(String name) {
        Definition d = definitions.apply(name);
        if (d == null || d.functionLike()) return 1;
        cut = false;
        return objectSize(name, d);
    }

    private long objectSize(String name, Definition d) {
        Long known = objectSizes.get(name);
        if (known != null) return known;
        long size = enter(name, () -> tokens(d.body(), Set.of()));
        if (!cut) objectSizes.put(name, size);
        return size;
    }

    /** A function-like macro's body: {tokens other than parameters, expanded; uses of parameters}. */
    private long[] functionSize(String name, Definition d) {
        long[] known = functionSizes.get(name);
        if (known != null) return known;
        long[] size = {0, 0};
        Set<String> params = new HashSet<>(d.parameters());
        size[0] = enter(name, () -> tokens(d.body(), params));
        for (String t : d.body()) if (params.contains(t)) size[1] = add(size[1], 1);
        if (!cut) functionSizes.put(name, size);
        return size;
    }

    private long enter(String name, java.util.function.LongSupplier body) {
        if (depth >= MAX_DEPTH) {
            cut = true;
            return OVER;
        }
        expanding.add(name);
        depth++;
        try {
            return body.getAsLong();
        } finally {
            depth--;
            expanding.remove(name);
        }
    }

    /** The size of {@code tokens} expanded, {@code skip} (a macro's parameters) counted as nothing. */
    private long tokens(List<String> tokens, Set<String> skip) {
        long total = 0;
        for (int i = 0; i < tokens.size() && total < OVER; i++) {
            String t = tokens.get(i);
            if (skip.contains(t)) continue;
            Definition d = expanding.contains(t) ? null : definitions.apply(t);   // a macro never expands inside itself
            if (d == null) {
                total = add(total, 1);
            } else if (!d.functionLike()) {
                total = add(total, objectSize(t, d));
            } else if (i + 1 < tokens.size() && tokens.get(i + 1).equals("(")) {
                int close = closing(tokens, i + 1);
                long arguments = tokens(tokens.subList(i + 2, close), skip);
                long[] body = functionSize(t, d);
                total = add(total, add(body[0], multiply(body[1], Math.max(1, arguments))));
                i = close;
            } else {
                total = add(total, 1);
            }
        }
        return Math.min(total, OVER);
    }

    /** The index of the parenthesis closing the one at {@code open}, or the end when it is not closed. */
    private static int closing(List<String> tokens, int open) {
        int level = 0;
        for (int i = open; i < tokens.size(); i++) {
            if (tokens.get(i).equals("(")) level++;
            else if (tokens.get(i).equals(")") && --level == 0) return i;
        }
        return tokens.size();
    }

    private static long add(long a, long b) {
        return Math.min(OVER, a + b);
    }

    private static long multiply(long a, long b) {
        return a == 0 || b == 0 ? 0 : a > OVER / b ? OVER : Math.min(OVER, a * b);
    }
}
