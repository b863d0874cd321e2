package dev.panamax.compute.spi;

import dev.panamax.compute.ComputeDevice;

import java.util.List;

/**
 * A compute backend (OpenCL, and later CUDA or Metal), found with {@link java.util.ServiceLoader}:
 * a module {@code provides dev.panamax.compute.spi.ComputeBackend with ...}, or a class path jar
 * lists it in {@code META-INF/services/dev.panamax.compute.spi.ComputeBackend}. A backend must pass
 * the contract suite ({@code dev.panamax.compute.contract.ComputeContract} in panamax-compute's test jar).
 */
public interface ComputeBackend {
    /** Its name: {@code opencl}. */
    String name();

    /**
     * Its devices, made once and kept for the life of the JVM (the same objects on every call);
     * empty when the backend's driver is missing, never an exception for that.
     */
    List<ComputeDevice> devices();

    /** Why {@link #devices()} is empty (the driver that is missing and how to install it), or an empty string. */
    default String unavailableReason() {
        return "";
    }
}
