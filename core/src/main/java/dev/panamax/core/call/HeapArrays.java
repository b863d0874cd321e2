package dev.panamax.core.call;

import java.lang.foreign.MemorySegment;

/** Java arrays viewed in place as segments, for tiers that accept heap memory; {@code null} becomes NULL. */
final class HeapArrays {
    private HeapArrays() {}

    static MemorySegment of(byte[] a) { return a == null ? MemorySegment.NULL : MemorySegment.ofArray(a); }
    static MemorySegment of(short[] a) { return a == null ? MemorySegment.NULL : MemorySegment.ofArray(a); }
    static MemorySegment of(char[] a) { return a == null ? MemorySegment.NULL : MemorySegment.ofArray(a); }
    static MemorySegment of(int[] a) { return a == null ? MemorySegment.NULL : MemorySegment.ofArray(a); }
    static MemorySegment of(long[] a) { return a == null ? MemorySegment.NULL : MemorySegment.ofArray(a); }
    static MemorySegment of(float[] a) { return a == null ? MemorySegment.NULL : MemorySegment.ofArray(a); }
    static MemorySegment of(double[] a) { return a == null ? MemorySegment.NULL : MemorySegment.ofArray(a); }
}
