package dev.panamax.bench.opencl;

/**
 * The three OpenCL dispatch figures every binding is measured on: the segment of the figure's name
 * after {@code <binding>.dispatch.}, and how many dispatches one call of the benchmark method makes.
 */
enum DispatchFigure {
    /** (a) one tiny kernel enqueued, then clFinish. */
    ROUNDTRIP("roundtrip", 1),
    /** (b) 1,000 tiny kernels enqueued, then one clFinish; per kernel. */
    BATCHED1000("batched1000.perKernel", TinyKernel.BATCH),
    /** (c) 3 x clSetKernelArg + enqueue, 1,000 times, then one clFinish; per dispatch. */
    SET_ARGS3("setArgs3", TinyKernel.BATCH);

    final String segment;
    final int dispatchesPerCall;

    DispatchFigure(String segment, int dispatchesPerCall) {
        this.segment = segment;
        this.dispatchesPerCall = dispatchesPerCall;
    }

    /** {@code <binding>.dispatch.<segment>.us}, the name JMH's figure of this binding has. */
    String figureName(String binding) {
        return binding + ".dispatch." + segment + ".us";
    }

    static DispatchFigure bySegment(String segment) {
        for (DispatchFigure f : values()) {
            if (f.segment.equals(segment)) return f;
        }
        throw new IllegalArgumentException("unknown dispatch figure: segment=" + segment
                + " expected=roundtrip|batched1000.perKernel|setArgs3");
    }
}
