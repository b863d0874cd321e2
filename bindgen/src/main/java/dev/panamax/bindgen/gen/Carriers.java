package dev.panamax.bindgen.gen;

import dev.panamax.core.abi.CType;
import dev.panamax.core.abi.ScalarKind;

/** The Java side of C types in the raw layer, fixed by the declarations contract. */
final class Carriers {
    private Carriers() {}

    /** i8/u8 → byte, i16/u16 → short, i32/u32 → int, i64/u64/size_t → long, f32 → float, f64 → double, bool → boolean. */
    static String primitive(ScalarKind k) {
        return switch (k) {
            case BOOL -> "boolean";
            case I8, U8 -> "byte";
            case I16, U16 -> "short";
            case I32, U32 -> "int";
            case I64, U64, SIZE_T -> "long";
            case F32 -> "float";
            case F64 -> "double";
            case F80 -> throw new IllegalArgumentException("long double has no Java carrier");
        };
    }

    /** The {@code ValueLayout} constant of a scalar. */
    static String valueLayout(ScalarKind k) {
        return switch (k) {
            case BOOL -> "ValueLayout.JAVA_BOOLEAN";
            case I8, U8 -> "ValueLayout.JAVA_BYTE";
            case I16, U16 -> "ValueLayout.JAVA_SHORT";
            case I32, U32 -> "ValueLayout.JAVA_INT";
            case I64, U64, SIZE_T -> "ValueLayout.JAVA_LONG";
            case F32 -> "ValueLayout.JAVA_FLOAT";
            case F64 -> "ValueLayout.JAVA_DOUBLE";
            case F80 -> throw new IllegalArgumentException("long double has no value layout");
        };
    }

    /** Whether a Java primitive array can stand for a pointer to {@code k} (not bool, not long double). */
    static boolean hasArray(ScalarKind k) {
        return k != ScalarKind.BOOL && k != ScalarKind.F80;
    }

    /** The Java array type of a pointer to {@code k}: {@code float[]}. */
    static String array(ScalarKind k) {
        return primitive(k) + "[]";
    }

    /** The raw carrier of a C type: a primitive, or MemorySegment for pointers, handles, callbacks and aggregates. */
    static String carrier(CType t) {
        return switch (t) {
            case CType.Void v -> "void";
            case CType.Scalar s -> primitive(s.kind());
            default -> "MemorySegment";
        };
    }

    /** How a value of {@code k} widens to the {@code long} a status check takes (unsigned types zero-extended). */
    static String toLong(ScalarKind k, String expr) {
        return switch (k) {
            case U8 -> "Byte.toUnsignedLong(" + expr + ")";
            case U16 -> "Short.toUnsignedLong(" + expr + ")";
            case U32 -> "Integer.toUnsignedLong(" + expr + ")";
            case BOOL -> "(" + expr + " ? 1L : 0L)";
            default -> "(long) " + expr;
        };
    }

    /** A zero of a carrier, as Java source ({@code 0}, {@code false}, {@code MemorySegment.NULL}). */
    static String zero(String carrier) {
        return switch (carrier) {
            case "boolean" -> "false";
            case "byte" -> "(byte) 0";
            case "short" -> "(short) 0";
            case "int" -> "0";
            case "long" -> "0L";
            case "float" -> "0f";
            case "double" -> "0d";
            default -> "MemorySegment.NULL";
        };
    }
}
