package dev.panamax.tensor.cpu;

import dev.panamax.tensor.DType;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Writes a kernel's descriptor: 8-byte words (integers, addresses, doubles) at the positions the C
 * files document ({@code tensor/src/main/c}: elementwise.c, reduce.c, index.c, matmul.c, fused.c). The codes
 * here are the C enums' values.
 */
final class Descriptor {
    static final int MAX_DIMS = 8;

    // elementwise.c
    static final int COPY = 0, FILL = 1, NEG = 3, EXP = 4, LOG = 5, SQRT = 6, RELU = 7, GELU_TANH = 9, SIGMOID = 10,
            TANH = 11, ABS = 12, CAST = 19, STEP = 20, GELU_TANH_GRAD = 21, ERF = 22;
    static final int ADD = 32, SUB = 33, MUL = 34, DIV = 35, POW = 36, MAXIMUM = 37, MINIMUM = 38, GT = 39, GE = 40,
            LT = 41, LE = 42, EQ = 43, NE = 44,
            RELU_BACKWARD = 45;
    static final int WHERE = 64;
    // reduce.c
    static final int SUM = 0, MAX = 1, MIN = 2, ARGMAX = 3;
    // fused.c
    static final int ADAM_WORDS = 14;
    static final int CROSS_ENTROPY_WORDS = 12;
    /** softmax.c: both directions share one layout (see there). */
    static final int SOFTMAX_WORDS = 13;
    /** layernorm.c: both directions share one layout (see there). */
    static final int LAYER_NORM_WORDS = 17;
    /** maxpool.c: both directions share one layout (see there). */
    static final int MAX_POOL_WORDS = 17;
    /** batchnorm.c: both directions share one layout (see there). */
    static final int BATCH_NORM_WORDS = 13;
    // index.c
    static final int SELECT = 0, SCATTER_ADD = 1;

    /** Words of an elementwise descriptor of {@code rank} dimensions (plus one spare word for a scalar operand). */
    static int elementwiseWords(int rank) {
        return 10 + 5 * rank + 1;
    }

    static int reduceWords(int rank) {
        return 10 + 3 * rank;
    }

    static final int INDEX_WORDS = 10;
    static final int MATMUL_WORDS = 17;

    private final MemorySegment words;

    Descriptor(MemorySegment words) {
        this.words = words;
    }

    MemorySegment segment() {
        return words;
    }

    long address() {
        return words.address();
    }

    /** The address of word {@code i} (a scalar operand lives in a word of its own descriptor). */
    long addressOf(int i) {
        return words.address() + 8L * i;
    }

    Descriptor put(int i, long v) {
        words.setAtIndex(ValueLayout.JAVA_LONG, i, v);
        return this;
    }

    Descriptor putDouble(int i, double v) {
        words.setAtIndex(ValueLayout.JAVA_DOUBLE, i, v);
        return this;
    }

    Descriptor putFloat(int i, float v) {
        words.setAtIndex(ValueLayout.JAVA_LONG, i, 0L);
        words.set(ValueLayout.JAVA_FLOAT, 8L * i, v);
        return this;
    }

    /** The C dtype code. */
    static int dtype(DType t) {
        return switch (t) {
            case F32 -> 0;
            case I32 -> 1;
            case I64 -> 2;
            case F16 -> 3;
        };
    }
}
