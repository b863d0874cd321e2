package dev.panamax.bindgen.importer;

import dev.panamax.bindgen.decl.Constant;
import dev.panamax.bindgen.decl.Declarations;
import dev.panamax.bindgen.decl.ErrorConvention;
import dev.panamax.bindgen.decl.Field;
import dev.panamax.bindgen.decl.Function;
import dev.panamax.bindgen.decl.Param;
import dev.panamax.bindgen.decl.Returns;
import dev.panamax.bindgen.decl.TypeDecl;
import dev.panamax.bindgen.decl.TypeRef;
import dev.panamax.bindgen.decl.TypeRefs;
import dev.panamax.core.abi.ScalarKind;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Writes a declarations model as a declarations file (format 1), one entry per line where it fits, and
 * marks with {@value #MARKER} each place where the header could not say what a person must: who owns
 * a handle, how long a buffer is, which integer is a status. {@code grep -n '# annotate:' FILE.yaml}
 * lists them; a place written in the long form ({@code {name: p, type: ptr}}) counts as reviewed and
 * is not marked again.
 */
final class DeclarationsWriter {
    /** The comment that marks a place to annotate. */
    static final String MARKER = "# annotate:";
    private static final Pattern PLAIN = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*(\\*)*(\\[[0-9]+])*\\**");
    private static final Pattern DOTTED = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)+");
    /**
     * Plain words a YAML reader takes for something other than a string: null, and the booleans of YAML
     * 1.2 and of YAML 1.1 as SnakeYAML and PyYAML read them. Numbers ({@code 1e3}, {@code 0x10}, {@code .inf})
     * cannot match {@link #PLAIN}, so they are quoted too.
     */
    private static final Set<String> NOT_STRINGS = Set.of("null", "true", "false", "yes", "no", "on", "off");

    /** Which places a person has already reviewed (written in the long form). */
    interface Reviewed {
        boolean returns(String function);

        boolean param(String owner, String param);

        Reviewed NONE = new Reviewed() {
            @Override public boolean returns(String function) { return false; }
            @Override public boolean param(String owner, String param) { return false; }
        };
    }

    private final Declarations d;
    private final Reviewed reviewed;
    private final Set<String> unsignedConstants;
    private final StringBuilder out = new StringBuilder();
    /** The first line of each declaration written: {@code "function f"}, {@code "type T"}, {@code "constant C"}. */
    private final TreeMap<Integer, String> starts = new TreeMap<>();
    private int line = 1;
    private int counted;

    private DeclarationsWriter(Declarations d, Reviewed reviewed, Set<String> unsignedConstants) {
        this.d = d;
        this.reviewed = reviewed;
        this.unsignedConstants = unsignedConstants;
    }

    /** A file's text, and the declaration that starts at each line of it. */
    record Text(String text, NavigableMap<Integer, String> declarations) {
        /** The declaration written at {@code line} ({@code "function f"}), or null for a line before the first. */
        String declarationAt(int line) {
            var e = declarations.floorEntry(line);
            return e == null ? null : e.getValue();
        }
    }

    /**
     * The text of {@code d}: {@code comment} (lines starting with {@code #}) first, then the keys;
     * {@code headers} are written under {@code headers:}. The constants named in {@code unsignedConstants}
     * are unsigned: a value with the top bit set is written in hexadecimal ({@code 0xffffffffffffffff}),
     * which reads back as the same 64 bits, not as the negative number those bits are in a Java long.
     */
    static Text write(Declarations d, String comment, List<String> headers, Reviewed reviewed, Set<String> unsignedConstants) {
        DeclarationsWriter w = new DeclarationsWriter(d, reviewed, unsignedConstants);
        String text = w.document(comment, headers);
        return new Text(text, w.starts);
    }

    /** Notes that declaration {@code what} starts at the next line written. */
    private void starts(String what) {
        for (int i = counted; i < out.length(); i++) if (out.charAt(i) == '\n') line++;
        counted = out.length();
        starts.put(line, what);
    }

    private String document(String comment, List<String> headers) {
        if (comment != null && !comment.isBlank()) out.append(comment.strip()).append("\n");
        out.append("format: 1\n");
        out.append("library: ").append(scalar(d.library())).append("\n");
        if (!d.sonames().isEmpty()) out.append("sonames: ").append(flow(d.sonames().stream().map(DeclarationsWriter::scalar).toList())).append("\n");
        if (d.javaPackage() != null) {
            String p = d.javaPackage();
            out.append("package: ").append(DOTTED.matcher(p).matches() ? p : scalar(p)).append("\n");
        }
        out.append("class: ").append(scalar(d.className())).append("\n");
        if (!headers.isEmpty()) out.append("headers: ").append(flow(headers.stream().map(DeclarationsWriter::scalar).toList())).append("\n");
        if (!d.types().isEmpty()) {
            out.append("\ntypes:\n");
            for (TypeDecl t : d.types().values()) {
                starts("type " + t.name());
                type(t);
            }
        }
        if (!d.constants().isEmpty()) {
            out.append("\nconstants:\n");
            for (Constant c : d.constants().values()) {
                starts("constant " + c.name());
                out.append("  ").append(scalar(c.name())).append(": ").append(constant(c)).append("\n");
            }
        }
        if (!d.errors().isEmpty()) {
            out.append("\nerrors:\n");
            for (ErrorConvention e : d.errors().values()) {
                starts("error " + e.name());
                error(e);
            }
        }
        if (!d.functions().isEmpty()) {
            out.append("\nfunctions:\n");
            for (Function f : d.functions()) {
                starts("function " + f.name());
                function(f);
            }
        }
        return out.toString();
    }

    private void type(TypeDecl t) {
        out.append("  ").append(scalar(t.name())).append(t instanceof TypeDecl.Callback ? ":" : ": ");
        switch (t) {
            case TypeDecl.Alias a when a.bool() -> out.append("{type: ").append(ref(a.target())).append(", boolean: true}\n");
            case TypeDecl.Alias a -> out.append(ref(a.target())).append("\n");
            case TypeDecl.Struct s -> out.append(record("struct", s.fields(), s.align())).append("\n");
            case TypeDecl.Union s -> out.append(record("union", s.fields(), s.align())).append("\n");
            case TypeDecl.Handle h -> {
                List<String> keys = new ArrayList<>();
                keys.add("handle: " + h.kind());
                if (h.retain() != null) keys.add("retain: " + scalar(h.retain()));
                if (h.release() != null) keys.add("release: " + scalar(h.release()));
                if (h.ownership() == Returns.Ownership.BORROWED) keys.add("ownership: borrowed");
                out.append("{").append(String.join(", ", keys)).append("}");
                if (h.release() == null && h.retain() == null) mark("release, retain (to own these handles)");
                out.append("\n");
            }
            case TypeDecl.Callback c -> {
                List<String> keys = new ArrayList<>();
                if (!(c.returns() instanceof TypeRef.Void)) keys.add("returns: " + ref(c.returns()));
                List<String> params = c.params().stream().map(p -> param(p, true)).toList();
                keys.add("params: " + flow(params));
                if (c.userData() != null && !(c.userData().equals("user_data"))) keys.add("user_data: " + scalar(c.userData()));
                if (c.calls() == TypeDecl.Callback.Calls.ONCE) keys.add("calls: once");
                out.append("\n    callback: {").append(String.join(", ", keys)).append("}");
                if (c.userData() == null && !reviewed.param(c.name(), "user_data")) mark("user_data, calls");
                out.append("\n");
            }
        }
    }

    private String record(String kind, List<Field> fields, int align) {
        List<String> fs = fields.stream().map(f -> "[" + ref(f.type()) + ", " + scalar(f.name()) + "]").toList();
        return "{" + kind + ": " + flow(fs) + (align > 0 ? ", align: " + align : "") + "}";
    }

    private void error(ErrorConvention e) {
        out.append("  ").append(scalar(e.name())).append(":\n");
        out.append("    type: ").append(ref(e.type())).append("\n");
        out.append("    success: ").append(flow(e.success().stream().map(String::valueOf).toList())).append("\n");
        if (!e.names().isEmpty()) {
            List<String> names = e.names().entrySet().stream().sorted(Map.Entry.comparingByKey())
                    .map(n -> n.getKey() + ": " + scalar(n.getValue())).toList();
            out.append("    names: {").append(String.join(", ", names)).append("}\n");
        }
    }

    private void function(Function f) {
        out.append("  - name: ").append(scalar(f.name())).append("\n");
        Returns r = f.returns();
        boolean longReturn = r.status() != null || r.ownership() != null || r.length() != null;
        if (!(r.type() instanceof TypeRef.Void) || longReturn) {
            out.append("    returns: ");
            if (longReturn || reviewed.returns(f.name())) {
                List<String> keys = new ArrayList<>();
                keys.add("type: " + ref(r.type()));
                if (r.status() != null) keys.add("status: " + scalar(r.status()));
                if (r.ownership() != null) keys.add("ownership: " + r.ownership().name().toLowerCase(Locale.ROOT));
                if (r.length() != null) keys.add("length: " + scalar(r.length()));
                out.append("{").append(String.join(", ", keys)).append("}");
            } else {
                out.append(ref(r.type()));
                String what = returnMarker(r.type());
                if (what != null) mark(what);
            }
            out.append("\n");
        }
        if (!f.params().isEmpty()) {
            out.append("    params:\n");
            for (Param p : f.params()) {
                boolean isLong = isLong(p) || reviewed.param(f.name(), p.name());
                out.append("      - ").append(isLong ? longParam(p) : param(p, false));
                if (!isLong) {
                    String what = paramMarker(p.type());
                    if (what != null) mark(what);
                }
                out.append("\n");
            }
        }
        if (f.tier() != Function.Tier.STANDARD) out.append("    tier: ").append(f.tier().name().toLowerCase(Locale.ROOT)).append("\n");
        if (f.batchable()) out.append("    batchable: true\n");
        if (f.blocking() != null) out.append("    blocking: ").append(f.blocking()).append("\n");
        if (!f.requires().isEmpty()) {
            out.append("    requires:\n");
            for (var rule : f.requires()) out.append("      - ").append(quote(rule.text())).append("\n");
        }
    }

    private String returnMarker(TypeRef type) {
        TypeRef t = TypeRefs.unalias(d.types(), type);
        if (TypeRefs.isIntegerValue(d.types(), t)) return "status";
        if (TypeRefs.handle(d.types(), t) != null) return "ownership";
        if (t instanceof TypeRef.PointerTo || t instanceof TypeRef.AnyPointer) return "length";
        return null;
    }

    private String paramMarker(TypeRef type) {
        TypeRef t = TypeRefs.unalias(d.types(), type);
        if (t instanceof TypeRef.CString || TypeRefs.handle(d.types(), t) != null
                || TypeRefs.declOf(d.types(), t) instanceof TypeDecl.Callback) return "nullable";
        if (t instanceof TypeRef.PointerTo p && TypeRefs.handle(d.types(), TypeRefs.unalias(d.types(), p.target())) != null) {
            return "dir, ownership, length, nullable";
        }
        if (t instanceof TypeRef.PointerTo || t instanceof TypeRef.AnyPointer) return "dir, length, nullable";
        return null;
    }

    private static boolean isLong(Param p) {
        return p.direction() != Param.Direction.IN || p.hasLength() || p.terminated() || p.nullable() || p.errcode() != null
                || p.ownership() != null || !p.elements().isEmpty() || p.asyncUnless() != null;
    }

    private String param(Param p, boolean inCallback) {
        if (inCallback && isLong(p)) return longParam(p);
        return "[" + ref(p.type()) + ", " + scalar(p.name()) + "]";
    }

    private String longParam(Param p) {
        List<String> keys = new ArrayList<>();
        keys.add("name: " + scalar(p.name()));
        keys.add("type: " + ref(p.type()));
        if (p.direction() != Param.Direction.IN) keys.add("dir: " + p.direction().name().toLowerCase(Locale.ROOT));
        if (p.length() != null) keys.add("length: " + scalar(p.length()));
        if (p.count() > 0) keys.add("length: " + p.count());
        if (p.expression() != null) keys.add("length: " + quote(p.expression().text()));
        if (p.terminated()) keys.add("terminated: true");
        if (p.nullable()) keys.add("nullable: true");
        if (p.errcode() != null) keys.add("errcode: " + scalar(p.errcode()));
        if (p.ownership() != null) keys.add("ownership: " + p.ownership().name().toLowerCase(Locale.ROOT));
        if (!p.elements().isEmpty()) keys.add("elements: " + flow(p.elements().stream().map(ScalarKind::declName).toList()));
        if (p.asyncUnless() != null) keys.add("async_unless: " + scalar(p.asyncUnless()));
        return "{" + String.join(", ", keys) + "}";
    }

    private void mark(String what) {
        out.append("   ").append(MARKER).append(" ").append(what);
    }

    private static String ref(TypeRef t) {
        return scalar(t.spelling());
    }

    private static String flow(List<String> items) {
        return "[" + String.join(", ", items) + "]";
    }

    /**
     * A string as a YAML scalar: plain when every YAML reader reads it back as the same string, else
     * double-quoted ({@code "null"}, {@code "yes"}, {@code "On"}, {@code "1e3"}, {@code "0x10"}).
     */
    static String scalar(String s) {
        boolean plain = PLAIN.matcher(s).matches() && !NOT_STRINGS.contains(s.toLowerCase(Locale.ROOT));
        return plain ? s : quote(s);
    }

    private static String quote(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') b.append('\\').append(c);
            else if (c < 0x20) b.append(String.format("\\x%02x", (int) c));
            else b.append(c);
        }
        return b.append('"').toString();
    }

    /** A constant's value: an unsigned one with the top bit set in hexadecimal (the same 64 bits read back). */
    private String constant(Constant c) {
        if (c.value() instanceof Long v && v < 0 && unsignedConstants.contains(c.name())) return "0x" + Long.toHexString(v);
        return number(c.value());
    }

    static String number(Number n) {
        if (n instanceof Double v) {
            if (v.isNaN()) return ".nan";
            if (v.isInfinite()) return v > 0 ? ".inf" : "-.inf";
            String s = Double.toString(v);
            return s.contains("E") && !s.contains(".") ? s.replace("E", ".0E") : s;
        }
        return n.toString();
    }
}
