package dev.panamax.opencl.compute;

import java.lang.foreign.MemorySegment;

/**
 * Host memory handed out front to back for one replay: the queue's staging memory (sizes, argument
 * values and fill patterns the driver reads during the call) or a run's scratch (what a command
 * reads or writes after the call). A slice beyond the end is a planning error, never a write past it.
 */
final class HostArea {
    private final String name;
    private final MemorySegment segment;
    private final long alignment;
    private long at;

    /** {@code segment}, handed out in multiples of {@code alignment} bytes (a power of two). */
    HostArea(String name, MemorySegment segment, long alignment) {
        this.name = name;
        this.segment = segment;
        this.alignment = alignment;
    }

    MemorySegment segment() {
        return segment;
    }

    /** The address of offset 0. */
    long base() {
        return segment.address();
    }

    /** Hands out {@code bytes} (rounded up to the alignment) and returns their offset. */
    long take(long bytes) {
        long o = at;
        at += align(bytes, alignment);
        if (at > segment.byteSize()) throw new IllegalStateException(name + " overrun: " + at + " > " + segment.byteSize());
        return o;
    }

    /** Starts handing out from offset 0 again. */
    void reset() {
        at = 0;
    }

    static long align(long n, long to) {
        return (n + to - 1) & -to;
    }
}
