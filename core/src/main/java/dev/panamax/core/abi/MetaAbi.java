package dev.panamax.core.abi;

import java.util.ArrayList;
import java.util.List;

/**
 * The MetaABI classifier: the pure plan step that decides how a function's arguments travel
 * through the uniform thunk signature {@code void *thunk(void *param)}.
 *
 * <p>The rules are the seed's decision chart. The return type is tested first: a floating-point or
 * struct/union return of any size forces STRUCT (the block needs a return slot). Otherwise (void or
 * a void*-compatible return) the parameters decide: none gives VOID (void return) or VOID_PTR-3;
 * one void*-compatible parameter (integer, bool, pointer, or a struct/union no larger and no more
 * aligned than {@code void *}) gives VOID_PTR (leaves A, C, E, G); one floating-point parameter, one
 * larger struct/union, or two and more parameters give STRUCT (B, D, F, H, STRUCT). Floating-point
 * parameters never travel in {@code param}, to avoid the store-forwarding stall of an FP-to-GP pun.
 *
 * <pre>{@code
 * Classification c = MetaAbi.classify(CFunctionType.of(CType.I32, "a", CType.I32, "b", CType.I32));
 * c.mode();  // STRUCT
 * c.block(); // size 8, align 4, no return slot, a at 0, b at 4
 * }</pre>
 */
public final class MetaAbi {
    /** Size and alignment of {@code void *} on x86-64. */
    public static final int POINTER_SIZE = 8;

    private MetaAbi() {}

    /** Classifies {@code type} and plans its parameter block. */
    public static Classification classify(CFunctionType type) {
        Leaf leaf = leafOf(type);
        return new Classification(leaf.mode(), leaf, planBlock(type, leaf.mode()), type);
    }

    /** True when a parameter of this type can travel as the value of a {@code void *}. */
    public static boolean isVoidPtrCompatibleParam(CType t) {
        return switch (t) {
            case CType.Scalar s -> !s.kind().isFloatingPoint();
            case CType.Pointer p -> true;
            case CType.FunctionPointer f -> true;
            case CType.Aggregate a -> a.size() <= POINTER_SIZE && a.align() <= POINTER_SIZE;
            case CType.Void v -> false;
            case CType.Array arr -> false;
        };
    }

    private static Leaf leafOf(CFunctionType type) {
        CType ret = type.returns();
        boolean voidReturn = ret instanceof CType.Void;
        if (!voidReturn && !CType.isRegisterScalar(ret)) return Leaf.STRUCT;   // FP, struct, union: return slot
        List<CFunctionType.Param> params = type.params();
        return switch (params.size()) {
            case 0 -> voidReturn ? Leaf.VOID : Leaf.VOID_PTR_3;
            case 1 -> oneParamLeaf(params.getFirst().type(), voidReturn);
            default -> Leaf.STRUCT;
        };
    }

    private static Leaf oneParamLeaf(CType p, boolean voidReturn) {
        if (CType.isFloatingPoint(p)) return voidReturn ? Leaf.B : Leaf.F;
        if (p instanceof CType.Aggregate) {
            boolean tiny = isVoidPtrCompatibleParam(p);
            return voidReturn ? (tiny ? Leaf.C : Leaf.D) : (tiny ? Leaf.G : Leaf.H);
        }
        return voidReturn ? Leaf.A : Leaf.E;
    }

    private static BlockLayout planBlock(CFunctionType type, Mode mode) {
        List<CFunctionType.Param> params = type.params();
        return switch (mode) {
            case VOID -> new BlockLayout(0, 1, null, List.of());
            case VOID_PTR -> params.isEmpty()
                    ? new BlockLayout(0, 1, null, List.of())
                    : new BlockLayout(POINTER_SIZE, POINTER_SIZE, null, List.of(new BlockLayout.ParamSlot(
                            params.getFirst().name(), 0, params.getFirst().type().size())));
            case STRUCT -> structBlock(type);
        };
    }

    /** Return slot at offset 0 when needed, then each parameter naturally aligned, size rounded to the alignment. */
    private static BlockLayout structBlock(CFunctionType type) {
        int offset = 0;
        int align = 1;
        BlockLayout.Slot returnSlot = null;
        CType ret = type.returns();
        if (!(ret instanceof CType.Void) && !CType.isRegisterScalar(ret)) {
            returnSlot = new BlockLayout.Slot(0, ret.size());
            offset = ret.size();
            align = ret.align();
        }
        List<BlockLayout.ParamSlot> slots = new ArrayList<>(type.params().size());
        for (CFunctionType.Param p : type.params()) {
            CType t = p.type();
            offset = Layouts.alignUp(offset, t.align());
            slots.add(new BlockLayout.ParamSlot(p.name(), offset, t.size()));
            offset += t.size();
            align = Math.max(align, t.align());
        }
        return new BlockLayout(Layouts.alignUp(offset, align), align, returnSlot, slots);
    }
}
