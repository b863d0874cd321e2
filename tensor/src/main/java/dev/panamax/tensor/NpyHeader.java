package dev.panamax.tensor;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The header of a {@code .npy} file: the Python dict literal NumPy writes
 * ({@code {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }}), parsed as the literal it is
 * (strings, {@code True}/{@code False}, integers, tuples and lists), so a key that appears inside
 * another value (a structured {@code descr}, say) is never mistaken for one of the dict's keys. As
 * NumPy does, it requires exactly the keys {@code descr}, {@code fortran_order} and {@code shape}.
 *
 * @param descr        the element type, such as {@code <f4}
 * @param fortranOrder whether the data is stored in column-major order
 * @param shape        the array's dimensions (empty for a scalar)
 */
record NpyHeader(String descr, boolean fortranOrder, long[] shape) {
    private static final Set<String> KEYS = Set.of("descr", "fortran_order", "shape");

    /** Parses {@code text}; {@code source} names the file (and entry) in errors. */
    static NpyHeader parse(String text, String source) throws IOException {
        Parser p = new Parser(text, source);
        Object value = p.value();
        p.skipSpace();
        if (p.at < text.length()) throw p.error("text after the header's dict");
        if (!(value instanceof Map<?, ?> dict)) throw p.error("the header is not a dict");
        if (!dict.keySet().equals(KEYS)) {
            throw new IOException(source + ": .npy header has the keys " + dict.keySet()
                    + "; expected exactly [descr, fortran_order, shape]: " + text.strip());
        }
        if (!(dict.get("descr") instanceof String descr)) {
            throw new IOException(source + ": .npy element type " + Parser.show(dict.get("descr"))
                    + " is not a simple type; expected bool, an integer or a float (f2, f4, f8, i1-i8, u1-u8)");
        }
        if (!(dict.get("fortran_order") instanceof Boolean fortran)) {
            throw new IOException(source + ": .npy 'fortran_order' is " + Parser.show(dict.get("fortran_order")) + "; expected True or False");
        }
        if (!(dict.get("shape") instanceof List<?> dims) || p.lists.contains(dims)) {
            throw new IOException(source + ": .npy 'shape' is " + Parser.show(dict.get("shape")) + "; expected a tuple of sizes");
        }
        long[] shape = new long[dims.size()];
        for (int i = 0; i < shape.length; i++) {
            if (!(dims.get(i) instanceof Long n) || n < 0) {
                throw new IOException(source + ": .npy 'shape' " + Parser.show(dims) + " has " + Parser.show(dims.get(i))
                        + " at axis " + i + "; expected sizes of 0 or more");
            }
            shape[i] = n;
        }
        return new NpyHeader(descr, fortran, shape);
    }

    /** A recursive-descent reader of the Python literals a header may hold. */
    private static final class Parser {
        final String text;
        final String source;
        int at;
        /** Lists (written with brackets) as opposed to tuples: a shape must be a tuple. */
        final List<Object> lists = new ArrayList<>();

        Parser(String text, String source) {
            this.text = text;
            this.source = source;
        }

        Object value() throws IOException {
            skipSpace();
            if (at >= text.length()) throw error("the header ends where a value was expected");
            char c = text.charAt(at);
            return switch (c) {
                case '{' -> dict();
                case '(' -> sequence('(', ')');
                case '[' -> {
                    List<Object> l = sequence('[', ']');
                    lists.add(l);
                    yield l;
                }
                case '\'', '"' -> string(c);
                default -> c == '-' || Character.isDigit(c) ? integer() : word();
            };
        }

        private Map<String, Object> dict() throws IOException {
            Map<String, Object> m = new LinkedHashMap<>();
            at++;
            while (true) {
                skipSpace();
                if (peek() == '}') {
                    at++;
                    return m;
                }
                if (!(value() instanceof String key)) throw error("a dict key that is not a string");
                skipSpace();
                expect(':');
                Object v = value();
                if (m.put(key, v) != null) throw error("the key '" + key + "' twice");
                skipSpace();
                if (peek() == ',') at++;
                else if (peek() != '}') throw error("',' or '}' expected");
            }
        }

        private List<Object> sequence(char open, char close) throws IOException {
            List<Object> l = new ArrayList<>();
            at++;
            while (true) {
                skipSpace();
                if (peek() == close) {
                    at++;
                    return l;
                }
                l.add(value());
                skipSpace();
                if (peek() == ',') at++;
                else if (peek() != close) throw error("',' or '" + close + "' expected");
            }
        }

        private String string(char quote) throws IOException {
            StringBuilder sb = new StringBuilder();
            int start = at++;
            while (at < text.length()) {
                char c = text.charAt(at++);
                if (c == quote) return sb.toString();
                if (c == '\\' && at < text.length()) c = text.charAt(at++);
                sb.append(c);
            }
            at = start;
            throw error("a string that is not closed");
        }

        private Long integer() throws IOException {
            int start = at;
            if (peek() == '-') at++;
            while (at < text.length() && Character.isDigit(text.charAt(at))) at++;
            String digits = text.substring(start, at);
            if (peek() == 'L') at++; // Python 2's long suffix, in files NumPy wrote long ago
            try {
                return Long.parseLong(digits);
            } catch (NumberFormatException e) {
                at = start;
                throw error("the number '" + digits + "' (expected a whole number that fits 64 bits)");
            }
        }

        private Object word() throws IOException {
            int start = at;
            while (at < text.length() && Character.isLetter(text.charAt(at))) at++;
            String w = text.substring(start, at);
            return switch (w) {
                case "True" -> Boolean.TRUE;
                case "False" -> Boolean.FALSE;
                case "None" -> NONE;
                default -> {
                    at = start;
                    throw error("unexpected '" + (w.isEmpty() ? String.valueOf(text.charAt(at)) : w) + "'");
                }
            };
        }

        void skipSpace() {
            while (at < text.length() && Character.isWhitespace(text.charAt(at))) at++;
        }

        private char peek() {
            return at < text.length() ? text.charAt(at) : '\0';
        }

        private void expect(char c) throws IOException {
            if (peek() != c) throw error("'" + c + "' expected");
            at++;
        }

        IOException error(String what) {
            return new IOException(source + ": .npy header is not the Python dict literal NumPy writes: " + what
                    + " at character " + at + " of " + text.strip());
        }

        static String show(Object v) {
            return v == null ? "missing" : v instanceof String s ? "'" + s + "'" : v == NONE ? "None" : v.toString();
        }

        private static final Object NONE = new Object();
    }
}
