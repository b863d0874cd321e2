package dev.panamax.bindgen.decl;

import dev.panamax.core.abi.ScalarKind;

import java.util.Map;

/** Questions about declared types that follow aliases: is it a handle, a pointer, an integer. */
public final class TypeRefs {
    private TypeRefs() {}

    /**
     * {@code ref} with every alias followed: a primitive, ptr, char*, T*, T[n], or a named struct,
     * union, handle or callback. The file must have parsed (no unknown or recursive names).
     */
    public static TypeRef unalias(Map<String, TypeDecl> types, TypeRef ref) {
        TypeRef t = ref;
        for (int guard = 0; guard <= types.size(); guard++) {
            if (t instanceof TypeRef.Named n && types.get(n.name()) instanceof TypeDecl.Alias a) {
                t = a.target();
            } else {
                return t;
            }
        }
        return t;
    }

    /** Whether {@code ref}, or an alias on the way from it to its type, is declared {@code boolean: true}. */
    public static boolean isBoolean(Map<String, TypeDecl> types, TypeRef ref) {
        TypeRef t = ref;
        for (int guard = 0; guard <= types.size(); guard++) {
            if (!(t instanceof TypeRef.Named n && types.get(n.name()) instanceof TypeDecl.Alias a)) return false;
            if (a.bool()) return true;
            t = a.target();
        }
        return false;
    }

    /** The declaration a resolved reference names (struct, union, handle, callback), or null. */
    public static TypeDecl declOf(Map<String, TypeDecl> types, TypeRef resolved) {
        return resolved instanceof TypeRef.Named n ? types.get(n.name()) : null;
    }

    /** The handle a resolved reference names, or null. */
    public static TypeDecl.Handle handle(Map<String, TypeDecl> types, TypeRef resolved) {
        return declOf(types, resolved) instanceof TypeDecl.Handle h ? h : null;
    }

    /** Whether a resolved reference is a data pointer: T*, ptr or char* (not a handle, not a callback). */
    public static boolean isPointer(Map<String, TypeDecl> types, TypeRef resolved) {
        return resolved instanceof TypeRef.PointerTo || resolved instanceof TypeRef.AnyPointer
                || resolved instanceof TypeRef.CString;
    }

    /** Whether a resolved reference is an integer value (not bool, not floating point). */
    public static boolean isIntegerValue(Map<String, TypeDecl> types, TypeRef resolved) {
        return resolved instanceof TypeRef.Primitive p && isInteger(p.kind());
    }

    /** i8 .. u64 and size_t. */
    public static boolean isInteger(ScalarKind k) {
        return k != ScalarKind.BOOL && !k.isFloatingPoint();
    }
}
