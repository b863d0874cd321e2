package dev.panamax.core.memory;

import java.util.List;

/**
 * A live native resource ({@link NativeMemory#outstandingSince}): what it is, what it holds and,
 * when leak detection tracked it, where it was allocated.
 *
 * @param type       handle type ({@code NativeBuffer}, {@code BufferPool}, ...)
 * @param id         its accounting id (monotonic)
 * @param address    native address (0 for a pool)
 * @param bytes      native bytes reserved for it
 * @param allocation the allocation stack, empty when not tracked
 */
public record Outstanding(String type, long id, long address, long bytes, List<StackTraceElement> allocation) {
    public Outstanding {
        allocation = List.copyOf(allocation);
    }

    /** One line: {@code NativeBuffer id=12 address=0x... bytes=64 at Foo.bar(Foo.java:3)}. */
    public String describe() {
        return String.format(java.util.Locale.ROOT, "%s id=%d address=0x%x bytes=%d at %s", type, id, address, bytes,
                allocation.isEmpty() ? "unknown (not tracked; use -Dpanamax.leakDetection=PARANOID)" : allocation.getFirst());
    }
}
