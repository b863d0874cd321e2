package dev.panamax.core.batch;

import dev.panamax.core.abi.CType;

/** How Java reads and writes a value of a C type: the accessor family of {@link ParamBlock} and {@link BatchEntry}. */
enum ValueKind {
    BOOLEAN("boolean (bool)", "Boolean"),
    BYTE("byte (i8/u8)", "Byte"),
    SHORT("short (i16/u16)", "Short or Byte"),
    INT("int (i32/u32)", "Integer, Short or Byte"),
    LONG("long (i64/u64/size_t)", "Long, Integer, Short or Byte"),
    FLOAT("float (f32)", "Float"),
    DOUBLE("double (f64)", "Double or Float"),
    ADDRESS("address (pointer)", "a native MemorySegment or null"),
    BYTES("bytes (struct, union, f80)", "a MemorySegment of the type's size");

    final String description;
    /** The boxed Java values a recorded argument of this kind may be ({@link Batch#add(Thunk, Object...)}). */
    final String boxes;

    ValueKind(String description, String boxes) {
        this.description = description;
        this.boxes = boxes;
    }

    /**
     * Whether {@code v} is a value of this kind as a recorded argument: its own box or a narrower
     * integer (widened exactly); for pointers and aggregates only the type of the segment is checked here.
     */
    boolean accepts(Object v) {
        return switch (this) {
            case BOOLEAN -> v instanceof Boolean;
            case BYTE -> v instanceof Byte;
            case SHORT -> v instanceof Short || v instanceof Byte;
            case INT -> v instanceof Integer || v instanceof Short || v instanceof Byte;
            case LONG -> v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte;
            case FLOAT -> v instanceof Float;
            case DOUBLE -> v instanceof Double || v instanceof Float;
            case ADDRESS -> v == null || v instanceof java.lang.foreign.MemorySegment || v instanceof dev.panamax.core.memory.NativeHandle;
            case BYTES -> v instanceof java.lang.foreign.MemorySegment;
        };
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
