package dev.panamax.core.abi;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Exceptions of the C type model and the classifier, with key=value details. */
final class AbiErrors {
    private AbiErrors() {}

    static IllegalArgumentException missing(String what) {
        return new IllegalArgumentException(what + " is missing (null or blank)");
    }

    static IllegalArgumentException voidNotAllowed(String where) {
        return new IllegalArgumentException("void is not a value type: where=" + where
                + " (void is allowed only as a return type; use ptr for void *)");
    }

    static IllegalArgumentException badArrayLength(int length) {
        return new IllegalArgumentException("array length must be positive: length=" + length);
    }

    static IllegalArgumentException notAParameter(String param, CType type) {
        return new IllegalArgumentException("type cannot be a parameter: param=" + param
                + " type=" + type + " (arrays decay to pointers in C: declare a pointer)");
    }

    static IllegalArgumentException notAReturn(CType type) {
        return new IllegalArgumentException("type cannot be a return type: type=" + type
                + " (C functions cannot return arrays: return a struct holding the array)");
    }

    static List<CType.Field> checkAggregate(String kind, String name, List<CType.Field> fields, int alignAs) {
        if (name == null || name.isBlank()) throw missing(kind + " name");
        if (fields == null || fields.isEmpty()) {
            throw new IllegalArgumentException(kind + " has no fields: name=" + name + " (C needs at least one)");
        }
        Set<String> seen = new HashSet<>();
        for (CType.Field f : fields) {
            if (f == null) throw missing("field of " + kind + " " + name);
            if (!seen.add(f.name())) {
                throw new IllegalArgumentException("duplicate field: " + kind + "=" + name + " field=" + f.name());
            }
        }
        if (alignAs != 0) {
            if (!Layouts.isPowerOfTwo(alignAs)) {
                throw new IllegalArgumentException("explicit alignment must be a power of two: " + kind + "=" + name
                        + " align=" + alignAs);
            }
            int natural = 1;
            for (CType.Field f : fields) natural = Math.max(natural, f.type().align());
            if (alignAs < natural) {
                throw new IllegalArgumentException("explicit alignment below the natural one: " + kind + "=" + name
                        + " align=" + alignAs + " natural=" + natural + " (it can only raise the alignment)");
            }
        }
        return List.copyOf(fields);
    }
}
