package dev.panamax.opencl.compute;

import dev.panamax.core.memory.AllocatesForCaller;
import dev.panamax.core.memory.NativeHandle;
import dev.panamax.core.memory.SegmentAccess;

import java.lang.foreign.Arena;

/**
 * Owns one pooled device block for one buffer: released once (by the buffer's last reference, or by
 * the GC when the buffer was dropped unclosed, then reported as a leak), which ends the buffer's
 * view of the host memory and gives the block back to the pool.
 */
@AllocatesForCaller
final class BlockHandle extends NativeHandle {
    BlockHandle(DevicePool pool, DevicePool.Block block, Arena view, DevicePool.Live live) {
        super(block.mem(), -1, true, SegmentAccess.SHARED, (address, size) -> {
            try {
                if (view != null) view.close();
            } finally {
                pool.liveRemoved(live);
                pool.giveBack(block);
            }
        });
    }
}
