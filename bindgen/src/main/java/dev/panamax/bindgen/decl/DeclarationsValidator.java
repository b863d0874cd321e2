package dev.panamax.bindgen.decl;

import java.util.List;
import java.util.Map;

/**
 * Checks what the parser's structural pass cannot: that keys make sense for the types they sit on.
 * A status on a floating result, a length naming a struct, an errcode on a value, ownership of a
 * non-handle, a retain or release function that does not take the handle: each is an error at its
 * place in the file, raised before anything is generated.
 */
final class DeclarationsValidator {
    private final Map<String, TypeDecl> types;
    private final List<Function> functions;

    DeclarationsValidator(Map<String, TypeDecl> types, List<Function> functions) {
        this.types = types;
        this.functions = functions;
    }

    void validate() {
        for (TypeDecl t : types.values()) {
            if (t instanceof TypeDecl.Handle h) {
                lifecycleFunction(h, h.retain(), "retain");
                lifecycleFunction(h, h.release(), "release");
            } else if (t instanceof TypeDecl.Callback c) {
                callback(c);
            } else if (t instanceof TypeDecl.Alias a && a.bool()
                    && !(TypeRefs.unalias(types, a.target()) instanceof TypeRef.Primitive prim && TypeRefs.isInteger(prim.kind()))) {
                throw new DeclarationsException(a.location(), "boolean type " + a.name() + " is " + a.target().spelling()
                        + "; expected an integer type (0 false, anything else true)");
            }
        }
        for (Function f : functions) {
            returns(f);
            for (Param p : f.params()) param(f, p);
            for (Requirement r : f.requires()) requirement(f, r);
        }
    }

    /** A retain or release declared as a function of the file must take exactly the handle. */
    private void lifecycleFunction(TypeDecl.Handle h, String name, String role) {
        if (name == null) return;
        for (Function f : functions) {
            if (!f.name().equals(name)) continue;
            boolean takesHandle = f.params().size() == 1
                    && TypeRefs.unalias(types, f.params().getFirst().type()) instanceof TypeRef.Named n
                    && n.name().equals(h.name());
            if (!takesHandle) {
                throw new DeclarationsException(f.location(), role + " function " + name + " of handle " + h.name()
                        + " takes " + f.params().stream().map(p -> p.type().spelling()).toList() + "; expected exactly one"
                        + " parameter of type " + h.name());
            }
        }
    }

    private void callback(TypeDecl.Callback c) {
        if (c.userData() == null) return;
        for (Param p : c.params()) {
            if (!p.name().equals(c.userData())) continue;
            TypeRef t = TypeRefs.unalias(types, p.type());
            boolean ok = TypeRefs.isPointer(types, t) && !(t instanceof TypeRef.CString)
                    || t instanceof TypeRef.Primitive prim && TypeRefs.isInteger(prim.kind()) && prim.kind().size() >= 4;
            if (!ok) {
                throw new DeclarationsException(p.location(), "user_data parameter " + p.name() + " of callback " + c.name()
                        + " has type " + p.type().spelling() + "; expected a pointer or a 32/64-bit integer");
            }
        }
    }

    private void returns(Function f) {
        Returns r = f.returns();
        TypeRef t = TypeRefs.unalias(types, r.type());
        boolean bool = t instanceof TypeRef.Primitive p && p.kind() == dev.panamax.core.abi.ScalarKind.BOOL;
        if (r.status() != null && !TypeRefs.isIntegerValue(types, t) && !bool) {
            throw new DeclarationsException(r.location(), "status " + r.status() + " on " + f.name() + " returning "
                    + r.type().spelling() + "; expected an integer or bool return type for a status");
        }
        if (r.ownership() != null) {
            TypeDecl.Handle h = TypeRefs.handle(types, t);
            if (h == null) {
                throw new DeclarationsException(r.location(), "ownership on " + f.name() + " returning "
                        + r.type().spelling() + "; expected a handle return type (declared {handle: opaque})");
            }
            requireRelease(h, r.ownership(), r.location(), f.name());
        }
        if (r.length() != null) returnedLength(f, r, t);
    }

    /** A returned pointer's length: a pointer result, not consumed by a status, sized by an integer parameter. */
    private void returnedLength(Function f, Returns r, TypeRef t) {
        String where = "length '" + r.length() + "' of the return of " + f.name();
        if (r.status() != null) {
            throw new DeclarationsException(r.lengthLocation(), where + ": the result is checked as status " + r.status()
                    + "; expected a returned pointer (T*, ptr) for a returned length");
        }
        if (!(t instanceof TypeRef.AnyPointer || t instanceof TypeRef.PointerTo)) {
            throw new DeclarationsException(r.lengthLocation(), where + ": the return type is " + r.type().spelling()
                    + "; expected a returned pointer (T*, ptr) for a returned length");
        }
        Param lengthParam = f.params().stream().filter(q -> q.name().equals(r.length())).findFirst().orElse(null);
        if (lengthParam == null) {
            throw new DeclarationsException(r.lengthLocation(), where + " names no parameter of " + f.name() + "; expected one of "
                    + f.params().stream().map(Param::name).toList());
        }
        if (!TypeRefs.isIntegerValue(types, TypeRefs.unalias(types, lengthParam.type()))) {
            throw new DeclarationsException(r.lengthLocation(), where + " names a parameter of type " + lengthParam.type().spelling()
                    + "; expected an integer parameter passed by value");
        }
    }

    private void param(Function f, Param p) {
        String where = "parameter " + p.name() + " of " + f.name();
        TypeRef t = TypeRefs.unalias(types, p.type());
        boolean pointer = TypeRefs.isPointer(types, t);
        if (p.direction() != Param.Direction.IN && !pointer) {
            throw new DeclarationsException(p.location(), where + " has dir " + p.direction().name().toLowerCase(java.util.Locale.ROOT)
                    + " and type " + p.type().spelling() + "; expected a pointer type (T*, ptr) for an out or inout parameter");
        }
        if (p.nullable() && !pointer && TypeRefs.handle(types, t) == null && !(TypeRefs.declOf(types, t) instanceof TypeDecl.Callback)) {
            throw new DeclarationsException(p.location(), where + " is nullable but has type " + p.type().spelling()
                    + "; expected a pointer, string, handle or callback (only they can be NULL)");
        }
        if (!p.elements().isEmpty() && !(t instanceof TypeRef.AnyPointer && p.length() != null)) {
            throw new DeclarationsException(p.location(), where + " lists elements but is " + p.type().spelling()
                    + (p.length() == null ? " without a length" : "") + "; expected a ptr whose length names the parameter"
                    + " holding its size in bytes");
        }
        if (p.asyncUnless() != null) {
            if (p.elements().isEmpty()) {
                throw new DeclarationsException(p.location(), where + " has async_unless without elements; expected it only"
                        + " beside elements (it says when a Java array may be passed)");
            }
            Param flag = f.params().stream().filter(q -> q.name().equals(p.asyncUnless())).findFirst().orElse(null);
            if (flag == null || !TypeRefs.isBoolean(types, flag.type())) {
                throw new DeclarationsException(p.location(), where + " has async_unless " + p.asyncUnless() + ", which is "
                        + (flag == null ? "no parameter of " + f.name() : "of type " + flag.type().spelling())
                        + "; expected a parameter of a type declared boolean: true");
            }
        }
        if (p.terminated()) {
            boolean integers = t instanceof TypeRef.PointerTo ptr && TypeRefs.unalias(types, ptr.target()) instanceof TypeRef.Primitive prim
                    && TypeRefs.isInteger(prim.kind());
            if (!integers || p.direction() != Param.Direction.IN || p.hasLength()) {
                throw new DeclarationsException(p.location(), where + " is terminated but is " + p.type().spelling()
                        + (p.direction() != Param.Direction.IN ? " dir " + p.direction().name().toLowerCase(java.util.Locale.ROOT) : "")
                        + (p.hasLength() ? " with a length" : "")
                        + "; expected an in pointer to integers without a length (a zero-terminated list such as cl_context_properties*)");
            }
        }
        if (p.count() > 0 && !pointer) {
            throw new DeclarationsException(p.location(), where + " has length " + p.count() + " but type " + p.type().spelling()
                    + "; expected a pointer type (T*, ptr) for a parameter with a length");
        }
        if (p.length() != null) {
            if (!pointer) {
                throw new DeclarationsException(p.location(), where + " has a length but type " + p.type().spelling()
                        + "; expected a pointer type (T*, ptr) for a parameter with a length");
            }
            Param lengthParam = f.params().stream().filter(q -> q.name().equals(p.length())).findFirst().orElseThrow();
            TypeRef lt = TypeRefs.unalias(types, lengthParam.type());
            boolean integer = TypeRefs.isIntegerValue(types, lt)
                    || lt instanceof TypeRef.PointerTo ptr && TypeRefs.isIntegerValue(types, TypeRefs.unalias(types, ptr.target()));
            if (!integer) {
                throw new DeclarationsException(p.location(), "length '" + p.length() + "' of " + where + " names a parameter of type "
                        + lengthParam.type().spelling() + "; expected an integer parameter (or a pointer to one)");
            }
        }
        if (p.expression() != null) {
            if (!pointer) {
                throw new DeclarationsException(p.location(), where + " has a length expression but type " + p.type().spelling()
                        + "; expected a pointer type (T*, ptr) for a parameter with a length");
            }
            for (String ref : p.expression().refs()) {
                Param used = f.params().stream().filter(q -> q.name().equals(ref)).findFirst().orElseThrow();
                if (!TypeRefs.isIntegerValue(types, TypeRefs.unalias(types, used.type()))) {
                    throw new DeclarationsException(p.location(), "length of " + where + " reads '" + ref + "' of type "
                            + used.type().spelling() + "; expected only integer parameters passed by value in a length expression");
                }
            }
        }
        if (p.errcode() != null) {
            boolean ok = t instanceof TypeRef.PointerTo ptr && TypeRefs.isIntegerValue(types, TypeRefs.unalias(types, ptr.target()));
            if (!ok) {
                throw new DeclarationsException(p.location(), "errcode " + p.errcode() + " on " + where + " of type "
                        + p.type().spelling() + "; expected a pointer to an integer (e.g. i32*) that receives the status");
            }
        }
        if (p.ownership() != null) {
            TypeDecl.Handle h = t instanceof TypeRef.PointerTo ptr ? TypeRefs.handle(types, TypeRefs.unalias(types, ptr.target())) : null;
            if (h == null || p.direction() == Param.Direction.IN) {
                throw new DeclarationsException(p.location(), "ownership on " + where + " of type " + p.type().spelling()
                        + "; expected an out or inout pointer to a handle (e.g. cl_event*, dir: out)");
            }
            requireRelease(h, p.ownership(), p.location(), f.name());
        }
    }

    /** A requirement reads integer parameters passed by value, as a length expression does. */
    private void requirement(Function f, Requirement r) {
        for (String ref : r.condition().refs()) {
            Param used = f.params().stream().filter(q -> q.name().equals(ref)).findFirst().orElseThrow();
            if (!TypeRefs.isIntegerValue(types, TypeRefs.unalias(types, used.type()))) {
                throw new DeclarationsException(r.location(), "requirement '" + r.text() + "' of " + f.name() + " reads '" + ref
                        + "' of type " + used.type().spelling() + "; expected only integer parameters passed by value");
            }
        }
    }

    private static void requireRelease(TypeDecl.Handle h, Returns.Ownership ownership, Location at, String function) {
        if (ownership == Returns.Ownership.OWNED && h.release() == null) {
            throw new DeclarationsException(at, function + " hands out owned " + h.name() + " handles, but " + h.name()
                    + " has no release; expected release: FUNCTION on the handle type, or ownership: borrowed here");
        }
    }
}
