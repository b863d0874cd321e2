package dev.panamax.core.abi;

/**
 * The leaves of the MetaABI decision chart. Void return: VOID (0 params), A (int/ptr/bool), B (FP),
 * C (tiny struct/union), D (larger struct/union). void*-compatible return: VOID_PTR_3 (0 params, the
 * chart's note 3), E, F, G, H likewise. STRUCT: 2+ parameters, or an FP or struct/union return.
 */
public enum Leaf {
    VOID(Mode.VOID),
    A(Mode.VOID_PTR),
    B(Mode.STRUCT),
    C(Mode.VOID_PTR),
    D(Mode.STRUCT),
    VOID_PTR_3(Mode.VOID_PTR),
    E(Mode.VOID_PTR),
    F(Mode.STRUCT),
    G(Mode.VOID_PTR),
    H(Mode.STRUCT),
    STRUCT(Mode.STRUCT);

    private final Mode mode;

    Leaf(Mode mode) {
        this.mode = mode;
    }

    /** The mode every function of this leaf uses. */
    public Mode mode() {
        return mode;
    }
}
