package dev.panamax.bench.opencl;

/**
 * The kernel every OpenCL dispatch benchmark runs, whatever the binding: one work item adding a
 * float to one element, so that the figures measure the host-side cost of a dispatch (argument
 * setting, enqueue, the driver's queue) and not device work.
 */
public final class TinyKernel {
    public static final String NAME = "tiny";
    public static final String SOURCE = """
            __kernel void tiny(__global float *a, float b, int n) {
                int i = get_global_id(0);
                if (i < n) a[i] += b;
            }
            """;
    /** Global work size of every dispatch. */
    public static final long GLOBAL_SIZE = 1;
    /** Floats in the buffer argument. */
    public static final int ELEMENTS = 64;
    public static final float ADDEND = 1.0f;
    /** Dispatches per invocation in the batched figures. */
    public static final int BATCH = 1000;

    static final int CL_SUCCESS = 0;
    static final long CL_DEVICE_TYPE_ALL = 0xFFFFFFFFL;
    static final long CL_MEM_READ_WRITE = 1L;
    static final int CL_PROGRAM_BUILD_LOG = 0x1183;

    private TinyKernel() {}

    /** Throws with the call's name and status unless {@code status} is CL_SUCCESS. */
    static void check(int status, String call) {
        if (status != CL_SUCCESS) throw failed(call, status);
    }

    /**
     * Checks the statuses of releasing the kernel, program, buffer, queue and context, in that order, after
     * all five were released: the first failure is thrown, none is left unreleased because of it.
     */
    static void checkReleased(int kernel, int program, int buffer, int queue, int context) {
        check(kernel, "clReleaseKernel");
        check(program, "clReleaseProgram");
        check(buffer, "clReleaseMemObject");
        check(queue, "clReleaseCommandQueue");
        check(context, "clReleaseContext");
    }

    static IllegalStateException failed(String call, int status) {
        return new IllegalStateException(call + " failed: status=" + status);
    }

    static IllegalStateException noPlatform(String peer, int status) {
        return new IllegalStateException(peer + ": no OpenCL platform (clGetPlatformIDs status=" + status
                + "); ./panamax installs the ICD loader and PoCL (ocl-icd-libopencl1, pocl-opencl-icd)");
    }
}
