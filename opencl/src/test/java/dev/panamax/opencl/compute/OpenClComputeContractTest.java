package dev.panamax.opencl.compute;

import dev.panamax.compute.ComputeDevice;
import dev.panamax.compute.contract.ComputeContract;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The compute contract on the OpenCL backend (PoCL's CPU device in tests). */
class OpenClComputeContractTest extends ComputeContract {
    static final Kernels OPENCL_C = new Kernels() {
        @Override
        public String vectorAdd() {
            return """
                    __kernel void add(__global const float *a, __global const float *b, __global float *c, int n) {
                        int i = get_global_id(0);
                        if (i < n) c[i] = a[i] + b[i];
                    }""";
        }

        @Override
        public String scale() {
            return """
                    __kernel void scale(__global float *x, float factor, int n) {
                        int i = get_global_id(0);
                        if (i < n) x[i] = x[i] * factor;
                    }""";
        }

        @Override
        public String increment() {
            return "__kernel void inc(__global float *x) { x[get_global_id(0)] += 1.0f; }";
        }

        @Override
        public String brokenOnLine3() {
            return "__kernel void broken(__global float *x) {\n    int i = get_global_id(0);\n    x[i] = undefined_name;\n}\n";
        }
    };

    @Override
    protected ComputeDevice device() {
        String cache = System.getenv("POCL_CACHE_DIR");
        try {
            if (cache != null && !cache.isBlank()) Files.createDirectories(Path.of(cache));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return ComputeDevice.systemDefault();
    }

    @Override
    protected Kernels kernels() {
        return OPENCL_C;
    }
}
