package dev.panamax.opencl.compute;

/**
 * The OpenCL functions a replay plan calls, each with its parameter count and which of its
 * parameters are 32-bit ({@code cl_uint}, {@code cl_bool}); every other parameter is 64-bit (a
 * handle, a pointer or a {@code size_t}). Constants only: where each parameter lies in a recorded
 * batch is learnt by the batch that records it ({@link RecordedBatch}).
 */
enum ClCall {
    /** {@code clSetKernelArg(kernel, index, size, value)}. */
    SET_ARG(4, 1),
    /** {@code clEnqueueNDRangeKernel(queue, kernel, dims, offset, global, local, waitCount, waitList, event)}. */
    NDRANGE(9, 2, 6),
    /** {@code clEnqueueCopyBuffer(queue, source, destination, sourceOffset, destinationOffset, bytes, waitCount, waitList, event)}. */
    COPY(9, 6),
    /** {@code clEnqueueFillBuffer(queue, buffer, pattern, patternSize, offset, bytes, waitCount, waitList, event)}. */
    FILL(9, 6),
    /** {@code clEnqueueWriteBuffer(queue, buffer, blocking, offset, bytes, source, waitCount, waitList, event)}. */
    WRITE(9, 2, 6),
    /** {@code clEnqueueReadBuffer(queue, buffer, blocking, offset, bytes, destination, waitCount, waitList, event)}. */
    READ(9, 2, 6),
    /** {@code clEnqueueBarrierWithWaitList(queue, waitCount, waitList, event)}. */
    BARRIER(4, 1),
    /** {@code clEnqueueMarkerWithWaitList(queue, waitCount, waitList, event)}. */
    MARKER(4, 1),
    /** {@code clFlush(queue)}. */
    FLUSH(1);

    /** The most parameters any of these functions takes: a plan keeps this many slots per call. */
    static final int MAX_PARAMETERS = 9;

    private final int parameters;
    private final long int32Mask;

    ClCall(int parameters, int... int32) {
        this.parameters = parameters;
        long mask = 0;
        for (int i : int32) mask |= 1L << i;
        this.int32Mask = mask;
    }

    /** How many parameters the function takes. */
    int parameters() {
        return parameters;
    }

    /** Whether parameter {@code k} is 32-bit. */
    boolean isInt32(int k) {
        return (int32Mask & (1L << k)) != 0;
    }

    /** Whether the call enqueues a command; every enqueue ends in (wait count, wait list, event). */
    boolean isEnqueue() {
        return this != SET_ARG && this != FLUSH;
    }
}
