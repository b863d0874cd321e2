package dev.panamax.core.abi;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

/**
 * The FFM layouts of the C type model: what a direct downcall (one handle per function) needs.
 * long double has no FFM layout, and FFM passes no over-aligned struct by value; asking for either is
 * an {@link UnsupportedOperationException} that names the type.
 */
public final class FfmLayouts {
    private FfmLayouts() {}

    /** The memory layout of {@code t}: value layouts for scalars, group layouts with explicit padding for aggregates. */
    public static MemoryLayout layoutOf(CType t) {
        return switch (t) {
            case CType.Void v -> throw AbiErrors.voidNotAllowed("memory layout");
            case CType.Scalar s -> scalar(s.kind());
            case CType.Pointer p -> ValueLayout.ADDRESS;
            case CType.FunctionPointer f -> ValueLayout.ADDRESS;
            case CType.Array a -> MemoryLayout.sequenceLayout(a.length(), layoutOf(a.element()));
            case CType.Struct s -> struct(s);
            case CType.Union u -> union(u);
        };
    }

    /** The function descriptor of {@code type}, for {@code Linker.downcallHandle}. */
    public static FunctionDescriptor descriptorOf(CFunctionType type) {
        checkPassable(type.returns());
        for (CFunctionType.Param p : type.params()) checkPassable(p.type());
        MemoryLayout[] args = new MemoryLayout[type.params().size()];
        for (int i = 0; i < args.length; i++) args[i] = layoutOf(type.params().get(i).type());
        return type.returns() instanceof CType.Void
                ? FunctionDescriptor.ofVoid(args)
                : FunctionDescriptor.of(layoutOf(type.returns()), args);
    }

    /**
     * FFM passes by value only layouts with their natural alignment: a struct or union raised by an
     * explicit alignment (or holding one) has no downcall descriptor. Its thunk can still carry it.
     */
    private static void checkPassable(CType t) {
        switch (t) {
            case CType.Aggregate a -> {
                if (a.alignAs() > a.naturalAlign()) {
                    throw new UnsupportedOperationException("over-aligned " + a.name() + " (align=" + a.alignAs()
                            + " natural=" + a.naturalAlign() + ") cannot be passed by value by FFM; call it through"
                            + " its MetaABI thunk (STRUCT mode carries it in the parameter block)");
                }
                for (CType.Field f : a.fields()) checkPassable(f.type());
            }
            case CType.Array arr -> checkPassable(arr.element());
            default -> { }
        }
    }

    /** True when FFM can pass every parameter and the return of {@code type} (not long double, not over-aligned structs). */
    public static boolean isDowncallable(CFunctionType type) {
        try {
            descriptorOf(type);
            return true;
        } catch (UnsupportedOperationException e) {
            return false;
        }
    }

    private static ValueLayout scalar(ScalarKind k) {
        return switch (k) {
            case BOOL -> ValueLayout.JAVA_BOOLEAN;
            case I8, U8 -> ValueLayout.JAVA_BYTE;
            case I16, U16 -> ValueLayout.JAVA_SHORT;
            case I32, U32 -> ValueLayout.JAVA_INT;
            case I64, U64, SIZE_T -> ValueLayout.JAVA_LONG;
            case F32 -> ValueLayout.JAVA_FLOAT;
            case F64 -> ValueLayout.JAVA_DOUBLE;
            case F80 -> throw new UnsupportedOperationException("long double (f80) has no FFM layout: FFM cannot pass"
                    + " or return it; call it through its MetaABI thunk (STRUCT mode carries it in the parameter block)");
        };
    }

    private static MemoryLayout struct(CType.Struct s) {
        List<MemoryLayout> members = new ArrayList<>();
        int offset = 0;
        for (int i = 0; i < s.fields().size(); i++) {
            CType.Field f = s.fields().get(i);
            int at = s.offsetOf(i);
            if (at > offset) members.add(MemoryLayout.paddingLayout(at - offset));
            members.add(layoutOf(f.type()).withName(f.name()));
            offset = at + f.type().size();
        }
        if (s.size() > offset) members.add(MemoryLayout.paddingLayout(s.size() - offset));
        MemoryLayout layout = MemoryLayout.structLayout(members.toArray(MemoryLayout[]::new)).withName(s.name());
        return s.alignAs() > s.naturalAlign() ? layout.withByteAlignment(s.alignAs()) : layout;
    }

    private static MemoryLayout union(CType.Union u) {
        List<MemoryLayout> members = new ArrayList<>();
        for (CType.Field f : u.fields()) members.add(layoutOf(f.type()).withName(f.name()));
        int largest = 0;
        for (CType.Field f : u.fields()) largest = Math.max(largest, f.type().size());
        if (u.size() > largest) members.add(MemoryLayout.paddingLayout(u.size()));
        MemoryLayout layout = MemoryLayout.unionLayout(members.toArray(MemoryLayout[]::new)).withName(u.name());
        return u.alignAs() > u.naturalAlign() ? layout.withByteAlignment(u.alignAs()) : layout;
    }
}
