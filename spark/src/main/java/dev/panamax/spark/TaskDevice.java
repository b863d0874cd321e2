package dev.panamax.spark;

import dev.panamax.tensor.Backends;
import dev.panamax.tensor.spi.Backend;
import org.apache.spark.TaskContext;
import org.apache.spark.resource.ResourceInformation;

/**
 * Where a task computes: on the GPU Spark assigned to it ({@code spark.task.resource.gpu.amount}),
 * through the {@code opencl} tensor backend on the OpenCL GPU of that address; otherwise on the
 * process's default tensor backend ({@code -Dpanamax.tensor.backend}, else the best available).
 */
final class TaskDevice {
    private TaskDevice() {}

    /** The backend for the running task (the default backend outside a task). */
    static Backend forCurrentTask() {
        TaskContext task = TaskContext.get();
        if (task != null) {
            ResourceInformation gpu = task.resources().get("gpu").getOrElse(() -> null);
            if (gpu != null && gpu.addresses().length > 0) return forGpu(gpu.addresses()[0]);
        }
        return Backends.current();
    }

    /**
     * The opencl backend on the GPU Spark calls {@code address}.
     *
     * @throws IllegalStateException when the opencl backend is missing or no OpenCL GPU has that address
     */
    static Backend forGpu(String address) {
        if (!Backends.available().contains("opencl")) {
            throw new IllegalStateException("Spark assigned GPU address=" + address + " to this task, but the opencl tensor backend cannot run"
                    + " here (backends available: " + Backends.available() + "); expected panamax-tensor-opencl on the class path and"
                    + " an OpenCL driver for the GPU");
        }
        return OpenClGpus.backendFor(address);
    }
}
