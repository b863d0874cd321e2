package dev.panamax.cli;

import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.schema.CoreSchema;

import java.lang.foreign.Arena;
import java.lang.foreign.SymbolLookup;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A sanity check of a declarations file (format 1, the keys of shared/design/DECLARATIONS.md) as
 * plain data, until bindgen's own validating parser exists: only the contract's keys, every type
 * used declared or primitive, every status/errcode naming a declared convention, every length
 * naming a parameter, and every function a symbol of the real library. It collects problems
 * instead of stopping at the first, so one run shows them all.
 */
final class DeclarationsSanity {
    static final Set<String> TOP_KEYS = Set.of("format", "library", "sonames", "package", "class", "types", "constants", "errors", "functions", "headers");
    static final Set<String> FUNCTION_KEYS = Set.of("name", "returns", "params", "tier", "batchable", "blocking", "requires");
    static final Set<String> RETURN_KEYS = Set.of("type", "status", "ownership", "length");
    static final Set<String> PARAM_KEYS = Set.of("name", "type", "dir", "length", "terminated", "nullable", "errcode", "ownership",
            "elements", "async_unless");
    static final Set<String> ERROR_KEYS = Set.of("type", "success", "names");
    static final Set<String> HANDLE_KEYS = Set.of("handle", "retain", "release", "ownership");
    static final Set<String> CALLBACK_KEYS = Set.of("returns", "params", "user_data", "calls");
    static final Set<String> PRIMITIVES = Set.of("void", "bool", "i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64",
            "f32", "f64", "f80", "size_t", "ptr", "string", "char");
    static final Set<String> TIERS = Set.of("standard", "critical", "critical_heap");
    private static final Pattern TYPE = Pattern.compile("([A-Za-z_][A-Za-z0-9_]*)\\s*(\\**)\\s*((?:\\[\\d+])*)");
    private static final Pattern IDENT = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    /** One function of the file, as the checks and the tests need it. */
    record Fn(String name, Map<String, Object> raw, String returnType, List<Map<String, Object>> params) {
        String tier() {
            return (String) raw.getOrDefault("tier", "standard");
        }

        boolean blocking() {
            return Boolean.TRUE.equals(raw.get("blocking"));
        }

        boolean batchable() {
            return Boolean.TRUE.equals(raw.get("batchable"));
        }

        Object returnStatus() {
            return raw.get("returns") instanceof Map<?, ?> m ? m.get("status") : null;
        }
    }

    final String file;
    final Map<String, Object> top;
    final Map<String, Object> types;
    final Map<String, Object> constants;
    final Map<String, Object> errors;
    final List<Fn> functions = new ArrayList<>();
    final List<String> problems = new ArrayList<>();

    private DeclarationsSanity(String file, String text) {
        this.file = file;
        LoadSettings settings = LoadSettings.builder().setLabel(file).setSchema(new CoreSchema()).build();
        top = map(new Load(settings).loadFromString(text), "the document");
        types = map(top.getOrDefault("types", Map.of()), "types");
        constants = map(top.getOrDefault("constants", Map.of()), "constants");
        errors = map(top.getOrDefault("errors", Map.of()), "errors");
        checkTop();
        checkTypes();
        checkConstants();
        checkErrors();
        checkFunctions();
    }

    /** Loads and checks {@code text}; {@link #problems} lists what is wrong. */
    static DeclarationsSanity check(String file, String text) {
        return new DeclarationsSanity(file, text);
    }

    Fn function(String name) {
        return functions.stream().filter(f -> f.name.equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError(file + ": no function " + name));
    }

    /** Functions whose symbol the library (first soname that loads) does not export. */
    List<String> missingSymbols() {
        List<String> sonames = strings(top.get("sonames"));
        SymbolLookup lookup = null;
        List<String> tried = new ArrayList<>();
        for (String soname : sonames) {
            try {
                lookup = SymbolLookup.libraryLookup(soname, Arena.global());
                break;
            } catch (IllegalArgumentException e) {
                tried.add(soname);
            }
        }
        if (lookup == null) throw new AssertionError(file + ": none of the sonames loads: tried=" + tried + " (./panamax installs the library)");
        List<String> missing = new ArrayList<>();
        for (Fn f : functions) if (lookup.find(f.name).isEmpty()) missing.add(f.name);
        return missing;
    }

    // ------------------------------------------------------------------ checks

    private void checkTop() {
        unknownKeys(top, TOP_KEYS, "top level");
        if (!Integer.valueOf(1).equals(top.get("format"))) problem("format is " + top.get("format") + "; expected 1");
        for (String key : List.of("library", "package", "class")) {
            if (!(top.get(key) instanceof String s) || s.isBlank()) problem(key + " is missing or empty");
        }
        if (strings(top.get("sonames")).isEmpty()) problem("sonames is missing or empty");
    }

    private void checkTypes() {
        for (var e : types.entrySet()) {
            String name = e.getKey();
            if (PRIMITIVES.contains(name)) problem("type " + name + " redeclares a primitive");
            switch (e.getValue()) {
                case String alias -> useType(alias, "type " + name);
                case Map<?, ?> m -> {
                    Map<String, Object> decl = map(m, "type " + name);
                    if (decl.containsKey("type")) {
                        unknownKeys(decl, Set.of("type", "boolean"), "alias " + name);
                        useType(String.valueOf(decl.get("type")), "type " + name);
                        if (decl.containsKey("boolean") && !(decl.get("boolean") instanceof Boolean)) {
                            problem("boolean of " + name + " is " + decl.get("boolean") + "; expected true or false");
                        }
                    } else if (decl.containsKey("struct") || decl.containsKey("union")) {
                        String kind = decl.containsKey("struct") ? "struct" : "union";
                        unknownKeys(decl, Set.of(kind, "align"), "type " + name);
                        for (Object field : list(decl.get(kind), kind + " " + name)) {
                            List<Object> pair = list(field, "a field of " + name);
                            if (pair.size() != 2) problem("field of " + name + " has " + pair.size() + " items; expected [type, name]");
                            else useType(String.valueOf(pair.get(0)), "field " + pair.get(1) + " of " + name);
                        }
                    } else if (decl.containsKey("handle")) {
                        unknownKeys(decl, HANDLE_KEYS, "handle " + name);
                        if (!"opaque".equals(decl.get("handle"))) problem("handle " + name + " kind is " + decl.get("handle") + "; expected opaque");
                    } else if (decl.containsKey("callback")) {
                        unknownKeys(decl, Set.of("callback"), "callback " + name);
                        Map<String, Object> cb = map(decl.get("callback"), "callback " + name);
                        unknownKeys(cb, CALLBACK_KEYS, "callback " + name);
                        useType(String.valueOf(cb.getOrDefault("returns", "void")), "returns of callback " + name);
                        for (Object p : list(cb.getOrDefault("params", List.of()), "params of callback " + name)) {
                            List<Object> pair = list(p, "a parameter of callback " + name);
                            if (pair.size() != 2) problem("parameter of callback " + name + " is " + pair + "; expected [type, name]");
                            else useType(String.valueOf(pair.get(0)), "parameter " + pair.get(1) + " of callback " + name);
                        }
                    } else {
                        problem("type " + name + " has none of type, struct, union, handle, callback: keys=" + decl.keySet());
                    }
                }
                default -> problem("type " + name + " is " + e.getValue() + "; expected a type name or a mapping");
            }
        }
    }

    private void checkConstants() {
        for (var e : constants.entrySet()) {
            if (!IDENT.matcher(e.getKey()).matches()) problem("constant name " + e.getKey() + " is not an identifier");
            if (!(e.getValue() instanceof Number)) problem("constant " + e.getKey() + " is " + e.getValue() + "; expected a number");
        }
    }

    private void checkErrors() {
        for (var e : errors.entrySet()) {
            Map<String, Object> conv = map(e.getValue(), "error convention " + e.getKey());
            unknownKeys(conv, ERROR_KEYS, "error convention " + e.getKey());
            useType(String.valueOf(conv.get("type")), "error convention " + e.getKey());
            if (list(conv.get("success"), "success of " + e.getKey()).isEmpty()) problem("error convention " + e.getKey() + " has no success code");
            for (var n : map(conv.getOrDefault("names", Map.of()), "names of " + e.getKey()).entrySet()) {
                if (!(n.getValue() instanceof String s) || !IDENT.matcher(s).matches()) {
                    problem("error name for code " + n.getKey() + " of " + e.getKey() + " is " + n.getValue() + "; expected an identifier");
                }
                if (constants.get(n.getValue()) instanceof Number c && c.longValue() != Long.parseLong(n.getKey())) {
                    problem("error " + n.getValue() + " is " + n.getKey() + " in " + e.getKey() + " but " + c + " in constants");
                }
            }
        }
    }

    private void checkFunctions() {
        Set<String> names = new HashSet<>();
        for (Object o : list(top.getOrDefault("functions", List.of()), "functions")) {
            Map<String, Object> f = map(o, "a function");
            String name = String.valueOf(f.get("name"));
            String where = "function " + name;
            unknownKeys(f, FUNCTION_KEYS, where);
            if (!names.add(name)) problem(where + " is declared twice");
            String returnType = "void";
            Object returnedLength = null;
            switch (f.get("returns")) {
                case null -> { }
                case String s -> returnType = s;
                case Map<?, ?> m -> {
                    Map<String, Object> r = map(m, "returns of " + name);
                    unknownKeys(r, RETURN_KEYS, "returns of " + name);
                    returnType = String.valueOf(r.get("type"));
                    if (r.containsKey("status")) useError(r.get("status"), "status of " + where);
                    if (r.containsKey("ownership") && !Set.of("owned", "borrowed").contains(r.get("ownership"))) {
                        problem("ownership of " + where + " is " + r.get("ownership") + "; expected owned or borrowed");
                    }
                    returnedLength = r.get("length");
                }
                default -> problem("returns of " + where + " is " + f.get("returns"));
            }
            useType(returnType, "returns of " + where);
            List<Map<String, Object>> params = new ArrayList<>();
            Set<String> paramNames = new HashSet<>();
            for (Object p : list(f.getOrDefault("params", List.of()), "params of " + where)) {
                Map<String, Object> param = new LinkedHashMap<>();
                if (p instanceof List<?> pair && pair.size() == 2) {
                    param.put("type", pair.get(0));
                    param.put("name", pair.get(1));
                } else if (p instanceof Map<?, ?> m) {
                    param.putAll(map(m, "a parameter of " + where));
                    unknownKeys(param, PARAM_KEYS, "parameter " + param.get("name") + " of " + where);
                } else {
                    problem("parameter of " + where + " is " + p + "; expected [type, name] or a mapping");
                    continue;
                }
                String pn = String.valueOf(param.get("name"));
                if (!paramNames.add(pn)) problem("parameter " + pn + " of " + where + " is declared twice");
                useType(String.valueOf(param.get("type")), "parameter " + pn + " of " + where);
                if (param.containsKey("errcode")) useError(param.get("errcode"), "errcode of " + pn + " in " + where);
                if (param.containsKey("dir") && !Set.of("in", "out", "inout").contains(param.get("dir"))) {
                    problem("dir of " + pn + " in " + where + " is " + param.get("dir") + "; expected in, out or inout");
                }
                for (String flag : List.of("nullable", "terminated")) {
                    if (param.containsKey(flag) && !(param.get(flag) instanceof Boolean)) problem(flag + " of " + pn + " in " + where + " is not a boolean");
                }
                params.add(param);
            }
            if (returnedLength != null && !paramNames.contains(String.valueOf(returnedLength))) {
                problem("length of the return of " + where + " names no parameter: " + returnedLength);
            }
            for (Map<String, Object> param : params) {
                Object length = param.get("length");
                if (length instanceof Integer count) {
                    if (count < 1) problem("length of " + param.get("name") + " in " + where + " is " + count + "; expected a count of at least 1");
                } else if (length != null) {
                    // a plain name, or an expression whose names (not its functions) must be parameters
                    java.util.regex.Matcher used = java.util.regex.Pattern.compile("\\b[A-Za-z_][A-Za-z0-9_]*+(?!\\s*\\()")
                            .matcher(String.valueOf(length));
                    while (used.find()) {
                        if (!paramNames.contains(used.group())) {
                            problem("length of " + param.get("name") + " in " + where + " names no parameter: " + used.group());
                        }
                    }
                }
            }
            String tier = (String) f.getOrDefault("tier", "standard");
            if (!TIERS.contains(tier)) problem("tier of " + where + " is " + tier + "; expected one of " + TIERS);
            for (String flag : List.of("batchable", "blocking")) {
                if (f.containsKey(flag) && !(f.get(flag) instanceof Boolean)) problem(flag + " of " + where + " is not a boolean");
            }
            if (Boolean.TRUE.equals(f.get("blocking")) && !tier.equals("standard")) problem(where + " is blocking on tier " + tier + "; expected standard");
            functions.add(new Fn(name, f, returnType, params));
        }
        for (var e : types.entrySet()) {
            if (e.getValue() instanceof Map<?, ?> m && m.containsKey("handle")) {
                for (String key : List.of("retain", "release")) {
                    if (m.containsKey(key) && !names.contains(String.valueOf(m.get(key)))) {
                        problem(key + " of handle " + e.getKey() + " names no declared function: " + m.get(key));
                    }
                }
            }
        }
    }

    // ------------------------------------------------------------------ helpers

    /** The declared or primitive base of a type expression ({@code cl_event*}, {@code i8[64]}, {@code char**}). */
    private void useType(String type, String where) {
        Matcher m = TYPE.matcher(type.strip());
        if (!m.matches()) {
            problem(where + ": '" + type + "' is not a type expression");
            return;
        }
        String base = m.group(1);
        if (base.equals("char") && m.group(2).isEmpty()) problem(where + ": char alone; expected char*, i8 or u8");
        if (!PRIMITIVES.contains(base) && !types.containsKey(base)) problem(where + ": unknown type " + base);
    }

    private void useError(Object name, String where) {
        if (!errors.containsKey(String.valueOf(name))) problem(where + " names no declared error convention: " + name);
    }

    private void unknownKeys(Map<String, Object> m, Set<String> allowed, String where) {
        for (String k : m.keySet()) if (!allowed.contains(k)) problem("unknown key '" + k + "' in " + where + "; expected one of " + allowed);
    }

    private void problem(String message) {
        problems.add(file + ": " + message);
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> map(Object o, String what) {
        if (o instanceof Map<?, ?> m) {
            Map<String, Object> out = new LinkedHashMap<>();
            ((Map<Object, Object>) m).forEach((k, v) -> out.put(String.valueOf(k), v));
            return out;
        }
        problem(what + " is " + o + "; expected a mapping");
        return Map.of();
    }

    private List<Object> list(Object o, String what) {
        if (o instanceof List<?> l) return new ArrayList<>(l);
        problem(what + " is " + o + "; expected a list");
        return List.of();
    }

    private static List<String> strings(Object o) {
        List<String> out = new ArrayList<>();
        if (o instanceof List<?> l) for (Object x : l) out.add(String.valueOf(x));
        return out;
    }
}
