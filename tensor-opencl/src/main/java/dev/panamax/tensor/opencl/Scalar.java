package dev.panamax.tensor.opencl;

import dev.panamax.compute.ComputeEncoder;
import dev.panamax.core.fp16.Fp16;
import dev.panamax.tensor.DType;

/** A scalar kernel argument in the compute type of a dtype (float for f32 and f16, int, long). */
sealed interface Scalar {
    record F32(float value) implements Scalar {}

    record I32(int value) implements Scalar {}

    record I64(long value) implements Scalar {}

    /** A device buffer the kernel reads its values from when it runs (an Adam step's step scalars). */
    record Values(dev.panamax.compute.Buffer buffer) implements Scalar {}

    /**
     * {@code value} converted to {@code dtype} as the reference stores it (f16 rounded to half and
     * read back; integers by Java's narrowing), as the compute type's argument.
     */
    static Scalar of(DType dtype, double value) {
        return switch (dtype) {
            case F32 -> new F32((float) value);
            case F16 -> new F32(Fp16.toFloat(Fp16.toHalf((float) value)));
            case I32 -> new I32((int) value);
            case I64 -> new I64((long) value);
        };
    }

    default void set(ComputeEncoder encoder, int index) {
        switch (this) {
            case F32 f -> encoder.setFloat(index, f.value());
            case I32 i -> encoder.setInt(index, i.value());
            case I64 l -> encoder.setLong(index, l.value());
            case Values v -> encoder.setBuffer(index, v.buffer());
        }
    }
}
