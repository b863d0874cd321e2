package dev.panamax.bindgen.importer;

import dev.panamax.bindgen.decl.Constant;
import dev.panamax.bindgen.decl.Declarations;
import dev.panamax.bindgen.decl.Field;
import dev.panamax.bindgen.decl.Function;
import dev.panamax.bindgen.decl.Param;
import dev.panamax.bindgen.decl.TypeDecl;
import dev.panamax.bindgen.decl.TypeRef;
import dev.panamax.bindgen.decl.TypeRefs;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Merges a fresh import into the declarations file a person has annotated. The header decides the C
 * facts (which functions, types and constants exist; their types); the file keeps everything else:
 * statuses, ownership, lengths, directions, nullability, {@code elements}, {@code async_unless}, tiers,
 * batchable, blocking, requirements, the {@code errors} section, handle release and retain functions,
 * {@code boolean} aliases, a struct's {@code align}, callback user data and calls, the package and
 * class, the order of the types, and a more precise type a person wrote where the C type is unchanged
 * ({@code f32*} for a {@code void *}, {@code cl_bool} for a {@code cl_uint}), in parameters and fields.
 */
final class Reimport {
    private final Declarations old;
    private final Declarations fresh;
    private final List<String> added = new ArrayList<>();
    private final List<String> removed = new ArrayList<>();
    private final List<String> changed = new ArrayList<>();

    private Reimport(Declarations old, Declarations fresh) {
        this.old = old;
        this.fresh = fresh;
    }

    /** The merged declarations and what changed. */
    record Merged(Declarations declarations, Changes changes) {}

    static Merged merge(Declarations old, Declarations fresh) {
        return new Reimport(old, fresh).run();
    }

    private Merged run() {
        Map<String, TypeDecl> types = new LinkedHashMap<>();
        Set<String> newTypes = new java.util.LinkedHashSet<>();
        for (TypeDecl t : fresh.types().values()) {
            TypeDecl o = old.types().get(t.name());
            if (o == null) {
                newTypes.add(t.name());
                types.put(t.name(), t);
            } else {
                types.put(t.name(), mergeType(o, t));
            }
        }
        Map<String, Constant> constants = new LinkedHashMap<>();
        for (Constant c : fresh.constants().values()) {
            Constant o = old.constants().get(c.name());
            if (o == null) added.add("constant " + c.name());
            else if (!o.value().equals(c.value())) changed.add("constant " + c.name() + ": " + DeclarationsWriter.number(o.value())
                    + " -> " + DeclarationsWriter.number(c.value()));
            constants.put(c.name(), c);
        }
        for (String c : old.constants().keySet()) if (!constants.containsKey(c)) removed.add("constant " + c);
        List<Function> functions = new ArrayList<>();
        Map<String, Function> oldFunctions = old.functions().stream().collect(Collectors.toMap(Function::name, f -> f, (a, b) -> a));
        for (Function f : fresh.functions()) {
            Function o = oldFunctions.get(f.name());
            if (o == null) {
                added.add("function " + f.name());
                functions.add(f);
            } else {
                functions.add(mergeFunction(o, f));
            }
        }
        Set<String> freshFunctions = fresh.functions().stream().map(Function::name).collect(Collectors.toSet());
        for (Function o : old.functions()) if (!freshFunctions.contains(o.name())) removed.add("function " + o.name());
        // types only the old file has: kept when something kept uses them (a person's own), else removed
        Set<String> used = used(types, functions, old.errors().values().stream().map(e -> e.type()).toList());
        for (TypeDecl t : old.types().values()) {
            if (types.containsKey(t.name())) continue;
            if (used.contains(t.name())) types.put(t.name(), t);
            else removed.add("type " + t.name());
        }
        dropNewTypesNothingUses(types, newTypes, functions);
        List<String> addedTypes = newTypes.stream().filter(types::containsKey).map(n -> "type " + n).toList();
        added.addAll(0, addedTypes);
        Declarations merged = new Declarations(old.file(), 1, fresh.library(), old.sonames(), old.javaPackage(),
                old.className(), inFileOrder(types), constants, old.errors(), functions, fresh.headers());
        return new Merged(merged, new Changes(added, removed, changed));
    }

    /**
     * Removes the types new to the header that only a use the file already annotates brought in: the
     * header now names a callback's {@code size_t} parameter's typedef, the file keeps {@code u64} there, and
     * nothing else uses the typedef. A new type imported for its own sake (nothing in the header uses it) stays.
     */
    private void dropNewTypesNothingUses(Map<String, TypeDecl> types, Set<String> newTypes, List<Function> functions) {
        Set<String> usedByHeader = used(fresh.types(), fresh.functions(), List.of());
        List<TypeRef> roots = new ArrayList<>(old.errors().values().stream().map(e -> e.type()).toList());
        for (TypeDecl t : types.values()) {
            boolean root = !newTypes.contains(t.name()) || !usedByHeader.contains(t.name());
            if (root) roots.add(new TypeRef.Named(t.name()));
        }
        Set<String> reachable = used(Map.copyOf(types), functions, roots, false);
        for (String n : newTypes) if (!reachable.contains(n)) types.remove(n);
    }

    /** The types in the order of the file (a person's order kept), then the new ones in the header's order. */
    private Map<String, TypeDecl> inFileOrder(Map<String, TypeDecl> types) {
        Map<String, TypeDecl> out = new LinkedHashMap<>();
        for (String n : old.types().keySet()) if (types.containsKey(n)) out.put(n, types.get(n));
        out.putAll(types);
        return out;
    }

    private TypeDecl mergeType(TypeDecl o, TypeDecl t) {
        switch (o) {
            case TypeDecl.Handle h when t instanceof TypeDecl.Handle -> {
                return h;
            }
            case TypeDecl.Handle h when t instanceof TypeDecl.Alias a && pointerLike(fresh.types(), TypeRefs.unalias(fresh.types(), a.target())) -> {
                return h;   // a person declared the pointer a handle
            }
            case TypeDecl.Alias a when t instanceof TypeDecl.Alias b -> {
                if (same(a.target(), b.target())) return a;
                changed.add("type " + t.name() + ": " + a.target().spelling() + " -> " + b.target().spelling());
                return b;
            }
            case TypeDecl.Callback c when t instanceof TypeDecl.Callback n -> {
                String what = "callback " + t.name();
                TypeRef returns = c.returns();
                if (!same(c.returns(), n.returns())) {
                    changed.add(what + ": returns " + c.returns().spelling() + " -> " + n.returns().spelling());
                    returns = n.returns();
                }
                List<Param> params = mergeParams(what, c.params(), n.params());
                String userData = c.userData() != null && params.stream().anyMatch(p -> p.name().equals(c.userData()))
                        ? c.userData() : n.userData();
                return new TypeDecl.Callback(c.name(), returns, params, userData, c.calls(), n.location());
            }
            case TypeDecl.Struct s when t instanceof TypeDecl.Struct n -> {
                List<Field> fields = mergeFields(o, s.fields(), n.fields(), t);
                return fields == null ? t : new TypeDecl.Struct(n.name(), fields, align(t, s.align(), n.align()), n.location());
            }
            case TypeDecl.Union s when t instanceof TypeDecl.Union n -> {
                List<Field> fields = mergeFields(o, s.fields(), n.fields(), t);
                return fields == null ? t : new TypeDecl.Union(n.name(), fields, align(t, s.align(), n.align()), n.location());
            }
            default -> {
                if (!describe(o).equals(describe(t))) changed.add("type " + t.name() + ": " + describe(o) + " -> " + describe(t));
                return t;
            }
        }
    }

    /**
     * A struct's or union's fields with the types a person wrote where the C types are the same (an
     * {@code align:} a person added is kept as well, by the caller); null, with the change noted, when the
     * header changed the fields.
     */
    private List<Field> mergeFields(TypeDecl o, List<Field> oldFields, List<Field> fields, TypeDecl t) {
        boolean same = oldFields.size() == fields.size();
        for (int i = 0; same && i < fields.size(); i++) {
            same = oldFields.get(i).name().equals(fields.get(i).name()) && same(oldFields.get(i).type(), fields.get(i).type());
        }
        if (!same) {
            changed.add("type " + t.name() + ": " + describe(o) + " -> " + describe(t));
            return null;
        }
        List<Field> out = new ArrayList<>();
        for (int i = 0; i < fields.size(); i++) out.add(new Field(oldFields.get(i).type(), fields.get(i).name(), fields.get(i).location()));
        return out;
    }

    /** The header's alignment where clang gives one ({@code align:} of the import), else the one a person wrote. */
    private int align(TypeDecl t, int oldAlign, int freshAlign) {
        if (freshAlign == 0) return oldAlign;
        if (oldAlign != freshAlign) changed.add("type " + t.name() + ": align " + oldAlign + " -> " + freshAlign);
        return freshAlign;
    }

    private static String describe(TypeDecl t) {
        return switch (t) {
            case TypeDecl.Alias a -> a.target().spelling();
            case TypeDecl.Struct s -> "struct " + fields(s.fields()) + (s.align() > 0 ? " align " + s.align() : "");
            case TypeDecl.Union s -> "union " + fields(s.fields()) + (s.align() > 0 ? " align " + s.align() : "");
            case TypeDecl.Handle h -> "handle";
            case TypeDecl.Callback c -> "callback";
        };
    }

    private static String fields(List<Field> fields) {
        return fields.stream().map(f -> f.type().spelling() + " " + f.name()).collect(Collectors.joining(", ", "{", "}"));
    }

    private Function mergeFunction(Function o, Function f) {
        String what = "function " + f.name();
        var returns = o.returns();
        if (!same(o.returns().type(), f.returns().type())) {
            changed.add(what + ": returns " + o.returns().type().spelling() + " -> " + f.returns().type().spelling());
            returns = f.returns();
        }
        return new Function(f.name(), returns, mergeParams(what, o.params(), f.params()), o.tier(), o.batchable(),
                o.blocking(), o.requires(), f.location());
    }

    private List<Param> mergeParams(String what, List<Param> oldParams, List<Param> params) {
        List<Param> out = new ArrayList<>();
        if (oldParams.size() == params.size()) {
            for (int i = 0; i < params.size(); i++) {
                Param o = oldParams.get(i);
                Param p = params.get(i);
                if (same(o.type(), p.type())) {
                    out.add(o);
                } else {
                    changed.add(what + ": parameter " + (i + 1) + " " + p.name() + ": " + o.type().spelling() + " -> " + p.type().spelling());
                    out.add(p);
                }
            }
            return out;
        }
        changed.add(what + ": parameters " + signature(oldParams) + " -> " + signature(params));
        Map<String, Param> byName = new HashMap<>();
        for (Param o : oldParams) byName.put(o.name(), o);
        for (Param p : params) {
            Param o = byName.get(p.name());
            out.add(o != null && same(o.type(), p.type()) ? o : p);
        }
        return out;
    }

    private static String signature(List<Param> params) {
        return params.stream().map(p -> p.type().spelling() + " " + p.name()).collect(Collectors.joining(", ", "(", ")"));
    }

    /**
     * Whether the type a person wrote ({@code old}) and the header's ({@code fresh}) are the same C type:
     * aliases followed; integers of one size and floating types of one size are the same; any pointer
     * matches {@code void *}, a handle or a callback.
     */
    private boolean same(TypeRef a, TypeRef b) {
        return same(old.types(), a, fresh.types(), b, 0);
    }

    private static boolean same(Map<String, TypeDecl> ta, TypeRef a, Map<String, TypeDecl> tb, TypeRef b, int depth) {
        if (depth > 16) return true;
        TypeRef x = TypeRefs.unalias(ta, a);
        TypeRef y = TypeRefs.unalias(tb, b);
        boolean px = pointerLike(ta, x);
        boolean py = pointerLike(tb, y);
        if (px || py) {
            if (px != py) return false;
            if (x instanceof TypeRef.PointerTo p && y instanceof TypeRef.PointerTo q) return same(ta, p.target(), tb, q.target(), depth + 1);
            return true;
        }
        return switch (x) {
            case TypeRef.Void v -> y instanceof TypeRef.Void;
            case TypeRef.Primitive p -> y instanceof TypeRef.Primitive q && p.kind().size() == q.kind().size()
                    && p.kind().isFloatingPoint() == q.kind().isFloatingPoint();
            case TypeRef.ArrayOf r -> y instanceof TypeRef.ArrayOf s && r.length() == s.length()
                    && same(ta, r.element(), tb, s.element(), depth + 1);
            case TypeRef.Named n -> y instanceof TypeRef.Named m && n.name().equals(m.name());
            default -> Objects.equals(x, y);
        };
    }

    private static boolean pointerLike(Map<String, TypeDecl> types, TypeRef t) {
        return TypeRefs.isPointer(types, t) || TypeRefs.declOf(types, t) instanceof TypeDecl.Handle
                || TypeRefs.declOf(types, t) instanceof TypeDecl.Callback;
    }

    /** The names of the types {@code types}, {@code functions} and {@code extra} use, transitively. */
    private static Set<String> used(Map<String, TypeDecl> types, List<Function> functions, List<TypeRef> extra) {
        return used(types, functions, extra, true);
    }

    /**
     * The names of the types {@code functions} and {@code extra} use, transitively; with {@code everyType},
     * the types every entry of {@code types} uses too.
     */
    private static Set<String> used(Map<String, TypeDecl> types, List<Function> functions, List<TypeRef> extra, boolean everyType) {
        Set<String> out = new java.util.HashSet<>();
        List<TypeRef> todo = new ArrayList<>(extra);
        for (Function f : functions) {
            todo.add(f.returns().type());
            f.params().forEach(p -> todo.add(p.type()));
        }
        if (everyType) for (TypeDecl t : types.values()) todo.addAll(refs(t));
        while (!todo.isEmpty()) {
            TypeRef r = todo.removeLast();
            String n = named(r);
            if (n != null && out.add(n) && types.get(n) != null) todo.addAll(refs(types.get(n)));
        }
        return out;
    }

    static String named(TypeRef r) {
        return switch (r) {
            case TypeRef.Named n -> n.name();
            case TypeRef.PointerTo p -> named(p.target());
            case TypeRef.ArrayOf a -> named(a.element());
            default -> null;
        };
    }

    static List<TypeRef> refs(TypeDecl t) {
        return switch (t) {
            case TypeDecl.Alias a -> List.of(a.target());
            case TypeDecl.Struct s -> s.fields().stream().map(Field::type).toList();
            case TypeDecl.Union s -> s.fields().stream().map(Field::type).toList();
            case TypeDecl.Handle h -> List.of();
            case TypeDecl.Callback c -> {
                List<TypeRef> r = new ArrayList<>();
                r.add(c.returns());
                c.params().forEach(p -> r.add(p.type()));
                yield r;
            }
        };
    }
}
