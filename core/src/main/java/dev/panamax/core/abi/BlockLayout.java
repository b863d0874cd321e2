package dev.panamax.core.abi;

import java.util.List;

/**
 * Where a thunk finds its return slot and parameters. In STRUCT mode the block is what
 * {@code param} points to; in VOID_PTR mode it is the one {@code void *}-sized cell whose value
 * travels in {@code param}; in VOID mode (and VOID_PTR with no parameter) it is empty.
 *
 * @param size        total size in bytes, a multiple of {@code align}
 * @param align       alignment the block needs
 * @param returnSlot  the return slot (offset 0) when the return is FP or a struct/union, else null
 * @param params      one slot per parameter, in order
 */
public record BlockLayout(int size, int align, Slot returnSlot, List<ParamSlot> params) {
    /** A region of the block. */
    public record Slot(int offset, int size) {}

    /** A parameter's region of the block. */
    public record ParamSlot(String name, int offset, int size) {}

    public BlockLayout {
        params = List.copyOf(params);
    }

    /** The slot of the parameter called {@code name}. */
    public ParamSlot param(String name) {
        for (ParamSlot p : params) if (p.name().equals(name)) return p;
        throw new IllegalArgumentException("no such parameter: name=" + name + " params=" + params.stream().map(ParamSlot::name).toList());
    }
}
