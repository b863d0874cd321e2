package dev.panamax.bench.compute;

/**
 * aruminium's inference case in small: a "token" is 100 layers of three small kernels over a
 * 256-float activation (an affine step with the layer's weights, a ReLU, a residual add), 300
 * dispatches that each do almost nothing, so a token costs what its dispatches cost.
 */
final class InferenceKernels {
    static final int TOKENS = 100;
    static final int LAYERS = 100;
    static final int WIDTH = 256;
    static final int GROUP = 64;

    static final String SOURCE = """
            __kernel void affine(__global const float *x, __global const float *w, __global float *y, int n) {
                int i = get_global_id(0);
                if (i < n) y[i] = x[i] * w[i] + 0.5f;
            }
            __kernel void relu(__global float *y) {
                int i = get_global_id(0);
                y[i] = fmax(y[i], 0.0f);
            }
            __kernel void residual(__global float *x, __global const float *y) {
                int i = get_global_id(0);
                x[i] = x[i] * 0.5f + y[i] * 0.001f;
            }
            __kernel void saxpy(__global float *y, __global const float *x, float a, int n) {
                int i = get_global_id(0);
                if (i < n) y[i] = a * x[i] + y[i];
            }
            __kernel void fill(__global float *x, float value) {
                x[get_global_id(0)] = value;
            }
            """;

    private InferenceKernels() {}

    /** Layer {@code l}'s weights. */
    static float[] weights(int layer) {
        float[] w = new float[WIDTH];
        for (int i = 0; i < WIDTH; i++) w[i] = 0.9f + 0.001f * ((i + layer) % 50);
        return w;
    }
}
