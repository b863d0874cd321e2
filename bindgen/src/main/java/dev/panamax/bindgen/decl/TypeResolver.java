package dev.panamax.bindgen.decl;

import dev.panamax.core.abi.CFunctionType;
import dev.panamax.core.abi.CType;
import dev.panamax.core.abi.ScalarKind;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Maps declarations-file types onto the core's C type model, rejecting unknown names, types that
 * contain themselves by value (through fields, aliases or callback signatures), void where a value
 * is needed and arrays outside struct fields.
 */
final class TypeResolver {
    /** Where a type is used; decides whether void and arrays are allowed. */
    enum Use { FIELD, PARAM, RETURN, ALIAS }

    private final String file;
    private final Map<String, TypeDecl> types;
    private final Map<String, CType> resolved = new HashMap<>();
    private final Deque<String> resolving = new ArrayDeque<>();

    TypeResolver(String file, Map<String, TypeDecl> types) {
        this.file = file;
        this.types = types;
    }

    CFunctionType functionType(TypeRef returns, List<Param> params, Location where) {
        CType ret = resolve(returns, where, Use.RETURN);
        List<CFunctionType.Param> ps = new ArrayList<>();
        for (Param p : params) ps.add(new CFunctionType.Param(p.name(), resolve(p.type(), p.location(), Use.PARAM)));
        try {
            return new CFunctionType(ret, ps);
        } catch (IllegalArgumentException e) {
            throw new DeclarationsException(where, e.getMessage());
        }
    }

    CType resolve(TypeRef ref, Location where, Use use) {
        CType t = switch (ref) {
            case TypeRef.Void v -> {
                if (use != Use.RETURN && use != Use.ALIAS) {
                    throw new DeclarationsException(where, "void is not a value type here; expected a value type"
                            + " (void only as a return type; ptr or void* for an untyped pointer)");
                }
                yield CType.VOID;
            }
            case TypeRef.Primitive p -> new CType.Scalar(p.kind());
            case TypeRef.AnyPointer p -> CType.POINTER;
            case TypeRef.CString s -> CType.POINTER;
            case TypeRef.PointerTo p -> {
                checkKnown(p.target(), where);   // the pointee must exist, but is not resolved: A* inside A is fine
                yield CType.POINTER;
            }
            case TypeRef.ArrayOf a -> {
                if (use != Use.FIELD && use != Use.ALIAS) {
                    throw new DeclarationsException(where, "array type " + a.spelling() + " is not allowed here;"
                            + " expected T[n] only in struct or union fields (pass a pointer T* instead)");
                }
                CType element = resolve(a.element(), where, Use.FIELD);
                long bytes = sizeOf(element, where) * (long) a.length();
                if (bytes > Integer.MAX_VALUE) {
                    throw new DeclarationsException(where, "array type " + a.spelling() + " takes " + bytes
                            + " bytes; expected at most " + Integer.MAX_VALUE);
                }
                yield new CType.Array(element, a.length());
            }
            case TypeRef.Named n -> named(n.name(), where);
        };
        if (t instanceof CType.Array && use != Use.FIELD && use != Use.ALIAS) {
            throw new DeclarationsException(where, "type " + ref.spelling() + " is an array; expected an array only"
                    + " in struct or union fields (pass a pointer instead)");
        }
        if (t instanceof CType.Void && use != Use.RETURN && use != Use.ALIAS) {
            throw new DeclarationsException(where, "type " + ref.spelling() + " is void; expected a value type");
        }
        return t;
    }

    private void checkKnown(TypeRef ref, Location where) {
        switch (ref) {
            case TypeRef.Named n -> {
                if (!types.containsKey(n.name())) throw unknown(n.name(), where);
            }
            case TypeRef.PointerTo p -> checkKnown(p.target(), where);
            case TypeRef.ArrayOf a -> checkKnown(a.element(), where);
            default -> { }
        }
    }

    private CType named(String name, Location where) {
        CType done = resolved.get(name);
        if (done != null) return done;
        TypeDecl decl = types.get(name);
        if (decl == null) throw unknown(name, where);
        if (resolving.contains(name)) {
            List<String> chain = new ArrayList<>(resolving.reversed());
            chain = chain.subList(chain.indexOf(name), chain.size());
            chain.add(name);
            throw new DeclarationsException(where, "recursive type: " + String.join(" -> ", chain)
                    + "; expected a type that does not contain itself by value (use a pointer, " + name + "*)");
        }
        if (resolving.size() >= Limits.TYPE_NESTING) {
            List<String> chain = new ArrayList<>(resolving.reversed());
            throw new DeclarationsException(where, "types nest deeper than " + Limits.TYPE_NESTING + " levels: "
                    + String.join(" -> ", chain.subList(0, 3)) + " -> ... -> " + chain.getLast() + " -> " + name
                    + "; expected at most " + Limits.TYPE_NESTING + " named types inside each other (aliases, structs by"
                    + " value, callback signatures)");
        }
        resolving.push(name);
        try {
            CType t = switch (decl) {
                case TypeDecl.Alias a -> resolve(a.target(), a.location(), Use.ALIAS);
                case TypeDecl.Struct s -> aggregate(s.name(), s.fields(), s.align(), s.location(), true);
                case TypeDecl.Union u -> aggregate(u.name(), u.fields(), u.align(), u.location(), false);
                case TypeDecl.Handle h -> CType.POINTER;
                case TypeDecl.Callback c -> new CType.FunctionPointer(functionType(c.returns(), c.params(), c.location()));
            };
            resolved.put(name, t);
            return t;
        } finally {
            resolving.pop();
        }
    }

    private CType aggregate(String name, List<Field> fields, int align, Location where, boolean struct) {
        List<CType.Field> fs = new ArrayList<>();
        for (Field f : fields) {
            try {
                fs.add(new CType.Field(f.name(), resolve(f.type(), f.location(), Use.FIELD)));
            } catch (IllegalArgumentException e) {
                throw new DeclarationsException(f.location(), e.getMessage());
            }
        }
        CType t;
        try {
            t = struct ? new CType.Struct(name, fs, align) : new CType.Union(name, fs, align);
        } catch (IllegalArgumentException | ArithmeticException e) {
            throw new DeclarationsException(where, e.getMessage());
        }
        sizeOf(t, where);
        return t;
    }

    /** The type's size, refused when it passes 2^31 - 1 bytes (the int sizes of the ABI model). */
    private static long sizeOf(CType t, Location where) {
        try {
            return t.size();
        } catch (ArithmeticException e) {
            String what = t instanceof CType.Struct st ? "struct " + st.name() : t instanceof CType.Union u ? "union " + u.name() : "type";
            throw new DeclarationsException(where, what + " is larger than " + Integer.MAX_VALUE
                    + " bytes; expected a smaller aggregate");
        }
    }

    private DeclarationsException unknown(String name, Location where) {
        StringBuilder prims = new StringBuilder("void");
        for (ScalarKind k : ScalarKind.values()) prims.append(' ').append(k.declName());
        prims.append(" ptr");
        String declared = types.isEmpty() ? "none" : String.join(", ", types.keySet());
        return new DeclarationsException(where, "unknown type '" + name + "'; expected a primitive (" + prims
                + "), char* or string, a type declared under types (" + declared + "), T* or T[n]");
    }
}
