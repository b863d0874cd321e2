package dev.panamax.core.abi;

/**
 * The scalar C types of the model, with their x86-64 System V size and alignment and the name the
 * declarations file uses for them ({@code i32}, {@code f80}, ...).
 */
public enum ScalarKind {
    BOOL("bool", "_Bool", 1, false, false),
    I8("i8", "int8_t", 1, false, true),
    U8("u8", "uint8_t", 1, false, false),
    I16("i16", "int16_t", 2, false, true),
    U16("u16", "uint16_t", 2, false, false),
    I32("i32", "int32_t", 4, false, true),
    U32("u32", "uint32_t", 4, false, false),
    I64("i64", "int64_t", 8, false, true),
    U64("u64", "uint64_t", 8, false, false),
    SIZE_T("size_t", "size_t", 8, false, false),
    F32("f32", "float", 4, true, true),
    F64("f64", "double", 8, true, true),
    /** x87 extended precision: 10 significant bytes stored in 16, aligned to 16. */
    F80("f80", "long double", 16, true, true);

    private final String declName;
    private final String cName;
    private final int size;
    private final boolean floating;
    private final boolean signed;

    ScalarKind(String declName, String cName, int size, boolean floating, boolean signed) {
        this.declName = declName;
        this.cName = cName;
        this.size = size;
        this.floating = floating;
        this.signed = signed;
    }

    /** The spelling in a declarations file: {@code i32}, {@code size_t}, {@code f80}. */
    public String declName() {
        return declName;
    }

    /** The C spelling used in generated code: {@code int32_t}, {@code long double}. */
    public String cName() {
        return cName;
    }

    /** Size in bytes. */
    public int size() {
        return size;
    }

    /** Alignment in bytes; every scalar is naturally aligned on x86-64 SysV. */
    public int align() {
        return size;
    }

    /** True for f32, f64 and f80. */
    public boolean isFloatingPoint() {
        return floating;
    }

    /** True for signed integers and floating point types. */
    public boolean isSigned() {
        return signed;
    }

    /** The kind spelled {@code name} in a declarations file, or null. */
    public static ScalarKind byDeclName(String name) {
        for (ScalarKind k : values()) {
            if (k.declName.equals(name)) return k;
        }
        return null;
    }
}
