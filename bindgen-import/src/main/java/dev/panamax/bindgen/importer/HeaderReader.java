package dev.panamax.bindgen.importer;

import dev.panamax.bindgen.decl.Constant;
import dev.panamax.bindgen.decl.Field;
import dev.panamax.bindgen.decl.Function;
import dev.panamax.bindgen.decl.Location;
import dev.panamax.bindgen.decl.Param;
import dev.panamax.bindgen.decl.Returns;
import dev.panamax.bindgen.decl.TypeDecl;
import dev.panamax.bindgen.decl.TypeRef;
import dev.panamax.bindgen.importer.ClangUnit.Place;
import dev.panamax.bindgen.importer.clang.Clang;
import dev.panamax.core.abi.ScalarKind;

import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads C headers with libclang into the declarations model: the headers' functions, structs and
 * unions, enums and integer {@code #define}s, typedefs, function pointer types (as callbacks) and
 * pointers to incomplete structs (as handles), plus every type of another file they use. What the
 * format cannot hold is skipped by name with the reason (bitfields, variadic functions,
 * {@code long double}, anonymous nested structs and unions, vectors, 128-bit integers, ...).
 *
 * <p>Types of the C library and the compiler ({@code uint32_t}, {@code size_t}) become primitives; a
 * typedef of the headers' own files keeps its name, and so does a function pointer typedef of any file
 * (a callback's parameters are read as written, so typedefs built on one another stay a chain). Only the
 * macros kept are evaluated, each after {@link MacroSize} has bounded its expansion.
 */
final class HeaderReader {
    /** The directories whose files are the C library's and the compiler's, not a library's own. */
    private static final Set<String> SYSTEM_ROOTS = Set.of("/usr/include", "/usr/local/include",
            "/usr/include/x86_64-linux-gnu");
    private static final Set<String> C_KEYWORDS = Set.of("auto", "break", "case", "char", "const", "continue",
            "default", "do", "double", "else", "enum", "extern", "float", "for", "goto", "if", "inline", "int", "long",
            "register", "restrict", "return", "short", "signed", "sizeof", "static", "struct", "switch", "typedef",
            "union", "unsigned", "void", "volatile", "while", "_Bool", "bool", "ptr", "string");
    private static final Pattern IDENT = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    private static final String MACRO_PREFIX = "pmx_macro_";
    /** The warnings that say a constant expression's value is not what it means (wrapped, cut, out of range). */
    private static final Set<String> VALUE_WARNINGS = Set.of("-Winteger-overflow", "-Wshift-count-overflow",
            "-Wshift-count-negative", "-Wshift-overflow", "-Wconstant-conversion", "-Wimplicitly-unsigned-literal",
            "-Wliteral-range", "-Wimplicit-const-int-float-conversion", "-Wdivision-by-zero");
    private static final Set<Integer> UNSIGNED = Set.of(Clang.CXType_Char_U, Clang.CXType_UChar, Clang.CXType_UShort,
            Clang.CXType_UInt, Clang.CXType_ULong, Clang.CXType_ULongLong, Clang.CXType_Char16, Clang.CXType_Char32);

    /** A construct the format cannot hold: the declaration using it is skipped with this reason. */
    static final class Unsupported extends RuntimeException {
        private static final long serialVersionUID = 1L;
        Unsupported(String reason) {
            super(reason, null, false, false);
        }
    }

    /**
     * What the headers declare, in the declarations model.
     *
     * @param macroTokens       the tokens of the macros given to clang to evaluate, as {@link MacroSize} counts them
     * @param unsignedConstants the constants whose C type is unsigned
     */
    record Result(Map<String, TypeDecl> types, Map<String, Constant> constants, List<Function> functions,
                  List<Skipped> skipped, int seen, Map<String, long[]> layouts, long macroTokens,
                  Set<String> unsignedConstants) {}

    private final ImportOptions options;
    private final Set<String> headers = new HashSet<>();
    private final List<String> ownDirs = new ArrayList<>();
    private ClangUnit u;

    private final Map<String, TypeDecl> types = new LinkedHashMap<>();
    private final Map<String, String> failedTypes = new HashMap<>();
    private final Set<String> inProgress = new HashSet<>();
    /** Record type spelling ("struct sqlite3") to the name it is declared under. */
    private final Map<String, String> recordNames = new HashMap<>();
    private final Map<String, Constant> constants = new LinkedHashMap<>();
    /** The constants whose C type is unsigned (UINT64_MAX is 0xffffffffffffffff, not -1). */
    private final Set<String> unsignedConstants = new HashSet<>();
    private final List<Function> functions = new ArrayList<>();
    private final List<Skipped> skipped = new ArrayList<>();
    private int seen;
    private MacroSize macroSizes;
    /** The tokens of the macros given to clang to evaluate, as {@link MacroSize} counts them. */
    private long macroTokens;

    private HeaderReader(ImportOptions options) {
        this.options = options;
    }

    /** Reads the headers {@code options} names. */
    static Result read(ImportOptions options) {
        return new HeaderReader(options).run();
    }

    private Result run() {
        if (options.headers().isEmpty()) throw new ImportException("no header given; expected at least one C header");
        for (Path h : options.headers()) {
            if (!Files.isRegularFile(h)) throw new ImportException("header not found: " + h);
            Path real = real(h);
            headers.add(real.toString());
            String dir = real.getParent().toString();
            if (!SYSTEM_ROOTS.contains(dir)) ownDirs.add(dir + "/");
        }
        for (Path i : options.includes()) {
            if (!Files.isDirectory(i)) throw new ImportException("include directory not found: " + i);
            String dir = real(i).toString();
            if (!SYSTEM_ROOTS.contains(dir)) ownDirs.add(dir + "/");
        }
        List<String> args = arguments();
        StringBuilder main = new StringBuilder();
        for (String h : headers.stream().sorted().toList()) main.append("#include \"").append(h).append("\"\n");
        List<String> macros = new ArrayList<>();
        Map<String, Place> macroPlaces = new HashMap<>();
        try (ClangUnit unit = ClangUnit.parse(MAIN, main.toString(), args,
                Clang.CXTranslationUnit_DetailedPreprocessingRecord | Clang.CXTranslationUnit_SkipFunctionBodies)) {
            u = unit;
            List<String> errors = unit.errors();
            if (!errors.isEmpty()) {
                throw new ImportException("the headers do not parse (" + errors.size() + " error"
                        + (errors.size() == 1 ? "" : "s") + "):\n  " + String.join("\n  ", errors.subList(0, Math.min(errors.size(), 20)))
                        + (errors.size() > 20 ? "\n  ..." : ""));
            }
            List<MemorySegment> top = unit.children(unit.root());
            Map<String, MemorySegment> macroCursors = new HashMap<>();
            for (MemorySegment c : top) {
                if (ClangUnit.kind(c) == Clang.CXCursor_TypedefDecl) nameRecord(c);
                if (ClangUnit.kind(c) == Clang.CXCursor_MacroDefinition) macroCursors.put(unit.spelling(c), c);
            }
            Set<String> functionNames = new HashSet<>();
            for (MemorySegment c : top) {
                int kind = ClangUnit.kind(c);
                if (kind != Clang.CXCursor_MacroDefinition && kind != Clang.CXCursor_FunctionDecl
                        && kind != Clang.CXCursor_TypedefDecl && kind != Clang.CXCursor_StructDecl
                        && kind != Clang.CXCursor_UnionDecl && kind != Clang.CXCursor_EnumDecl) continue;
                Place place = unit.place(c);
                if (!isHeader(place.file())) continue;
                String name = unit.spelling(c);
                switch (kind) {
                    case Clang.CXCursor_MacroDefinition -> {
                        if (!options.keeps(name) || unit.isFunctionLikeMacro(c) || constants.containsKey(name)) continue;
                        List<String> body = unit.macroBody(c);
                        if (body.isEmpty() || macroPlaces.containsKey(name)) continue;
                        seen++;
                        String unusable = constantNameProblem(name);
                        if (unusable != null) {
                            skipped.add(new Skipped(name, "constant", place.toString(), unusable));
                            continue;
                        }
                        if (body.stream().anyMatch(t -> t.startsWith("\"") || t.startsWith("L\"") || t.startsWith("u8\""))) {
                            skipped.add(new Skipped(name, "constant", place.toString(), "a string, not a number"));
                            continue;
                        }
                        macros.add(name);
                        macroPlaces.put(name, place);
                        macroCursors.put(name, c);
                    }
                    case Clang.CXCursor_FunctionDecl -> {
                        if (!options.keeps(name) || !functionNames.add(name)) continue;
                        seen++;
                        function(c, name, place);
                    }
                    case Clang.CXCursor_EnumDecl -> enumConstants(c);
                    case Clang.CXCursor_TypedefDecl -> {
                        if (!options.keeps(name) || types.containsKey(name)) continue;
                        seen++;
                        typedef(c, name, place);
                    }
                    default -> {   // a struct or union declared without a typedef
                        if (name.isEmpty() || unit.isAnonymous(c) || !options.keeps(name)) continue;
                        MemorySegment t = unit.type(c);
                        if (ClangUnit.sizeOf(t) == ClangUnit.INCOMPLETE) continue;
                        seen++;
                        try {
                            map(t, name, Use.FIELD);
                        } catch (Unsupported e) {
                            skipped.add(new Skipped(name, "type", place.toString(), e.getMessage()));
                        }
                    }
                }
            }
            macros.removeIf(m -> tooLarge(m, macroCursors, macroPlaces.get(m)));
        } finally {
            u = null;
        }
        if (!macros.isEmpty()) macroValues(main.toString(), args, macros, macroPlaces);
        Set<String> once = new HashSet<>();
        skipped.removeIf(k -> !once.add(k.kind() + " " + k.name()));
        return new Result(types, constants, functions, skipped, seen, layouts, macroTokens, unsignedConstants);
    }

    private static final String MAIN = "pmx_import.c";

    private List<String> arguments() {
        List<String> args = new ArrayList<>(List.of("-x", "c", "-std=gnu11", "-ferror-limit=0", "-fno-spell-checking"));
        for (String dir : clangResourceIncludes()) args.addAll(List.of("-isystem", dir));
        for (Path i : options.includes()) args.add("-I" + i);
        for (String d : options.defines()) args.add("-D" + d);
        return args;
    }

    /** The compiler's own headers (stddef.h, stdarg.h), from libclang's resource directory. */
    private static List<String> clangResourceIncludes() {
        Path base = Path.of("/usr/lib/llvm-15/lib/clang");
        if (!Files.isDirectory(base)) return List.of();
        try (var dirs = Files.list(base)) {
            return dirs.map(d -> d.resolve("include")).filter(Files::isDirectory).map(Path::toString).sorted().limit(1).toList();
        } catch (java.io.IOException e) {
            return List.of();
        }
    }

    private static Path real(Path p) {
        try {
            return p.toRealPath();
        } catch (java.io.IOException e) {
            return p.toAbsolutePath().normalize();
        }
    }

    private boolean isHeader(String file) {
        return headers.contains(file);
    }

    /** A file of the library's own (a header given, or one beside it or under an include directory). */
    private boolean isOwn(String file) {
        if (headers.contains(file)) return true;
        for (String d : ownDirs) if (file.startsWith(d)) return true;
        return false;
    }

    /** A header of the C library or the compiler (struct timespec, FILE): never declared by an import. */
    private boolean isCLibrary(String file) {
        if (isOwn(file)) return false;
        if (file.startsWith("/usr/lib/") || file.startsWith("/usr/include/x86_64-linux-gnu/")) return true;
        for (String d : List.of("/usr/include/", "/usr/local/include/")) {
            if (!file.startsWith(d)) continue;
            String rest = file.substring(d.length());
            int slash = rest.indexOf('/');
            return slash < 0 || Set.of("sys", "bits", "linux", "asm", "asm-generic", "gnu", "netinet", "arpa", "net")
                    .contains(rest.substring(0, slash));
        }
        return false;
    }

    private Location location(Place p) {
        return new Location(p.file(), p.line(), p.column());
    }

    // ------------------------------------------------------------------ declarations

    /** {@code typedef struct S T;}: T names struct S. */
    private void nameRecord(MemorySegment typedef) {
        MemorySegment under = u.canonical(u.typedefUnderlying(typedef));
        if (ClangUnit.typeKind(under) == Clang.CXType_Record) {
            recordNames.putIfAbsent(u.typeSpelling(under), u.spelling(typedef));
        } else if (ClangUnit.typeKind(under) == Clang.CXType_Pointer) {
            MemorySegment p = u.canonical(u.pointee(under));
            if (ClangUnit.typeKind(p) == Clang.CXType_Record && ClangUnit.sizeOf(p) == ClangUnit.INCOMPLETE) {
                // typedef struct _cl_mem *cl_mem: the handle is cl_mem
                recordNames.putIfAbsent(u.typeSpelling(p), u.spelling(typedef));
            }
        }
    }

    private void function(MemorySegment c, String name, Place place) {
        MemorySegment type = u.type(c);
        try {
            if (!IDENT.matcher(name).matches()) {
                throw new Unsupported("the name is not an ASCII identifier ([A-Za-z_][A-Za-z0-9_]*): no Java method can link it by name");
            }
            if (u.isStatic(c)) throw new Unsupported("static: no symbol to link (an inline function of the header)");
            if (ClangUnit.typeKind(type) == Clang.CXType_FunctionProto && u.isVariadic(type)) {
                throw new Unsupported("variadic (...): FFM binds a variadic function per call shape; declare each shape by hand");
            }
            TypeRef returns = map(u.result(type), name + "_returns", Use.RETURN);   // a callback it returns: NAME_returns
            List<Param> params = new ArrayList<>();
            int n = Math.max(0, u.argumentCount(c));
            Set<String> names = new HashSet<>();
            for (int i = 0; i < n; i++) {
                MemorySegment arg = u.argument(c, i);
                String pname = parameterName(u.spelling(arg), i, names);
                TypeRef t = map(u.type(arg), name + "_" + pname, Use.PARAM, arg);
                params.add(new Param(pname, t, Param.Direction.IN, null, false, null, location(u.place(arg))));
            }
            functions.add(new Function(name, Returns.plain(returns, location(place)), params, Function.Tier.STANDARD,
                    false, null, location(place)));
        } catch (Unsupported e) {
            skipped.add(new Skipped(name, "function", place.toString(), e.getMessage()));
        }
    }

    /** Why a constant cannot keep C name {@code name} (a Java field is named as it is), or null when it can. */
    private static String constantNameProblem(String name) {
        if (!IDENT.matcher(name).matches()) return "the name is not an ASCII identifier ([A-Za-z_][A-Za-z0-9_]*)";
        if (!dev.panamax.bindgen.gen.Bindgen.usableAsJavaMember(name)) {
            return "'" + name + "' is a Java keyword: no Java field can be named as the constant";
        }
        return null;
    }

    private static String parameterName(String given, int index, Set<String> taken) {
        String name = given == null || given.isEmpty() || !IDENT.matcher(given).matches() || C_KEYWORDS.contains(given)
                ? "arg" + index : given;
        while (!taken.add(name)) name = name + "_";
        return name;
    }

    private void enumConstants(MemorySegment e) {
        MemorySegment integer = u.canonical(u.enumIntegerType(e));
        boolean unsigned = UNSIGNED.contains(ClangUnit.typeKind(integer));
        // clang gives every value sign-extended to 64 bits: an unsigned enum's value keeps only its type's bits
        long bytes = ClangUnit.sizeOf(integer);
        long mask = unsigned && bytes > 0 && bytes < 8 ? (1L << (8 * bytes)) - 1 : -1L;
        for (MemorySegment k : u.children(e)) {
            if (ClangUnit.kind(k) != Clang.CXCursor_EnumConstantDecl) continue;
            String name = u.spelling(k);
            if (!options.keeps(name) || constants.containsKey(name)) continue;
            seen++;
            String unusable = constantNameProblem(name);
            if (unusable != null) {
                skipped.add(new Skipped(name, "constant", u.place(k).toString(), unusable));
                continue;
            }
            constants.put(name, new Constant(name, u.enumValue(k) & mask, location(u.place(k))));
            if (unsigned) unsignedConstants.add(name);
        }
    }

    private void typedef(MemorySegment c, String name, Place place) {
        try {
            MemorySegment canonical = u.canonical(u.type(c));
            if (ClangUnit.typeKind(canonical) == Clang.CXType_Record && ClangUnit.sizeOf(canonical) == ClangUnit.INCOMPLETE) {
                // typedef struct sqlite3 sqlite3: an opaque object, handled through pointers
                handle(recordName(canonical), place);
                return;
            }
            map(u.type(c), name, Use.ALIAS);
        } catch (Unsupported e) {
            skipped.add(new Skipped(name, "type", place.toString(), e.getMessage()));
        }
    }

    /**
     * Whether macro {@code name} expands to more tokens than clang is asked to evaluate ({@link
     * MacroSize#LIMIT}); such a macro is skipped with the reason. Sizes are worked out from the bodies of
     * the macros it uses, read once each.
     */
    private boolean tooLarge(String name, Map<String, MemorySegment> cursors, Place place) {
        if (macroSizes == null) {
            Map<String, MacroSize.Definition> read = new HashMap<>();
            macroSizes = new MacroSize(n -> {
                if (read.containsKey(n)) return read.get(n);
                MemorySegment c = cursors.get(n);
                MacroSize.Definition d = c == null ? null : definition(c);
                read.put(n, d);
                return d;
            });
        }
        long size = macroSizes.of(name);
        macroTokens += size;
        if (size <= MacroSize.LIMIT) return false;
        macroTokens -= size;
        skipped.add(new Skipped(name, "constant", place.toString(), "expands to more than " + MacroSize.LIMIT
                + " tokens (macros that double one another?); not evaluated"));
        return true;
    }

    /** A macro's parameters (function-like) and body, read with clang's tokenizer. */
    private MacroSize.Definition definition(MemorySegment cursor) {
        List<String> tokens = u.macroBody(cursor);
        if (!u.isFunctionLikeMacro(cursor)) return new MacroSize.Definition(null, tokens);
        List<String> params = new ArrayList<>();
        int i = 1;   // tokens.get(0) is the '(' of the parameter list
        for (; i < tokens.size() && !tokens.get(i).equals(")"); i++) {
            String t = tokens.get(i);
            if (t.equals("...")) params.add("__VA_ARGS__");
            else if (!t.equals(",")) params.add(t);
        }
        return new MacroSize.Definition(params, tokens.subList(Math.min(i + 1, tokens.size()), tokens.size()));
    }

    /**
     * The integer and floating {@code #define}s, evaluated by clang: a second unit declares one
     * variable per macro, initialized with it; what does not evaluate to a number is skipped.
     */
    private void macroValues(String main, List<String> args, List<String> macros, Map<String, Place> places) {
        StringBuilder src = new StringBuilder(main);
        int firstLine = (int) main.lines().count() + 1;
        for (String m : macros) src.append("__auto_type ").append(MACRO_PREFIX).append(m).append(" = (").append(m).append(");\n");
        try (ClangUnit unit = ClangUnit.parse(MAIN, src.toString(), args, Clang.CXTranslationUnit_SkipFunctionBodies)) {
            // a value clang computes but says is not the expression's (an overflow wrapped, a shift past
            // the width) is not written: the diagnostic is the reason it is skipped
            Map<String, String> wrong = new HashMap<>();
            for (ClangUnit.Diagnostic d : unit.diagnostics(Clang.CXDiagnostic_Warning)) {
                int index = d.place().line() - firstLine;
                if (!d.place().file().equals(MAIN) || index < 0 || index >= macros.size()) continue;
                if (d.severity() >= Clang.CXDiagnostic_Error || VALUE_WARNINGS.contains(d.option())) {
                    wrong.putIfAbsent(macros.get(index), d.message() + (d.option().isEmpty() ? "" : " [" + d.option() + "]"));
                }
            }
            Map<String, Number> values = new HashMap<>();
            for (MemorySegment c : unit.children(unit.root())) {
                if (ClangUnit.kind(c) != Clang.CXCursor_VarDecl) continue;
                String var = unit.spelling(c);
                if (!var.startsWith(MACRO_PREFIX)) continue;
                int k = ClangUnit.typeKind(unit.canonical(unit.type(c)));
                boolean number = k >= Clang.CXType_Bool && k <= Clang.CXType_Double && k != Clang.CXType_Int128
                        && k != Clang.CXType_UInt128;
                Number v = number ? unit.evaluate(c) : null;
                if (v == null) continue;
                String macro = var.substring(MACRO_PREFIX.length());
                values.put(macro, v);
                if (UNSIGNED.contains(k)) unsignedConstants.add(macro);
            }
            for (String m : macros) {
                Number v = values.get(m);
                if (wrong.containsKey(m)) {
                    skipped.add(new Skipped(m, "constant", places.get(m).toString(), "clang: " + wrong.get(m)));
                } else if (v == null) {
                    skipped.add(new Skipped(m, "constant", places.get(m).toString(), "not an integer or floating constant expression"));
                } else if (!constants.containsKey(m)) {
                    constants.put(m, new Constant(m, v, location(places.get(m))));
                }
            }
        }
    }

    // ------------------------------------------------------------------ types

    /** Where a type is used: what it may be. */
    enum Use { RETURN, PARAM, FIELD, ALIAS }

    private TypeRef map(MemorySegment t, String context, Use use) {
        return map(t, context, use, null);
    }

    /**
     * The declarations-file type of clang type {@code t}, declaring the named types it needs.
     * {@code context} names a function pointer type that has no name of its own; {@code cursor} (or
     * null) is the declaration whose children name a function pointer's parameters.
     */
    private TypeRef map(MemorySegment t, String context, Use use, MemorySegment cursor) {
        int kind = ClangUnit.typeKind(t);
        switch (kind) {
            case Clang.CXType_Elaborated -> {
                return map(u.namedType(t), context, use, cursor);
            }
            case Clang.CXType_Typedef -> {
                return typedefType(t, context, use, cursor);
            }
            case Clang.CXType_Pointer -> {
                return pointer(t, context, cursor);
            }
            case Clang.CXType_Record -> {
                return new TypeRef.Named(record(t));
            }
            case Clang.CXType_Enum -> {
                return map(u.enumIntegerType(u.declaration(t)), context, use, null);
            }
            case Clang.CXType_ConstantArray -> {
                if (use != Use.FIELD) return new TypeRef.PointerTo(map(u.element(t), context, use, null));
                long n = ClangUnit.arraySize(t);
                if (n <= 0 || n > Integer.MAX_VALUE) throw new Unsupported("array of " + n + " elements");
                return new TypeRef.ArrayOf(map(u.element(t), context, use, null), (int) n);
            }
            case Clang.CXType_IncompleteArray -> {
                if (use == Use.FIELD) throw new Unsupported("flexible array member (" + u.typeSpelling(t) + ")");
                return new TypeRef.PointerTo(map(u.element(t), context, use, null));
            }
            case Clang.CXType_Void -> {
                if (use != Use.RETURN) throw new Unsupported("void " + (use == Use.FIELD ? "field" : "value"));
                return new TypeRef.Void();
            }
            case Clang.CXType_FunctionProto, Clang.CXType_FunctionNoProto ->
                    throw new Unsupported("a function type used as a value (" + u.typeSpelling(t) + ")");
            case Clang.CXType_Unexposed, Clang.CXType_Atomic -> {
                MemorySegment c = u.canonical(t);
                if (ClangUnit.typeKind(c) == kind) throw new Unsupported("type " + u.typeSpelling(t) + " has no C layout clang exposes");
                return map(c, context, use, cursor);
            }
            default -> {
                return new TypeRef.Primitive(scalar(t));
            }
        }
    }

    private ScalarKind scalar(MemorySegment t) {
        return switch (ClangUnit.typeKind(t)) {
            case Clang.CXType_Bool -> ScalarKind.BOOL;
            case Clang.CXType_Char_S, Clang.CXType_SChar -> ScalarKind.I8;
            case Clang.CXType_Char_U, Clang.CXType_UChar -> ScalarKind.U8;
            case Clang.CXType_Short -> ScalarKind.I16;
            case Clang.CXType_UShort, Clang.CXType_Char16 -> ScalarKind.U16;
            case Clang.CXType_Int, Clang.CXType_WChar -> ScalarKind.I32;
            case Clang.CXType_UInt, Clang.CXType_Char32 -> ScalarKind.U32;
            case Clang.CXType_Long, Clang.CXType_LongLong -> ScalarKind.I64;
            case Clang.CXType_ULong, Clang.CXType_ULongLong -> ScalarKind.U64;
            case Clang.CXType_Float -> ScalarKind.F32;
            case Clang.CXType_Double -> ScalarKind.F64;
            case Clang.CXType_LongDouble -> throw new Unsupported("long double: FFM cannot pass it (declare f80 by hand for a thunk)");
            case Clang.CXType_Int128, Clang.CXType_UInt128 -> throw new Unsupported("128-bit integer (" + u.typeSpelling(t) + ")");
            case Clang.CXType_Half, Clang.CXType_Float16, Clang.CXType_Float128 ->
                    throw new Unsupported("floating type " + u.typeSpelling(t) + " has no Java counterpart");
            case Clang.CXType_Vector -> throw new Unsupported("vector type " + u.typeSpelling(t));
            case Clang.CXType_Complex -> throw new Unsupported("complex type " + u.typeSpelling(t));
            default -> throw new Unsupported("type " + u.typeSpelling(t));
        };
    }

    private TypeRef typedefType(MemorySegment t, String context, Use use, MemorySegment cursor) {
        MemorySegment decl = u.declaration(t);
        String name = u.spelling(decl);
        if (name.equals("size_t")) return new TypeRef.Primitive(ScalarKind.SIZE_T);
        MemorySegment canonical = u.canonical(t);
        int ck = ClangUnit.typeKind(canonical);
        if (!isOwn(u.place(decl).file())) {
            if (name.equals("va_list") || name.equals("__gnuc_va_list") || name.equals("__builtin_va_list")) {
                throw new Unsupported("va_list");
            }
            // another header's function pointer typedef is a callback under its own name, as the library's
            // are: expanded at each use, a chain of them would be copied exponentially
            if (!isFunctionPointer(canonical)) return map(canonical, context, use, cursor);
        }
        if (failedTypes.containsKey(name)) throw new Unsupported(failedTypes.get(name));
        if (types.containsKey(name) || inProgress.contains(name)) return new TypeRef.Named(name);
        if (ck == Clang.CXType_Record) {
            if (ClangUnit.sizeOf(canonical) == ClangUnit.INCOMPLETE) throw new Unsupported("incomplete struct " + name + " by value");
            return new TypeRef.Named(record(canonical));
        }
        if (ck == Clang.CXType_Pointer) {
            MemorySegment p = u.canonical(u.pointee(canonical));
            int pk = ClangUnit.typeKind(p);
            if (pk == Clang.CXType_Record && ClangUnit.sizeOf(p) == ClangUnit.INCOMPLETE && !recordNames.getOrDefault(u.typeSpelling(p), name).equals(name)) {
                return pointer(canonical, context, cursor);
            }
            if (pk == Clang.CXType_FunctionProto || pk == Clang.CXType_FunctionNoProto) {
                MemorySegment written = u.typedefUnderlying(decl);
                while (ClangUnit.typeKind(written) == Clang.CXType_Elaborated) written = u.namedType(written);
                if (ClangUnit.typeKind(written) == Clang.CXType_Pointer) {
                    // the function type as written, not the canonical one: its parameters keep their typedef
                    // names, so a chain of function pointer typedefs stays a chain (not a tree of copies)
                    return new TypeRef.Named(callback(name, u.pointee(written), decl));
                }
                // typedef other_callback name: an alias of the other callback, below
            }
        }
        inProgress.add(name);
        try {
            TypeRef target = map(u.typedefUnderlying(decl), name, use == Use.FIELD ? Use.ALIAS : use, decl);
            if (target instanceof TypeRef.Named n && n.name().equals(name)) return target;   // the handle itself
            types.put(name, new TypeDecl.Alias(name, target, location(u.place(decl))));
            return new TypeRef.Named(name);
        } catch (Unsupported e) {
            failedTypes.put(name, "uses " + name + ": " + e.getMessage());
            throw new Unsupported(failedTypes.get(name));
        } finally {
            inProgress.remove(name);
        }
    }

    private boolean isFunctionPointer(MemorySegment canonical) {
        if (ClangUnit.typeKind(canonical) != Clang.CXType_Pointer) return false;
        int pk = ClangUnit.typeKind(u.canonical(u.pointee(canonical)));
        return pk == Clang.CXType_FunctionProto || pk == Clang.CXType_FunctionNoProto;
    }

    private TypeRef pointer(MemorySegment t, String context, MemorySegment cursor) {
        MemorySegment p = u.pointee(t);
        MemorySegment pc = u.canonical(p);
        int pk = ClangUnit.typeKind(pc);
        switch (pk) {
            case Clang.CXType_Void -> {
                return new TypeRef.AnyPointer();
            }
            case Clang.CXType_Char_S, Clang.CXType_Char_U -> {
                return u.isConst(pc) ? new TypeRef.CString() : new TypeRef.PointerTo(new TypeRef.Primitive(
                        pk == Clang.CXType_Char_S ? ScalarKind.I8 : ScalarKind.U8));
            }
            case Clang.CXType_FunctionProto, Clang.CXType_FunctionNoProto -> {
                int k = ClangUnit.typeKind(p);
                String name = k == Clang.CXType_Typedef ? u.spelling(u.declaration(p)) : context;
                return new TypeRef.Named(callback(name, p, cursor));
            }
            case Clang.CXType_Record -> {
                if (ClangUnit.sizeOf(pc) == ClangUnit.INCOMPLETE) {
                    String spelling = u.typeSpelling(pc);
                    String name = recordNames.getOrDefault(spelling, tag(spelling));
                    if (isCLibrary(u.place(u.declaration(pc)).file())) return new TypeRef.AnyPointer();   // FILE *
                    handle(name, u.place(u.declaration(pc)));
                    return new TypeRef.Named(name);
                }
                return new TypeRef.PointerTo(map(p, context, Use.PARAM, null));
            }
            default -> {
                return new TypeRef.PointerTo(map(p, context, Use.PARAM, null));
            }
        }
    }

    private String recordName(MemorySegment canonicalRecord) {
        String spelling = u.typeSpelling(canonicalRecord);
        return recordNames.getOrDefault(spelling, tag(spelling));
    }

    private static String tag(String recordSpelling) {
        int space = recordSpelling.lastIndexOf(' ');
        return space < 0 ? recordSpelling : recordSpelling.substring(space + 1);
    }

    private void handle(String name, Place place) {
        checkName(name);
        if (!types.containsKey(name)) {
            types.put(name, new TypeDecl.Handle(name, "opaque", null, null, Returns.Ownership.BORROWED, location(place)));
        }
    }

    private static void checkName(String name) {
        if (!IDENT.matcher(name).matches() || C_KEYWORDS.contains(name)) throw new Unsupported("no usable name (" + name + ")");
    }

    /** A struct or union by value: declared under its typedef's or its tag's name. */
    private String record(MemorySegment t) {
        MemorySegment canonical = u.canonical(t);
        String spelling = u.typeSpelling(canonical);
        MemorySegment decl = u.declaration(canonical);
        Place place = u.place(decl);
        String name = recordNames.get(spelling);
        if (name == null) {
            if (u.isAnonymous(decl) || spelling.contains("(")) throw new Unsupported("anonymous struct or union " + spelling);
            name = tag(spelling);
        }
        if (failedTypes.containsKey(name)) throw new Unsupported(failedTypes.get(name));
        if (types.containsKey(name) || inProgress.contains(name)) return name;
        if (isCLibrary(place.file())) throw new Unsupported("struct " + spelling + " of " + place.file() + " (the C library's)");
        checkName(name);
        if (ClangUnit.sizeOf(canonical) == ClangUnit.INCOMPLETE) throw new Unsupported("incomplete " + spelling + " by value");
        inProgress.add(name);
        try {
            boolean union = ClangUnit.kind(decl) == Clang.CXCursor_UnionDecl;
            List<Field> fields = new ArrayList<>();
            Set<String> names = new HashSet<>();
            List<MemorySegment> children = u.children(decl);
            Set<String> fieldTypes = new HashSet<>();
            for (MemorySegment c : children) {
                if (ClangUnit.kind(c) != Clang.CXCursor_FieldDecl) continue;
                // only records: the canonical spelling of a function pointer typedef chain grows exponentially
                MemorySegment ft = u.canonical(u.type(c));
                if (ClangUnit.typeKind(ft) == Clang.CXType_Record) fieldTypes.add(u.typeSpelling(ft));
            }
            for (MemorySegment c : children) {
                int k = ClangUnit.kind(c);
                boolean nested = k == Clang.CXCursor_StructDecl || k == Clang.CXCursor_UnionDecl;
                if (nested && u.isDefinition(c) && (u.spelling(c).isEmpty() || u.typeSpelling(u.type(c)).contains("("))
                        && !fieldTypes.contains(u.typeSpelling(u.canonical(u.type(c))))) {
                    throw new Unsupported("anonymous nested " + (k == Clang.CXCursor_UnionDecl ? "union" : "struct")
                            + " at " + u.place(c) + "; give it a field name");
                }
                if (k != Clang.CXCursor_FieldDecl) continue;
                String fname = u.spelling(c);
                if (u.isBitField(c)) throw new Unsupported("bitfield " + fname + " (the format has no bitfields)");
                if (!IDENT.matcher(fname).matches() || C_KEYWORDS.contains(fname) || !names.add(fname)) {
                    throw new Unsupported("field name '" + fname + "' is not usable");
                }
                MemorySegment ft = u.type(c);
                TypeRef ref = ClangUnit.typeKind(u.canonical(ft)) == Clang.CXType_Record && u.typeSpelling(u.canonical(ft)).contains("(")
                        ? new TypeRef.Named(nestedRecord(u.canonical(ft), name + "_" + fname))
                        : map(ft, name + "_" + fname, Use.FIELD, c);
                fields.add(new Field(ref, fname, location(u.place(c))));
            }
            if (fields.isEmpty()) throw new Unsupported("struct or union without fields");
            long align = ClangUnit.alignOf(canonical);
            TypeDecl decl2 = union ? new TypeDecl.Union(name, fields, 0, location(place))
                    : new TypeDecl.Struct(name, fields, 0, location(place));
            types.put(name, decl2);
            layouts.put(name, new long[] {ClangUnit.sizeOf(canonical), align});
            return name;
        } catch (Unsupported e) {
            failedTypes.put(name, "uses " + name + ": " + e.getMessage());
            throw new Unsupported(e.getMessage().startsWith("uses ") ? e.getMessage() : name + ": " + e.getMessage());
        } finally {
            inProgress.remove(name);
        }
    }

    /** clang's size and alignment of each struct and union read: checked against the format's layout. */
    final Map<String, long[]> layouts = new HashMap<>();

    /** An unnamed struct or union type of a named field: declared as {@code Outer_field}. */
    private String nestedRecord(MemorySegment canonical, String name) {
        recordNames.put(u.typeSpelling(canonical), name);
        return record(canonical);
    }

    /**
     * A function pointer type: a callback named {@code name}, its parameters named from {@code cursor}'s.
     * {@code functionType} is the function type as written (typedef names of its parameters kept).
     */
    private String callback(String name, MemorySegment functionType, MemorySegment cursor) {
        checkName(name);
        if (failedTypes.containsKey(name)) throw new Unsupported(failedTypes.get(name));
        if (types.containsKey(name) || inProgress.contains(name)) return name;
        inProgress.add(name);
        try {
            boolean prototype = ClangUnit.typeKind(u.canonical(functionType)) == Clang.CXType_FunctionProto;
            if (prototype && u.isVariadic(functionType)) {
                throw new Unsupported("variadic function pointer");
            }
            List<String> given = new ArrayList<>();
            if (cursor != null) {
                for (MemorySegment c : u.children(cursor)) if (ClangUnit.kind(c) == Clang.CXCursor_ParmDecl) given.add(u.spelling(c));
            }
            int n = prototype ? Math.max(0, u.argTypeCount(functionType)) : 0;
            if (given.size() != n) given.clear();
            List<Param> params = new ArrayList<>();
            Set<String> names = new HashSet<>();
            Location at = cursor == null ? new Location("", 0, 0) : location(u.place(cursor));
            for (int i = 0; i < n; i++) {
                String pname = parameterName(given.isEmpty() ? "" : given.get(i), i, names);
                params.add(new Param(pname, map(u.argType(functionType, i), name + "_" + pname, Use.PARAM, null),
                        Param.Direction.IN, null, false, null, at));
            }
            TypeRef ret = map(u.result(functionType), name + "_result", Use.RETURN, null);
            String userData = names.contains("user_data") ? "user_data" : null;
            types.put(name, new TypeDecl.Callback(name, ret, params, userData, TypeDecl.Callback.Calls.MANY, at));
            return name;
        } catch (Unsupported e) {
            failedTypes.put(name, "uses " + name + ": " + e.getMessage());
            throw new Unsupported(failedTypes.get(name));
        } finally {
            inProgress.remove(name);
        }
    }
}
