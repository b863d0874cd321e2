package dev.panamax.tensor.io;

import dev.panamax.tensor.DType;
import dev.panamax.tensor.Shape;

/**
 * One tensor as a safetensors header describes it: its name, element type, shape and the byte
 * range {@code [begin, end)} of its data, counted from the end of the header.
 */
public record SafeTensorsEntry(String name, DType dtype, Shape shape, long begin, long end) {
    /** The number of data bytes: {@code end - begin}. */
    public long byteSize() {
        return end - begin;
    }

    /** The safetensors name of {@code dtype}: {@code F32}, {@code F16}, {@code I32}, {@code I64}. */
    public static String formatName(DType dtype) {
        return dtype.name();
    }
}
