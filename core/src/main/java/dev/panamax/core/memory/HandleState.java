package dev.panamax.core.memory;

import dev.panamax.core.internal.memory.Budget;
import dev.panamax.core.internal.memory.LeakRecord;
import dev.panamax.core.internal.memory.Tracked;
import dev.panamax.core.internal.memory.TypeCounter;

/**
 * The cleanup state of an owned handle, kept apart from the handle so that the GC-driven cleanup
 * never holds the handle: address, size, release action and the bytes reserved for it.
 */
final class HandleState extends Tracked {
    private final long address;
    private final long byteSize;
    private final long reservedBytes;
    private final NativeHandle.ReleaseAction action;

    HandleState(NativeHandle handle, long address, long byteSize, long reservedBytes,
                NativeHandle.ReleaseAction action, LeakRecord leak) {
        super(handle, TypeCounter.of(handle.getClass()), Math.max(0, byteSize), leak);
        this.address = address;
        this.byteSize = byteSize;
        this.reservedBytes = reservedBytes;
        this.action = action;
    }

    @Override
    public long address() {
        return address;
    }

    @Override
    protected void free(boolean byGc) {
        try {
            action.release(address, byteSize);
        } finally {
            Budget.unreserve(reservedBytes);
        }
    }
}
