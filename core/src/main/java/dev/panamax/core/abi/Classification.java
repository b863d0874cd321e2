package dev.panamax.core.abi;

/**
 * The plan for calling one function through its MetaABI thunk: the mode, the leaf of the seed's
 * decision chart, the parameter-block layout, and the function type it was made from.
 */
public record Classification(Mode mode, Leaf leaf, BlockLayout block, CFunctionType type) {
    public Classification {
        if (leaf.mode() != mode) {
            throw new IllegalArgumentException("leaf does not belong to mode: leaf=" + leaf + " mode=" + mode);
        }
    }

    /** True when the return value comes back in the block's return slot (FP or struct/union return). */
    public boolean returnsInSlot() {
        return block.returnSlot() != null;
    }

    /** True when the return value comes back in the thunk's return register (integer, bool, pointer). */
    public boolean returnsInRegister() {
        return CType.isRegisterScalar(type.returns());
    }
}
