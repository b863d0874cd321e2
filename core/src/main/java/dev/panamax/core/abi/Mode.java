package dev.panamax.core.abi;

/** How a thunk's single {@code void *param} carries the call (the seed's three MetaABI modes). */
public enum Mode {
    /** No parameter, void return: {@code param} is NULL and the result is discarded. */
    VOID,
    /** At most one void*-compatible parameter, travelling as the value of {@code param}; the result comes back in the return register. */
    VOID_PTR,
    /** {@code param} points to a parameter block: the return slot first (FP or struct/union return), then every parameter. */
    STRUCT
}
