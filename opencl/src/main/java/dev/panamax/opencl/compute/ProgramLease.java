package dev.panamax.opencl.compute;

import dev.panamax.core.memory.AllocatesForCaller;
import dev.panamax.core.memory.NativeHandle;
import dev.panamax.core.memory.SegmentAccess;

/**
 * One library's share of a cached program: released once (by the library's last reference, or by
 * the GC when the library was dropped unclosed, then reported as a leak), which gives the share back
 * to the {@link ProgramCache}; the program goes when its last share does. The release action holds
 * the cache and the entry, never the library, so a dropped library is collected.
 */
@AllocatesForCaller
final class ProgramLease extends NativeHandle {
    ProgramLease(ProgramCache cache, ProgramCache.Shared shared) {
        super(shared.program.handle().address(), -1, true, SegmentAccess.SHARED, (address, size) -> cache.release(shared));
    }
}
