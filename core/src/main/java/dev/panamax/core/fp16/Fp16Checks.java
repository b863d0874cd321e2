package dev.panamax.core.fp16;

import java.lang.foreign.MemorySegment;
import java.util.Objects;

/** Argument checks of the bulk conversions, each failing with key=value details. */
final class Fp16Checks {
    private Fp16Checks() {}

    static void floats(String operand, float[] array, int index, int count) {
        array(operand, Objects.requireNonNull(array, operand).length, index, count);
    }

    static void halves(String operand, short[] array, int index, int count) {
        array(operand, Objects.requireNonNull(array, operand).length, index, count);
    }

    private static void array(String operand, int length, int index, int count) {
        if (count < 0) throw negativeCount(count);
        if (index < 0 || index > length - count) {
            throw new IndexOutOfBoundsException("fp16 " + operand + " out of bounds: index=" + index + " count=" + count
                    + " length=" + length);
        }
    }

    static void segment(String operand, MemorySegment segment, long offset, long count, int elementBytes) {
        Objects.requireNonNull(segment, operand);
        if (count < 0) throw negativeCount(count);
        long size = segment.byteSize();
        if (offset < 0 || offset > size || count > (size - offset) / elementBytes) {
            throw new IndexOutOfBoundsException("fp16 " + operand + " out of bounds: offset=" + offset + " count=" + count
                    + " elementBytes=" + elementBytes + " byteSize=" + size);
        }
    }

    static void writable(MemorySegment dst) {
        if (dst.isReadOnly()) {
            throw new IllegalArgumentException("fp16 dst is read-only: address=0x" + Long.toHexString(dst.address())
                    + " byteSize=" + dst.byteSize());
        }
    }

    /** src and dst are the exact byte ranges the conversion reads and writes. */
    static void disjoint(MemorySegment src, MemorySegment dst) {
        if (src.asOverlappingSlice(dst).isPresent()) {
            throw new IllegalArgumentException("fp16 src and dst overlap: srcAddress=0x" + Long.toHexString(src.address())
                    + " srcBytes=" + src.byteSize() + " dstAddress=0x" + Long.toHexString(dst.address())
                    + " dstBytes=" + dst.byteSize());
        }
    }

    static void threads(int threads) {
        if (threads < 1 || threads > 64) {
            throw new IllegalArgumentException("fp16 threads=" + threads + ": expected 1..64");
        }
    }

    private static IllegalArgumentException negativeCount(long count) {
        return new IllegalArgumentException("fp16 count=" + count + ": expected count >= 0");
    }
}
