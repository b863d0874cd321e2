package dev.panamax.core.batch;

import dev.panamax.core.abi.CType;

/** How Java reads and writes a value of a C type: the accessor family of {@link ParamBlock} and {@link BatchEntry}. */
enum ValueKind {
    BOOLEAN("boolean (bool)"),
    BYTE("byte (i8/u8)"),
    SHORT("short (i16/u16)"),
    INT("int (i32/u32)"),
    LONG("long (i64/u64/size_t)"),
    FLOAT("float (f32)"),
    DOUBLE("double (f64)"),
    ADDRESS("address (pointer)"),
    BYTES("bytes (struct, union, f80)");

    final String description;

    ValueKind(String description) {
        this.description = description;
    }

    static ValueKind of(CType t) {
        return switch (t) {
            case CType.Scalar s -> switch (s.kind()) {
                case BOOL -> BOOLEAN;
                case I8, U8 -> BYTE;
                case I16, U16 -> SHORT;
                case I32, U32 -> INT;
                case I64, U64, SIZE_T -> LONG;
                case F32 -> FLOAT;
                case F64 -> DOUBLE;
                case F80 -> BYTES;
            };
            case CType.Pointer p -> ADDRESS;
            case CType.FunctionPointer f -> ADDRESS;
            case CType.Aggregate a -> BYTES;
            case CType.Array a -> BYTES;
            case CType.Void v -> throw new IllegalArgumentException("void has no value");
        };
    }
}
