package dev.panamax.core.abi;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A C type as the MetaABI classifier sees it: size and alignment per the x86-64 System V ABI.
 *
 * <pre>{@code
 * CType point = new CType.Struct("Point", List.of(
 *         new CType.Field("x", CType.F32), new CType.Field("y", CType.F32)));
 * point.size();  // 8
 * point.align(); // 4
 * }</pre>
 */
public sealed interface CType {
    /** Size in bytes ({@code sizeof}); 0 for void. */
    int size();

    /** Alignment in bytes ({@code _Alignof}); 1 for void. */
    int align();

    Void VOID = new Void();
    Scalar BOOL = new Scalar(ScalarKind.BOOL);
    Scalar I8 = new Scalar(ScalarKind.I8);
    Scalar U8 = new Scalar(ScalarKind.U8);
    Scalar I16 = new Scalar(ScalarKind.I16);
    Scalar U16 = new Scalar(ScalarKind.U16);
    Scalar I32 = new Scalar(ScalarKind.I32);
    Scalar U32 = new Scalar(ScalarKind.U32);
    Scalar I64 = new Scalar(ScalarKind.I64);
    Scalar U64 = new Scalar(ScalarKind.U64);
    Scalar SIZE_T = new Scalar(ScalarKind.SIZE_T);
    Scalar F32 = new Scalar(ScalarKind.F32);
    Scalar F64 = new Scalar(ScalarKind.F64);
    Scalar F80 = new Scalar(ScalarKind.F80);
    Pointer POINTER = new Pointer();

    /** {@code void}: only as a return type. */
    record Void() implements CType {
        @Override public int size() { return 0; }
        @Override public int align() { return 1; }
    }

    /** bool, the fixed-width integers, size_t, float, double and long double. */
    record Scalar(ScalarKind kind) implements CType {
        public Scalar {
            if (kind == null) throw AbiErrors.missing("scalar kind");
        }
        @Override public int size() { return kind.size(); }
        @Override public int align() { return kind.align(); }
    }

    /**
     * A data pointer. The pointee is not part of the ABI (every data pointer is 8 bytes in a
     * general-purpose register), so the model does not carry it; bindgen keeps it in its own model.
     */
    record Pointer() implements CType {
        @Override public int size() { return 8; }
        @Override public int align() { return 8; }
    }

    /** A pointer to a function of the given signature (a callback). */
    record FunctionPointer(CFunctionType signature) implements CType {
        public FunctionPointer {
            if (signature == null) throw AbiErrors.missing("function pointer signature");
        }
        @Override public int size() { return 8; }
        @Override public int align() { return 8; }
    }

    /** A member of a struct or union. */
    record Field(String name, CType type) {
        public Field {
            if (name == null || name.isBlank()) throw AbiErrors.missing("field name");
            if (type == null) throw AbiErrors.missing("type of field " + name);
            if (type instanceof Void) throw AbiErrors.voidNotAllowed("field " + name);
        }
    }

    /** A struct or a union: named, with at least one field and an optional explicit alignment. */
    sealed interface Aggregate extends CType permits Struct, Union {
        /** The C tag and typedef name. */
        String name();

        /** The fields in declaration order. */
        List<Field> fields();

        /** Explicit alignment ({@code __attribute__((aligned(n)))}); 0 for the natural one. */
        int alignAs();

        /** Byte offset of field {@code index}. */
        int offsetOf(int index);

        /** The natural alignment: the largest alignment of the fields. */
        default int naturalAlign() {
            int a = 1;
            for (Field f : fields()) a = Math.max(a, f.type().align());
            return a;
        }

        @Override
        default int align() {
            return Math.max(naturalAlign(), alignAs());
        }
    }

    /** A C struct: fields laid out in order, each at its natural alignment; size rounded up to the alignment. */
    record Struct(String name, List<Field> fields, int alignAs) implements Aggregate {
        public Struct {
            fields = AbiErrors.checkAggregate("struct", name, fields, alignAs);
        }

        public Struct(String name, List<Field> fields) {
            this(name, fields, 0);
        }

        @Override
        public int offsetOf(int index) {
            java.util.Objects.checkIndex(index, fields.size());
            int offset = 0;
            for (int i = 0; ; i++) {
                CType t = fields.get(i).type();
                offset = Layouts.alignUp(offset, t.align());
                if (i == index) return offset;
                offset = Math.addExact(offset, t.size());
            }
        }

        @Override
        public int size() {
            Field last = fields.getLast();
            return Layouts.alignUp(Math.addExact(offsetOf(fields.size() - 1), last.type().size()), align());
        }
    }

    /** A C union: every field at offset 0; size is the largest field rounded up to the alignment. */
    record Union(String name, List<Field> fields, int alignAs) implements Aggregate {
        public Union {
            fields = AbiErrors.checkAggregate("union", name, fields, alignAs);
        }

        public Union(String name, List<Field> fields) {
            this(name, fields, 0);
        }

        @Override
        public int offsetOf(int index) {
            java.util.Objects.checkIndex(index, fields.size());
            return 0;
        }

        @Override
        public int size() {
            int s = 0;
            for (Field f : fields) s = Math.max(s, f.type().size());
            return Layouts.alignUp(s, align());
        }
    }

    /** A fixed-size array {@code T[length]}; allowed as a struct or union field, never as a parameter. */
    record Array(CType element, int length) implements CType {
        public Array {
            if (element == null) throw AbiErrors.missing("array element type");
            if (element instanceof Void) throw AbiErrors.voidNotAllowed("array element");
            if (length <= 0) throw AbiErrors.badArrayLength(length);
        }
        @Override public int size() { return Math.multiplyExact(element.size(), length); }
        @Override public int align() { return element.align(); }
    }

    /** True for the types whose value can travel in a {@code void *} as a return: integers, bool and pointers. */
    static boolean isRegisterScalar(CType t) {
        return switch (t) {
            case Scalar s -> !s.kind().isFloatingPoint();
            case Pointer p -> true;
            case FunctionPointer f -> true;
            default -> false;
        };
    }

    /** True for f32, f64 and f80. */
    static boolean isFloatingPoint(CType t) {
        return t instanceof Scalar s && s.kind().isFloatingPoint();
    }

    /** Names of the aggregates nested by value in {@code t} (itself included), for cycle-free checks and emission. */
    static Set<String> aggregateNames(CType t) {
        Set<String> names = new HashSet<>();
        collect(t, names);
        return names;
    }

    private static void collect(CType t, Set<String> names) {
        switch (t) {
            case Aggregate a -> {
                if (names.add(a.name())) for (Field f : a.fields()) collect(f.type(), names);
            }
            case Array arr -> collect(arr.element(), names);
            default -> { }
        }
    }
}
