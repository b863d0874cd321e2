package dev.panamax.bindgen.importer;

import dev.panamax.bindgen.decl.Constant;
import dev.panamax.bindgen.decl.Declarations;
import dev.panamax.bindgen.decl.DeclarationsException;
import dev.panamax.bindgen.decl.DeclarationsParser;
import dev.panamax.bindgen.decl.Function;
import dev.panamax.bindgen.decl.TypeDecl;
import dev.panamax.bindgen.decl.TypeRef;
import dev.panamax.bindgen.gen.Planner;
import dev.panamax.core.abi.CType;
import dev.panamax.core.io.AtomicFile;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code panamax bindgen import}: C headers in, a declarations file out. The first import writes the
 * file with a {@value DeclarationsWriter#MARKER} comment at each place a person has to decide what the
 * header cannot say; importing again into the same file keeps everything that person added and reports
 * what the headers added, removed or changed.
 *
 * <p>A declaration that cannot be expressed (a construct the format lacks, a name Java or the format
 * cannot use, a macro too large to expand or whose value clang warns about, a type bindgen would refuse)
 * is left out with what uses it and listed in {@link Result#skipped()} with its header place and why;
 * the rest is imported. The file is written with {@link AtomicFile}, and only when its bytes change.
 *
 * <pre>{@code
 * HeaderImport.Result r = HeaderImport.run(new ImportOptions(List.of(Path.of("/usr/include/sqlite3.h")), "sqlite3",
 *         List.of(), List.of(), Pattern.compile("^(sqlite3|SQLITE_)"), "org.example.sqlite"), Path.of("sqlite3.yaml"));
 * r.changes().lines().forEach(System.out::println);
 * }</pre>
 */
public final class HeaderImport {
    private HeaderImport() {}

    /**
     * What an import did.
     *
     * @param text      the declarations file written
     * @param skipped   declarations of the headers left out, with why
     * @param changes   for a re-import, what the headers changed (empty for a first import)
     * @param reimport  whether an existing file was merged
     * @param problem   for a re-import whose merged file does not validate (an annotation names what the
     *                  header removed), the parser's message; null when it validates
     */
    public record Result(Path file, String text, Declarations declarations, List<Skipped> skipped, Changes changes,
                         boolean reimport, String problem) {
        /** One line: how much was imported. */
        public String summary() {
            long handles = declarations.types().values().stream().filter(t -> t instanceof TypeDecl.Handle).count();
            long callbacks = declarations.types().values().stream().filter(t -> t instanceof TypeDecl.Callback).count();
            long records = declarations.types().values().stream().filter(t -> t instanceof TypeDecl.Struct || t instanceof TypeDecl.Union).count();
            long markers = text.lines().filter(l -> l.contains(DeclarationsWriter.MARKER)).count();
            return "panamax bindgen import: " + declarations.library() + ": " + declarations.functions().size() + " functions, "
                    + records + " structs and unions, " + handles + " handles, " + callbacks + " callbacks, "
                    + declarations.constants().size() + " constants, " + skipped.size() + " skipped; " + markers
                    + " places to annotate (" + DeclarationsWriter.MARKER + ") -> " + file;
        }
    }

    /** At most this many declarations are dropped for failing the format's validation before the import gives up. */
    private static final int MAX_DROPPED = 100;

    /**
     * Imports the headers {@code options} names into {@code out}, merging with it when it exists. The file
     * is written atomically ({@link AtomicFile}), and not at all when its bytes would not change.
     */
    public static Result run(ImportOptions options, Path out) {
        HeaderReader.Result r = HeaderReader.read(options);
        if (r.seen() == 0) {
            throw new ImportException(options.filter() == null
                    ? "the headers declare no function, type or constant: " + options.headers()
                    : "--filter '" + options.filter().pattern() + "' matches nothing the headers declare " + options.headers()
                    + "; expected a regular expression found in the names of functions, types or constants");
        }
        List<Skipped> skipped = new ArrayList<>(r.skipped());
        Map<String, TypeDecl> types = new LinkedHashMap<>(r.types());
        Map<String, Constant> constants = new LinkedHashMap<>(r.constants());
        List<Function> functions = new ArrayList<>(r.functions());
        List<String> headers = options.headers().stream().map(h -> headerName(h, out)).toList();
        Declarations fresh = declarations(out, options, types, constants, functions, headers);
        checkLayouts(fresh, r.layouts(), types, skipped);
        prune(types, functions, skipped);

        boolean reimport = Files.isRegularFile(out);
        Declarations old = null;
        String comment = defaultComment(options);
        DeclarationsWriter.Reviewed reviewed = DeclarationsWriter.Reviewed.NONE;
        if (reimport) {
            String oldText = read(out);
            try {
                old = DeclarationsParser.parse(oldText, out.toString());
            } catch (DeclarationsException e) {
                throw new ImportException("cannot re-import into " + out + ": it does not parse: " + e.getMessage()
                        + "; fix it first, or import into a new file");
            }
            comment = leadingComment(oldText);
            reviewed = reviewedPlaces(oldText);
        }
        for (int dropped = 0; ; dropped++) {
            fresh = declarations(out, options, types, constants, functions, headers);
            Declarations result = fresh;
            Changes changes = Changes.none();
            if (reimport) {
                Reimport.Merged m = Reimport.merge(old, fresh);
                result = m.declarations();
                changes = m.changes();
            }
            DeclarationsWriter.Text text = DeclarationsWriter.write(result, comment, result.headers(), reviewed, r.unsignedConstants());
            String problem = null;
            DeclarationsException refused = null;
            boolean parses = false;
            try {
                Declarations parsed = DeclarationsParser.parse(text.text(), out.toString());
                parses = true;
                Planner.plan(parsed);   // what bindgen would refuse to generate (a type whose Java class is taken)
            } catch (DeclarationsException e) {
                refused = e;
            }
            if (refused != null) {
                // one declaration the format or bindgen refuses (a name, a value) is left out; the rest is imported
                String what = text.declarationAt(refused.location().line());
                boolean fromHeader = what != null && (!reimport || changes.added().contains(what));
                if (fromHeader && dropped < MAX_DROPPED && drop(what, reason(refused, parses), types, constants, functions, skipped)) {
                    continue;
                }
                if (!parses && !reimport) throw new ImportException("the imported declarations do not validate: " + refused.getMessage());
                if (!parses) problem = refused.getMessage();
                // a file that parses but that bindgen refuses as a whole (its package, its class) is written: generation says why
            }
            AtomicFile.write(out, text.text().getBytes(StandardCharsets.UTF_8));
            return new Result(out, text.text(), result, skipped, changes, reimport, problem);
        }
    }

    /** The refusal without the place in the file written (the header's place is reported instead). */
    private static String reason(DeclarationsException e, boolean parses) {
        String prefix = e.location() + ": ";
        String m = e.getMessage();
        return (parses ? "bindgen refuses it: " : "the declarations format refuses it: ")
                + (m.startsWith(prefix) ? m.substring(prefix.length()) : m);
    }

    /** Leaves out declaration {@code what} ({@code "function f"}, {@code "type T"}, ...) and what uses it. */
    private static boolean drop(String what, String reason, Map<String, TypeDecl> types, Map<String, Constant> constants,
                                List<Function> functions, List<Skipped> skipped) {
        int space = what.indexOf(' ');
        String kind = what.substring(0, space);
        String name = what.substring(space + 1);
        switch (kind) {
            case "type" -> {
                TypeDecl t = types.remove(name);
                if (t == null) return false;
                skipped.add(new Skipped(name, "type", t.location().toString(), reason));
                prune(types, functions, skipped);
                return true;
            }
            case "constant" -> {
                Constant c = constants.remove(name);
                if (c == null) return false;
                skipped.add(new Skipped(name, "constant", c.location().toString(), reason));
                return true;
            }
            case "function" -> {
                for (int i = 0; i < functions.size(); i++) {
                    if (!functions.get(i).name().equals(name)) continue;
                    Function f = functions.remove(i);
                    skipped.add(new Skipped(name, "function", f.location().toString(), reason));
                    return true;
                }
                return false;
            }
            default -> {
                return false;
            }
        }
    }

    private static Declarations declarations(Path out, ImportOptions o, Map<String, TypeDecl> types, Map<String, Constant> constants,
                                             List<Function> functions, List<String> headers) {
        String pkg = o.javaPackage() != null ? o.javaPackage() : "panamax." + o.library().toLowerCase(java.util.Locale.ROOT);
        String cls = DeclarationsParser.defaultClassName(o.library());
        for (String t : types.keySet()) if (DeclarationsParser.defaultClassName(t).equals(cls)) cls = cls + "Library";   // sqlite3 the handle
        return new Declarations(out.toString(), 1, o.library(), List.of(o.library()), pkg, cls, types,
                constants, Map.of(), functions, headers);
    }

    /** {@code <CL/cl.h>} for a header under a system include directory, else its path relative to the file. */
    static String headerName(Path header, Path out) {
        Path real;
        try {
            real = header.toRealPath();
        } catch (IOException e) {
            real = header.toAbsolutePath().normalize();
        }
        for (String root : List.of("/usr/include/x86_64-linux-gnu", "/usr/local/include", "/usr/include")) {
            if (real.startsWith(root)) return "<" + Path.of(root).relativize(real) + ">";
        }
        Path dir = out.toAbsolutePath().normalize().getParent();
        if (dir == null) return real.toString();
        Path relative = dir.relativize(real);
        return relative.startsWith("..") ? real.toString() : relative.toString();
    }

    /**
     * Compares each struct's layout as the format computes it (System V) with clang's: an alignment
     * clang makes larger is declared ({@code align:}); another size (a packed struct) skips the struct.
     */
    private static void checkLayouts(Declarations d, Map<String, long[]> layouts, Map<String, TypeDecl> types, List<Skipped> skipped) {
        for (var e : layouts.entrySet()) {
            String name = e.getKey();
            TypeDecl t = types.get(name);
            if (t == null) continue;
            CType c;
            try {
                c = d.resolveType(name);
            } catch (RuntimeException ex) {
                continue;   // it uses something skipped: pruned below
            }
            long size = e.getValue()[0];
            long align = e.getValue()[1];
            if (align > c.align() && (align & (align - 1)) == 0) {
                types.put(name, switch (t) {
                    case TypeDecl.Struct s -> new TypeDecl.Struct(s.name(), s.fields(), (int) align, s.location());
                    case TypeDecl.Union s -> new TypeDecl.Union(s.name(), s.fields(), (int) align, s.location());
                    default -> t;
                });
                long padded = (c.size() + align - 1) / align * align;
                if (padded == size) continue;
            }
            if (c.size() != size || c.align() > align) {
                types.remove(name);
                skipped.add(new Skipped(name, "type", t.location().toString(), "laid out unlike System V (clang: size "
                        + size + ", align " + align + "; natural: size " + c.size() + ", align " + c.align() + "): packed?"));
            }
        }
    }

    /** Removes, until none is left, every type and function that uses a type not declared. */
    private static void prune(Map<String, TypeDecl> types, List<Function> functions, List<Skipped> skipped) {
        boolean again = true;
        while (again) {
            again = false;
            for (TypeDecl t : List.copyOf(types.values())) {
                String missing = missing(types, Reimport.refs(t));
                if (missing != null) {
                    types.remove(t.name());
                    skipped.add(new Skipped(t.name(), "type", t.location().toString(), "uses " + missing + ", which is skipped"));
                    again = true;
                }
            }
        }
        functions.removeIf(f -> {
            List<TypeRef> refs = new ArrayList<>();
            refs.add(f.returns().type());
            f.params().forEach(p -> refs.add(p.type()));
            String missing = missing(types, refs);
            if (missing != null) skipped.add(new Skipped(f.name(), "function", f.location().toString(), "uses " + missing + ", which is skipped"));
            return missing != null;
        });
    }

    private static String missing(Map<String, TypeDecl> types, List<TypeRef> refs) {
        for (TypeRef r : refs) {
            String n = Reimport.named(r);
            if (n != null && !types.containsKey(n)) return n;
        }
        return null;
    }

    private static String defaultComment(ImportOptions o) {
        return "# " + o.library() + ", imported from " + String.join(", ", o.headers().stream().map(Path::toString).toList())
                + " by `panamax bindgen import`.\n"
                + "# Lines marked '" + DeclarationsWriter.MARKER + "' need what the header cannot say (docs/DECLARATIONS.md):\n"
                + "# statuses, handle ownership, buffer lengths and directions, nullability; tiers are all standard.\n"
                + "# Importing again into this file keeps every annotation and reports what the header changed.";
    }

    private static String read(Path p) {
        try {
            return Files.readString(p, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + p + ": " + e.getMessage(), e);
        }
    }

    /** The comment lines before the first key. */
    private static String leadingComment(String text) {
        StringBuilder b = new StringBuilder();
        for (String line : text.lines().toList()) {
            if (line.startsWith("#") || line.isBlank()) b.append(line).append("\n");
            else break;
        }
        return b.toString();
    }

    /**
     * The places of {@code text} written in the long form: a function's {@code returns: {...}}, a
     * parameter {@code {name: ..}}, a callback with {@code calls:}.
     */
    @SuppressWarnings("unchecked")
    private static DeclarationsWriter.Reviewed reviewedPlaces(String text) {
        Set<String> returns = new HashSet<>();
        Set<String> params = new HashSet<>();
        Object doc;
        try {
            doc = new Load(LoadSettings.builder().build()).loadFromString(text.replaceAll("(?<=[A-Za-z0-9_*\\]])\\[(\\d+)]", "_$1_"));
        } catch (RuntimeException e) {
            return DeclarationsWriter.Reviewed.NONE;
        }
        if (doc instanceof Map<?, ?> top) {
            if (top.get("functions") instanceof List<?> fs) {
                for (Object f : fs) {
                    if (!(f instanceof Map<?, ?> fm) || !(fm.get("name") instanceof String name)) continue;
                    if (fm.get("returns") instanceof Map) returns.add(name);
                    if (fm.get("params") instanceof List<?> ps) {
                        for (Object p : ps) if (p instanceof Map<?, ?> pm && pm.get("name") instanceof String pn) params.add(name + "/" + pn);
                    }
                }
            }
            if (top.get("types") instanceof Map<?, ?> ts) {
                for (var e : ((Map<Object, Object>) ts).entrySet()) {
                    if (e.getValue() instanceof Map<?, ?> tm && tm.get("callback") instanceof Map<?, ?> cb && cb.containsKey("calls")) {
                        params.add(e.getKey() + "/user_data");
                    }
                }
            }
        }
        return new DeclarationsWriter.Reviewed() {
            @Override public boolean returns(String function) { return returns.contains(function); }
            @Override public boolean param(String owner, String param) { return params.contains(owner + "/" + param); }
        };
    }
}
