package dev.panamax.tensor.opencl;

import dev.panamax.tensor.DType;

/**
 * How a tensor {@link DType} appears in OpenCL C: the type it is stored as, the type arithmetic on it
 * runs in, and the expressions that load and store one element or four. f16 is stored as
 * {@code half} and moved with {@code vload_half}/{@code vstore_half_rte}, which every OpenCL device
 * has (no {@code cl_khr_fp16} needed), and computed in {@code float}.
 */
enum ClType {
    F32("float", "float", "uint"),
    F16("half", "float", "uint"),
    I32("int", "int", "uint"),
    I64("long", "long", "ulong");

    /** The pointer's element type. */
    final String storage;
    /** The type one element is computed in. */
    final String compute;
    /** The unsigned type integer arithmetic wraps in (two's complement, as Java's). */
    final String unsigned;

    ClType(String storage, String compute, String unsigned) {
        this.storage = storage;
        this.compute = compute;
        this.unsigned = unsigned;
    }

    static ClType of(DType dtype) {
        return switch (dtype) {
            case F32 -> F32;
            case F16 -> F16;
            case I32 -> I32;
            case I64 -> I64;
        };
    }

    boolean floating() {
        return this == F32 || this == F16;
    }

    /** The element at index {@code i} of {@code p}, in the compute type. */
    String load(String p, String i) {
        return this == F16 ? "vload_half(" + i + ", " + p + ")" : p + "[" + i + "]";
    }

    /** A statement storing compute-type {@code v} at index {@code i} of {@code p} (f16 rounded to nearest even). */
    String store(String p, String i, String v) {
        return this == F16 ? "vstore_half_rte(" + v + ", " + i + ", " + p + ");" : p + "[" + i + "] = " + v + ";";
    }

    /** Four elements from index {@code i} into the private array {@code dst} (one vector load). */
    String load4(String p, String i, String dst) {
        return this == F16 ? "vstore4(vload_half4(0, " + p + " + " + i + "), 0, " + dst + ");"
                : "vstore4(vload4(0, " + p + " + " + i + "), 0, " + dst + ");";
    }

    /** Four elements of the private array {@code src} to index {@code i} (one vector store). */
    String store4(String p, String i, String src) {
        return this == F16 ? "vstore_half4_rte(vload4(0, " + src + "), 0, " + p + " + " + i + ");"
                : "vstore4(vload4(0, " + src + "), 0, " + p + " + " + i + ");";
    }

    /**
     * {@code expr} (of this compute type) converted to {@code to}'s compute type as the reference
     * backend converts: float to integer as Java's narrowing (toward zero, NaN to 0, saturated),
     * integer to integer keeping the low bits, integer to float rounded to nearest even.
     */
    String convert(String expr, ClType to) {
        if (to.floating()) return floating() ? expr : "convert_float_rte(" + expr + ")";
        if (floating()) return (to == I32 ? "java_f2i(" : "java_f2l(") + expr + ")";
        if (to == this) return expr;
        return to == I64 ? "(long)(" + expr + ")" : "as_int((uint)(ulong)(" + expr + "))";
    }

    /** The type's lower-case name, as in kernel names: {@code f32}. */
    String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
