package dev.panamax.tensor.opencl;

/** The kernel families of {@code dev.panamax.tensor.spi.Kernel}; one generated program per family and dtypes. */
enum Family {
    FILL, UNARY, BINARY, WHERE, REDUCE, MATMUL, INDEX_SELECT, INDEX_ADD, ADAM_STEP, CROSS_ENTROPY, SOFTMAX, LAYER_NORM, MAX_POOL, BATCH_NORM;

    String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
