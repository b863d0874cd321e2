package dev.panamax.bindgen.decl;

import dev.panamax.core.abi.ScalarKind;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.composer.Composer;
import org.snakeyaml.engine.v2.exceptions.Mark;
import org.snakeyaml.engine.v2.exceptions.MarkedYamlEngineException;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;
import org.snakeyaml.engine.v2.nodes.MappingNode;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;
import org.snakeyaml.engine.v2.nodes.ScalarNode;
import org.snakeyaml.engine.v2.nodes.SequenceNode;
import org.snakeyaml.engine.v2.nodes.Tag;
import org.snakeyaml.engine.v2.parser.ParserImpl;
import org.snakeyaml.engine.v2.scanner.StreamReader;
import org.snakeyaml.engine.v2.schema.CoreSchema;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a declarations file (format 1, see docs/DECLARATIONS.md) into {@link Declarations}.
 * Every problem, from invalid YAML to a recursive struct, is a {@link DeclarationsException} with
 * {@code file:line:column} and what was expected.
 *
 * <pre>{@code
 * Declarations d = DeclarationsParser.parse(Path.of("zlib.yaml"));
 * CFunction crc32 = d.cFunction(d.function("crc32").orElseThrow());
 * }</pre>
 */
public final class DeclarationsParser {
    /**
     * The largest file read, in code points: snakeyaml-engine's default (3 Mi) is passed by the declarations
     * of a library of 20,000 functions; a larger file is a located error.
     */
    static final int MAX_CODE_POINTS = 64 * 1024 * 1024;

    static final Set<String> TOP_KEYS = orderedSet("format", "library", "sonames", "package", "class", "types",
            "constants", "errors", "functions", "headers");
    static final Set<String> FUNCTION_KEYS = orderedSet("name", "returns", "params", "tier", "batchable", "blocking", "requires");
    static final Set<String> RETURN_KEYS = orderedSet("type", "status", "ownership", "length");
    static final Set<String> PARAM_KEYS = orderedSet("name", "type", "dir", "length", "terminated", "nullable", "errcode", "ownership",
            "elements", "async_unless");
    static final Set<String> ERROR_KEYS = orderedSet("type", "success", "names");
    static final Set<String> ALIAS_KEYS = orderedSet("type", "boolean");
    static final Set<String> HANDLE_KEYS = orderedSet("handle", "retain", "release", "ownership");
    static final Set<String> CALLBACK_KEYS = orderedSet("returns", "params", "user_data", "calls");

    private static final Pattern IDENT = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    /** {@code T[n]} right after a name, star or another {@code ]}: not valid in a YAML flow sequence as written. */
    private static final Pattern FLOW_ARRAY = Pattern.compile("(?<=[A-Za-z0-9_*\\]])\\[(\\d+)]");
    private static final char OPEN = '\uE000';
    private static final char CLOSE = '\uE001';
    private static final Set<String> RESERVED = Set.of("void", "ptr", "string", "char");

    private final String file;

    private DeclarationsParser(String file) {
        this.file = file;
    }

    /** Parses the file at {@code path}. */
    public static Declarations parse(Path path) {
        String text;
        try {
            text = Files.readString(path, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new DeclarationsException(new Location(path.toString(), 0, 0), "cannot read the file: " + e);
        }
        return parse(text, path.toString());
    }

    /** Parses {@code text}; {@code fileName} appears in error locations. */
    public static Declarations parse(String text, String fileName) {
        return new DeclarationsParser(fileName).document(text);
    }

    // ------------------------------------------------------------------ document

    private Declarations document(String text) {
        if (text.indexOf(OPEN) >= 0 || text.indexOf(CLOSE) >= 0) {
            throw new DeclarationsException(new Location(file, 1, 1), "the file contains the private-use characters"
                    + " U+E000/U+E001; expected none");
        }
        // "[f32[4], v]" is not valid YAML (a flow sequence cannot hold '[' in a plain scalar); the
        // format allows it, so T[n] is protected with same-length placeholders, keeping columns exact.
        String protectedText = FLOW_ARRAY.matcher(text).replaceAll(m -> OPEN + m.group(1) + CLOSE);
        Node root;
        try {
            // the whole text in the reader's window: snakeyaml-engine fails with an IndexOutOfBoundsException
            // when a surrogate pair straddles the end of a window (1,024 characters by default)
            LoadSettings settings = LoadSettings.builder().setLabel(file).setSchema(new CoreSchema())
                    .setBufferSize(protectedText.length() + 2).setCodePointLimit(MAX_CODE_POINTS).build();
            var parser = new DepthLimitedParser(new ParserImpl(settings, new StreamReader(settings, protectedText)), file);
            root = new Composer(settings, parser).getSingleNode()
                    .orElseThrow(() -> new DeclarationsException(new Location(file, 1, 1),
                            "the file is empty; expected a mapping with keys " + TOP_KEYS));
        } catch (MarkedYamlEngineException e) {
            Mark m = e.getProblemMark().or(e::getContextMark).orElse(null);
            Location at = m == null ? new Location(file, 1, 1) : new Location(file, m.getLine() + 1, m.getColumn() + 1);
            String problem = e.getProblem() == null ? "" : e.getProblem();
            String context = e.getContext() == null ? "" : e.getContext() + ": ";
            throw new DeclarationsException(at, "not valid YAML: " + context + unprotect(problem)
                    + "; expected a YAML mapping in the declarations format");
        } catch (YamlEngineException e) {
            throw new DeclarationsException(new Location(file, 1, 1), "not valid YAML: " + unprotect(e.getMessage()));
        }
        MappingNode top = mapping(root, "the document", TOP_KEYS);
        Map<String, Node> keys = keys(top, TOP_KEYS, "top level");

        Node formatNode = require(keys, "format", top, "top level");
        long format = integer(formatNode, "format");
        if (format != 1) throw error(formatNode, "unsupported format " + format + "; expected 1");
        // the library's name also names the C glue (pmx_thunks_<library>.c), so it must be a C identifier
        String library = identifier(require(keys, "library", top, "top level"), "library");
        List<String> sonames = keys.containsKey("sonames") ? strings(keys.get("sonames"), "sonames") : List.of();
        List<String> headers = keys.containsKey("headers") ? strings(keys.get("headers"), "headers") : List.of();
        String javaPackage = null;
        if (keys.containsKey("package")) {
            javaPackage = javaPackage(keys.get("package"));
        }
        String className = defaultClassName(library);
        if (keys.containsKey("class")) {
            className = identifier(keys.get("class"), "class");
        }
        Map<String, TypeDecl> types = keys.containsKey("types") ? types(keys.get("types")) : Map.of();
        Map<String, Constant> constants = keys.containsKey("constants") ? constants(keys.get("constants")) : Map.of();
        Map<String, ErrorConvention> errors = keys.containsKey("errors") ? errors(keys.get("errors")) : Map.of();
        List<Function> functions = keys.containsKey("functions") ? functions(keys.get("functions"), errors) : List.of();

        // resolve everything once, so a parsed file has no unknown or recursive types
        TypeResolver resolver = new TypeResolver(file, types);
        for (TypeDecl t : types.values()) resolver.resolve(new TypeRef.Named(t.name()), t.location(), TypeResolver.Use.ALIAS);
        for (ErrorConvention e : errors.values()) {
            var t = resolver.resolve(e.type(), e.location(), TypeResolver.Use.PARAM);
            if (!(t instanceof dev.panamax.core.abi.CType.Scalar s) || s.kind().isFloatingPoint()) {
                throw new DeclarationsException(e.location(), "error convention " + e.name() + " has type "
                        + e.type().spelling() + "; expected an integer type");
            }
        }
        for (Function f : functions) resolver.functionType(f.returns().type(), f.params(), f.returns().location());
        new DeclarationsValidator(types, functions).validate();
        return new Declarations(file, (int) format, library, sonames, javaPackage, className, types, constants, errors,
                functions, headers);
    }

    /** A dotted Java package, checked part by part (a regular expression over the whole recurses per part). */
    private String javaPackage(Node node) {
        String name = string(node, "package");
        String shown = name.length() > 80 ? name.substring(0, 80) + "..." : name;
        if (name.length() > Limits.PACKAGE_LENGTH) {
            throw error(node, "package '" + shown + "' has " + name.length() + " characters; expected at most " + Limits.PACKAGE_LENGTH);
        }
        String[] parts = name.split("\\.", -1);
        if (parts.length > Limits.PACKAGE_PARTS) {
            throw error(node, "package '" + shown + "' has " + parts.length + " parts; expected at most " + Limits.PACKAGE_PARTS);
        }
        for (String part : parts) {
            if (!IDENT.matcher(part).matches()) {
                throw error(node, "package '" + shown + "' is not a Java package name; expected e.g. org.example.zlib");
            }
        }
        return name;
    }

    /** The raw class's default name: the library's name capitalized, word by word ({@code cl_lib} → {@code ClLib}). */
    public static String defaultClassName(String library) {
        StringBuilder b = new StringBuilder();
        boolean up = true;
        for (char c : library.toCharArray()) {
            if (Character.isLetterOrDigit(c)) {
                b.append(up ? Character.toUpperCase(c) : c);
                up = false;
            } else {
                up = true;
            }
        }
        if (b.isEmpty() || !Character.isJavaIdentifierStart(b.charAt(0))) b.insert(0, 'L');
        return b.toString();
    }

    // ------------------------------------------------------------------ types

    private Map<String, TypeDecl> types(Node node) {
        MappingNode m = mapping(node, "types", Set.of());
        Map<String, TypeDecl> out = new LinkedHashMap<>();
        for (NodeTuple t : m.getValue()) {
            String name = typeName(t.getKeyNode());
            if (out.containsKey(name)) throw error(t.getKeyNode(), "type '" + name + "' is declared twice; expected unique names");
            out.put(name, typeDecl(name, t.getValueNode()));
        }
        return out;
    }

    private String typeName(Node key) {
        String name = string(key, "type name");
        if (!IDENT.matcher(name).matches()) throw error(key, "type name '" + name + "' is not an identifier; expected [A-Za-z_][A-Za-z0-9_]*");
        if (RESERVED.contains(name) || ScalarKind.byDeclName(name) != null) {
            throw error(key, "type name '" + name + "' is a built-in type; expected a new name");
        }
        return name;
    }

    private TypeDecl typeDecl(String name, Node node) {
        Location at = location(node);
        if (node instanceof ScalarNode) return new TypeDecl.Alias(name, typeRef(node), at);
        if (!(node instanceof MappingNode m)) {
            throw error(node, "type " + name + " is a " + describe(node) + "; expected a type name (alias),"
                    + " {struct: ...}, {union: ...}, {handle: ...} or {callback: ...}");
        }
        Map<String, Node> keys = new LinkedHashMap<>();
        for (NodeTuple t : m.getValue()) keys.put(string(t.getKeyNode(), "key"), t.getValueNode());
        if (keys.containsKey("type")) {
            keys(m, ALIAS_KEYS, "alias " + name);
            TypeRef target = typeRef(keys.get("type"));
            boolean bool = keys.containsKey("boolean") && bool(keys.get("boolean"), "boolean");
            return new TypeDecl.Alias(name, target, bool, at);
        }
        if (keys.containsKey("struct") || keys.containsKey("union")) {
            boolean struct = keys.containsKey("struct");
            String kind = struct ? "struct" : "union";
            keys(m, orderedSet(kind, "align"), "type " + name);
            List<Field> fields = fields(keys.get(kind), name);
            int align = 0;
            if (keys.containsKey("align")) {
                long a = integer(keys.get("align"), "align");
                if (a <= 0 || a > 4096 || (a & (a - 1)) != 0) {
                    throw error(keys.get("align"), "align " + a + " of " + name + "; expected a power of two up to 4096");
                }
                align = (int) a;
            }
            return struct ? new TypeDecl.Struct(name, fields, align, at) : new TypeDecl.Union(name, fields, align, at);
        }
        if (keys.containsKey("handle")) {
            keys(m, HANDLE_KEYS, "handle " + name);
            String kind = string(keys.get("handle"), "handle");
            if (!kind.equals("opaque")) throw error(keys.get("handle"), "handle kind '" + kind + "'; expected opaque");
            String retain = keys.containsKey("retain") ? identifier(keys.get("retain"), "retain") : null;
            String release = keys.containsKey("release") ? identifier(keys.get("release"), "release") : null;
            Returns.Ownership ownership = keys.containsKey("ownership")
                    ? choice(keys.get("ownership"), "ownership", Returns.Ownership.class) : Returns.Ownership.OWNED;
            if (release == null && ownership == Returns.Ownership.OWNED) {
                throw error(keys.get("handle"), "handle " + name + " has no release; expected release: FUNCTION (the"
                        + " function that frees it), or ownership: borrowed for objects the library never frees");
            }
            return new TypeDecl.Handle(name, kind, retain, release, ownership, at);
        }
        if (keys.containsKey("callback")) {
            keys(m, orderedSet("callback"), "callback " + name);
            MappingNode cb = mapping(keys.get("callback"), "callback " + name, CALLBACK_KEYS);
            Map<String, Node> ck = keys(cb, CALLBACK_KEYS, "callback " + name);
            TypeRef returns = ck.containsKey("returns") ? typeRef(ck.get("returns")) : new TypeRef.Void();
            List<Param> params = ck.containsKey("params") ? params(ck.get("params"), "callback " + name, Map.of()) : List.of();
            String userData = null;
            if (ck.containsKey("user_data")) {
                userData = identifier(ck.get("user_data"), "user_data");
                String wanted = userData;
                if (params.stream().noneMatch(p -> p.name().equals(wanted))) {
                    throw error(ck.get("user_data"), "user_data '" + userData + "' names no parameter of callback " + name
                            + "; expected one of " + params.stream().map(Param::name).toList());
                }
            } else if (params.stream().anyMatch(p -> p.name().equals("user_data"))) {
                userData = "user_data";
            }
            TypeDecl.Callback.Calls calls = ck.containsKey("calls")
                    ? choice(ck.get("calls"), "calls", TypeDecl.Callback.Calls.class) : TypeDecl.Callback.Calls.MANY;
            return new TypeDecl.Callback(name, returns, params, userData, calls, at);
        }
        throw error(node, "type " + name + " has none of the keys struct, union, handle, callback; found "
                + keys.keySet() + "; expected exactly one of them");
    }

    private List<Field> fields(Node node, String owner) {
        SequenceNode seq = sequence(node, "fields of " + owner);
        if (seq.getValue().isEmpty()) throw error(node, "struct " + owner + " has no fields; expected at least one [type, name]");
        List<Field> out = new ArrayList<>();
        Set<String> names = new java.util.HashSet<>();
        for (Node f : seq.getValue()) {
            SequenceNode pair = sequence(f, "a field of " + owner);
            if (pair.getValue().size() != 2) throw error(f, "field of " + owner + " has " + pair.getValue().size() + " items; expected [type, name]");
            TypeRef type = typeRef(pair.getValue().get(0));
            String name = identifier(pair.getValue().get(1), "field name");
            if (!names.add(name)) throw error(pair.getValue().get(1), "field '" + name + "' of " + owner + " is declared twice; expected unique names");
            out.add(new Field(type, name, location(pair.getValue().get(0))));
        }
        return out;
    }

    // ------------------------------------------------------------------ type expressions

    private static final Pattern ARRAY_SUFFIX = Pattern.compile("^(.*?)\\s*\\[\\s*(\\d+)\\s*]$");

    private TypeRef typeRef(Node node) {
        String raw = unprotect(string(node, "type"));
        String s = raw.strip();
        List<Integer> dims = new ArrayList<>();
        Matcher m;
        while ((m = ARRAY_SUFFIX.matcher(s)).matches()) {
            long n;
            try {
                n = Long.parseLong(m.group(2));
            } catch (NumberFormatException tooLong) {
                n = Long.MAX_VALUE;
            }
            if (n <= 0 || n > Integer.MAX_VALUE) {
                throw error(node, "array length " + m.group(2) + " in '" + raw + "'; expected 1 to " + Integer.MAX_VALUE);
            }
            dims.add((int) n);
            tooManyDeclarators(node, raw, dims.size());
            s = m.group(1).strip();
        }
        int stars = 0;
        while (s.endsWith("*")) {
            stars++;
            tooManyDeclarators(node, raw, dims.size() + stars);
            s = s.substring(0, s.length() - 1).strip();
        }
        TypeRef t;
        switch (s) {
            case "void" -> t = new TypeRef.Void();
            case "ptr" -> t = new TypeRef.AnyPointer();
            case "string" -> t = new TypeRef.CString();
            case "char" -> {
                if (stars == 0) throw error(node, "type 'char' alone; expected char* (a C string), i8 or u8");
                stars--;
                t = new TypeRef.CString();
            }
            default -> {
                ScalarKind k = ScalarKind.byDeclName(s);
                if (k != null) t = new TypeRef.Primitive(k);
                else if (IDENT.matcher(s).matches()) t = new TypeRef.Named(s);
                else throw error(node, "'" + raw + "' is not a type; expected a type name, T*, or T[n]");
            }
        }
        for (int i = 0; i < stars; i++) {
            t = t instanceof TypeRef.Void ? new TypeRef.AnyPointer() : new TypeRef.PointerTo(t);
        }
        for (int d : dims) t = new TypeRef.ArrayOf(t, d);
        return t;
    }

    private void tooManyDeclarators(Node node, String raw, int declarators) {
        if (declarators > Limits.TYPE_DECLARATORS) {
            String shown = raw.length() > 60 ? raw.substring(0, 60) + "..." : raw;
            throw error(node, "type '" + shown + "' has more than " + Limits.TYPE_DECLARATORS + " pointer stars and array"
                    + " dimensions; expected at most " + Limits.TYPE_DECLARATORS);
        }
    }

    private static String unprotect(String s) {
        return s.replace(OPEN, '[').replace(CLOSE, ']');
    }

    // ------------------------------------------------------------------ constants and errors

    private Map<String, Constant> constants(Node node) {
        MappingNode m = mapping(node, "constants", Set.of());
        Map<String, Constant> out = new LinkedHashMap<>();
        for (NodeTuple t : m.getValue()) {
            String name = identifier(t.getKeyNode(), "constant name");
            if (out.containsKey(name)) throw error(t.getKeyNode(), "constant '" + name + "' is declared twice; expected unique names");
            Node v = t.getValueNode();
            Number value;
            if (isTag(v, Tag.INT)) value = integer(v, "constant " + name);
            else if (isTag(v, Tag.FLOAT)) value = floating(v, "constant " + name);
            else throw error(v, "constant " + name + " is a " + describe(v) + "; expected an integer or a floating-point number");
            out.put(name, new Constant(name, value, location(t.getKeyNode())));
        }
        return out;
    }

    private Map<String, ErrorConvention> errors(Node node) {
        MappingNode m = mapping(node, "errors", Set.of());
        Map<String, ErrorConvention> out = new LinkedHashMap<>();
        for (NodeTuple t : m.getValue()) {
            String name = identifier(t.getKeyNode(), "error convention name");
            if (out.containsKey(name)) throw error(t.getKeyNode(), "error convention '" + name + "' is declared twice; expected unique names");
            MappingNode e = mapping(t.getValueNode(), "error convention " + name, ERROR_KEYS);
            Map<String, Node> keys = keys(e, ERROR_KEYS, "error convention " + name);
            TypeRef type = typeRef(require(keys, "type", e, "error convention " + name));
            SequenceNode succ = sequence(require(keys, "success", e, "error convention " + name), "success");
            List<Long> success = new ArrayList<>();
            for (Node s : succ.getValue()) success.add(integer(s, "success code"));
            if (success.isEmpty()) throw error(succ, "success of " + name + " is empty; expected at least one code");
            Map<Long, String> names = new HashMap<>();
            if (keys.containsKey("names")) {
                for (NodeTuple n : mapping(keys.get("names"), "names", Set.of()).getValue()) {
                    names.put(integer(n.getKeyNode(), "error code"), identifier(n.getValueNode(), "error name"));
                }
            }
            out.put(name, new ErrorConvention(name, type, success, names, location(t.getKeyNode())));
        }
        return out;
    }

    // ------------------------------------------------------------------ functions

    private List<Function> functions(Node node, Map<String, ErrorConvention> errors) {
        SequenceNode seq = sequence(node, "functions");
        List<Function> out = new ArrayList<>();
        Set<String> names = new java.util.HashSet<>();
        for (Node f : seq.getValue()) {
            MappingNode m = mapping(f, "a function", FUNCTION_KEYS);
            Map<String, Node> keys = keys(m, FUNCTION_KEYS, "function");
            String name = identifier(require(keys, "name", m, "function"), "function name");
            if (!names.add(name)) throw error(keys.get("name"), "function '" + name + "' is declared twice; expected unique names");
            String where = "function " + name;
            Returns returns = keys.containsKey("returns") ? returns(keys.get("returns"), where, errors)
                    : Returns.plain(new TypeRef.Void(), location(m));
            List<Param> params = keys.containsKey("params") ? params(keys.get("params"), where, errors) : List.of();
            Function.Tier tier = Function.Tier.STANDARD;
            if (keys.containsKey("tier")) {
                tier = choice(keys.get("tier"), "tier", Function.Tier.class);
            }
            boolean batchable = keys.containsKey("batchable") && bool(keys.get("batchable"), "batchable");
            Boolean blocking = keys.containsKey("blocking") ? bool(keys.get("blocking"), "blocking") : null;
            if (Boolean.TRUE.equals(blocking) && tier != Function.Tier.STANDARD) {
                throw error(keys.get("blocking"), where + " is declared blocking and tier " + tier.name().toLowerCase(Locale.ROOT)
                        + "; expected tier standard for a function that may block");
            }
            List<Requirement> requires = keys.containsKey("requires") ? requirements(keys.get("requires"), where, params) : List.of();
            out.add(new Function(name, returns, params, tier, batchable, blocking, requires, location(m)));
        }
        return out;
    }

    private List<Requirement> requirements(Node node, String where, List<Param> params) {
        List<Requirement> out = new ArrayList<>();
        Set<String> names = new java.util.LinkedHashSet<>();
        for (Param p : params) names.add(p.name());
        for (Node r : sequence(node, "requires of " + where).getValue()) {
            String text = string(r, "a requirement of " + where);
            Requirement.Condition c;
            try {
                c = LengthExpr.parseCondition(text);
            } catch (IllegalArgumentException e) {
                throw error(r, "requirement of " + where + ": " + e.getMessage());
            }
            for (String ref : c.refs()) {
                if (!names.contains(ref)) throw error(r, "requirement '" + text + "' of " + where + " reads '" + ref
                        + "', no parameter of it; expected one of " + names);
            }
            out.add(new Requirement(c, text.strip(), location(r)));
        }
        return out;
    }

    private Returns returns(Node node, String where, Map<String, ErrorConvention> errors) {
        if (node instanceof ScalarNode) return Returns.plain(typeRef(node), location(node));
        MappingNode m = mapping(node, "returns of " + where, RETURN_KEYS);
        Map<String, Node> keys = keys(m, RETURN_KEYS, "returns of " + where);
        TypeRef type = typeRef(require(keys, "type", m, "returns of " + where));
        String status = null;
        if (keys.containsKey("status")) {
            status = identifier(keys.get("status"), "status");
            if (!errors.containsKey(status)) throw unknownError(keys.get("status"), status, errors);
        }
        Returns.Ownership ownership = keys.containsKey("ownership")
                ? choice(keys.get("ownership"), "ownership", Returns.Ownership.class) : null;
        String length = keys.containsKey("length") ? identifier(keys.get("length"), "length") : null;
        Location lengthLocation = keys.containsKey("length") ? location(keys.get("length")) : null;
        return new Returns(type, status, ownership, length, lengthLocation, location(keys.get("type")));
    }

    private List<Param> params(Node node, String where, Map<String, ErrorConvention> errors) {
        SequenceNode seq = sequence(node, "params of " + where);
        List<Param> out = new ArrayList<>();
        Set<String> names = new java.util.HashSet<>();
        Map<String, Node> lengthRefs = new LinkedHashMap<>();
        for (Node p : seq.getValue()) {
            Param param;
            if (p instanceof SequenceNode pair) {
                if (pair.getValue().size() != 2) throw error(p, "parameter of " + where + " has " + pair.getValue().size() + " items; expected [type, name]");
                param = new Param(identifier(pair.getValue().get(1), "parameter name"), typeRef(pair.getValue().get(0)),
                        Param.Direction.IN, null, false, null, location(pair.getValue().get(0)));
            } else if (p instanceof MappingNode m) {
                Map<String, Node> keys = keys(m, PARAM_KEYS, "parameter of " + where);
                String name = identifier(require(keys, "name", m, "parameter of " + where), "parameter name");
                TypeRef type = typeRef(require(keys, "type", m, "parameter " + name));
                Param.Direction dir = keys.containsKey("dir") ? choice(keys.get("dir"), "dir", Param.Direction.class) : Param.Direction.IN;
                String length = null;
                int count = 0;
                LengthExpr expression = null;
                if (keys.containsKey("length")) {
                    Node l = keys.get("length");
                    if (l instanceof ScalarNode sn && isTag(sn, Tag.INT)) {
                        long c = integer(sn, "length");
                        if (c < 1 || c > Param.MAX_COUNT) {
                            throw error(sn, "length " + sn.getValue() + " of parameter " + name + " is out of range; expected a count from 1 to "
                                    + Param.MAX_COUNT + " or the name of the parameter holding the length");
                        }
                        count = (int) c;
                    } else if (l instanceof ScalarNode sn && isTag(sn, Tag.STR) && LengthExpr.isExpression(sn.getValue())) {
                        try {
                            expression = LengthExpr.parse(sn.getValue());
                        } catch (IllegalArgumentException e) {
                            throw error(sn, "length of parameter " + name + ": " + e.getMessage());
                        }
                        for (String ref : expression.refs()) lengthRefs.putIfAbsent(ref, l);
                    } else {
                        length = identifier(l, "length");
                        lengthRefs.put(length, l);
                    }
                }
                boolean terminated = keys.containsKey("terminated") && bool(keys.get("terminated"), "terminated");
                boolean nullable = keys.containsKey("nullable") && bool(keys.get("nullable"), "nullable");
                String errcode = null;
                if (keys.containsKey("errcode")) {
                    errcode = identifier(keys.get("errcode"), "errcode");
                    if (!errors.containsKey(errcode)) throw unknownError(keys.get("errcode"), errcode, errors);
                }
                Returns.Ownership ownership = keys.containsKey("ownership")
                        ? choice(keys.get("ownership"), "ownership", Returns.Ownership.class) : null;
                List<ScalarKind> elements = new ArrayList<>();
                if (keys.containsKey("elements")) {
                    for (Node e : sequence(keys.get("elements"), "elements of parameter " + name).getValue()) {
                        String spelled = string(e, "element type");
                        ScalarKind k = ScalarKind.byDeclName(spelled);
                        if (k == null || k == ScalarKind.BOOL || k == ScalarKind.F80) {
                            throw error(e, "element type '" + spelled + "' of parameter " + name
                                    + "; expected a primitive with a Java array: i8 u8 i16 u16 i32 u32 i64 u64 f32 f64");
                        }
                        if (elements.contains(k)) throw error(e, "element type '" + spelled + "' of parameter " + name + " is listed twice");
                        elements.add(k);
                    }
                }
                String asyncUnless = keys.containsKey("async_unless") ? identifier(keys.get("async_unless"), "async_unless") : null;
                param = new Param(name, type, dir, length, count, expression, terminated, nullable, errcode, ownership,
                        elements, asyncUnless, location(keys.get("type")));
            } else {
                throw error(p, "parameter of " + where + " is a " + describe(p) + "; expected [type, name] or {name: .., type: ..}");
            }
            if (!names.add(param.name())) throw error(p, "parameter '" + param.name() + "' of " + where + " is declared twice; expected unique names");
            out.add(param);
        }
        for (var ref : lengthRefs.entrySet()) {
            if (!names.contains(ref.getKey())) {
                throw error(ref.getValue(), "length '" + ref.getKey() + "' names no parameter of " + where + "; expected one of " + names);
            }
        }
        return out;
    }

    private DeclarationsException unknownError(Node node, String name, Map<String, ErrorConvention> errors) {
        return error(node, "unknown error convention '" + name + "'; expected one declared under errors ("
                + (errors.isEmpty() ? "none" : String.join(", ", errors.keySet())) + ")");
    }

    // ------------------------------------------------------------------ node helpers

    private MappingNode mapping(Node node, String what, Set<String> expectedKeys) {
        if (node instanceof MappingNode m) return m;
        throw error(node, what + " is a " + describe(node) + "; expected a mapping"
                + (expectedKeys.isEmpty() ? "" : " with keys " + expectedKeys));
    }

    private SequenceNode sequence(Node node, String what) {
        if (node instanceof SequenceNode s) return s;
        throw error(node, what + " is a " + describe(node) + "; expected a list");
    }

    /** The mapping's entries by key; an unknown or repeated key is an error. */
    private Map<String, Node> keys(MappingNode m, Set<String> allowed, String where) {
        Map<String, Node> out = new LinkedHashMap<>();
        for (NodeTuple t : m.getValue()) {
            String key = string(t.getKeyNode(), "key");
            if (!allowed.contains(key)) {
                throw error(t.getKeyNode(), "unknown key '" + key + "' in " + where + "; expected one of " + allowed);
            }
            if (out.put(key, t.getValueNode()) != null) {
                throw error(t.getKeyNode(), "key '" + key + "' appears twice in " + where + "; expected it once");
            }
        }
        return out;
    }

    private Node require(Map<String, Node> keys, String key, Node owner, String where) {
        Node n = keys.get(key);
        if (n == null) throw error(owner, "missing key '" + key + "' in " + where + "; expected it to be present");
        return n;
    }

    private String string(Node node, String what) {
        if (node instanceof ScalarNode s && !isTag(s, Tag.NULL)) return s.getValue();
        throw error(node, what + " is a " + describe(node) + "; expected a string");
    }

    private String identifier(Node node, String what) {
        String s = string(node, what);
        if (!IDENT.matcher(s).matches()) throw error(node, what + " '" + s + "' is not an identifier; expected [A-Za-z_][A-Za-z0-9_]*");
        return s;
    }

    private List<String> strings(Node node, String what) {
        List<String> out = new ArrayList<>();
        for (Node n : sequence(node, what).getValue()) out.add(string(n, "an entry of " + what));
        return out;
    }

    private long integer(Node node, String what) {
        if (node instanceof ScalarNode s && isTag(s, Tag.INT)) {
            String v = s.getValue().replace("_", "");
            try {
                boolean neg = v.startsWith("-");
                String digits = v.startsWith("-") || v.startsWith("+") ? v.substring(1) : v;
                if (digits.startsWith("0x")) {
                    long r = Long.parseUnsignedLong(digits.substring(2), 16);   // 0xffffffffffffffff: the 64 bits of -1
                    return neg ? -r : r;
                }
                // the sign parsed with the digits, so that -9223372036854775808 (INT64_MIN) is in range
                if (digits.startsWith("0o")) return Long.parseLong((neg ? "-" : "") + digits.substring(2), 8);
                return Long.parseLong((neg ? "-" : "") + digits);
            } catch (NumberFormatException e) {
                throw error(node, what + " '" + s.getValue() + "' is out of range; expected a 64-bit integer");
            }
        }
        throw error(node, what + " is a " + describe(node) + "; expected an integer");
    }

    private double floating(Node node, String what) {
        String v = ((ScalarNode) node).getValue();
        return switch (v.toLowerCase(Locale.ROOT)) {
            case ".inf", "+.inf" -> Double.POSITIVE_INFINITY;
            case "-.inf" -> Double.NEGATIVE_INFINITY;
            case ".nan" -> Double.NaN;
            default -> Double.parseDouble(v);
        };
    }

    private boolean bool(Node node, String what) {
        if (node instanceof ScalarNode s && isTag(s, Tag.BOOL)) return Boolean.parseBoolean(s.getValue().toLowerCase(Locale.ROOT));
        throw error(node, what + " is a " + describe(node) + "; expected true or false");
    }

    private <E extends Enum<E>> E choice(Node node, String what, Class<E> type) {
        String s = string(node, what);
        for (E e : type.getEnumConstants()) {
            if (e.name().toLowerCase(Locale.ROOT).equals(s)) return e;
        }
        List<String> allowed = new ArrayList<>();
        for (E e : type.getEnumConstants()) allowed.add(e.name().toLowerCase(Locale.ROOT));
        throw error(node, what + " '" + s + "'; expected one of " + allowed);
    }

    private static boolean isTag(Node n, Tag tag) {
        return n.getTag().equals(tag);
    }

    private static String describe(Node n) {
        return switch (n) {
            case MappingNode m -> "mapping";
            case SequenceNode s -> "list";
            case ScalarNode s when s.getTag().equals(Tag.NULL) -> "null (empty value)";
            case ScalarNode s when s.getTag().equals(Tag.INT) -> "number (" + s.getValue() + ")";
            case ScalarNode s when s.getTag().equals(Tag.BOOL) -> "boolean (" + s.getValue() + ")";
            case ScalarNode s -> "scalar (" + unprotect(s.getValue()) + ")";
            default -> n.getNodeType().toString().toLowerCase(Locale.ROOT);
        };
    }

    private Location location(Node node) {
        return node.getStartMark().map(m -> new Location(file, m.getLine() + 1, m.getColumn() + 1))
                .orElse(new Location(file, 0, 0));
    }

    private DeclarationsException error(Node node, String message) {
        return new DeclarationsException(location(node), message);
    }

    private static Set<String> orderedSet(String... values) {
        return java.util.Collections.unmodifiableSet(new java.util.LinkedHashSet<>(List.of(values)));
    }
}
