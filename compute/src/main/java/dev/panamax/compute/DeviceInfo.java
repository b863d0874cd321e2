package dev.panamax.compute;

/**
 * What a device is and what it can do.
 *
 * @param name                     the device's name
 * @param vendor                   its vendor
 * @param backend                  the backend driving it ("opencl")
 * @param computeUnits             parallel compute units (cores for a CPU device)
 * @param memoryBytes              the device's global memory
 * @param maxThreadsPerThreadgroup the largest threadgroup
 * @param maxGridSize              the largest grid per dimension
 * @param maxBytesArgument         the largest {@code setBytes} passed by value (larger ones go through a transient buffer)
 * @param bufferOffsetAlignment    the alignment a buffer offset bound to an argument needs, in bytes
 * @param maxThreadgroupMemoryLength the threadgroup (OpenCL local) memory a dispatch may use, in bytes
 * @param fp16                     half-precision arithmetic in kernels
 * @param fp64                     double-precision arithmetic in kernels
 * @param unifiedMemory            host and device share memory (SHARED buffers are zero-copy)
 */
public record DeviceInfo(String name, String vendor, String backend, int computeUnits, long memoryBytes,
                         long maxThreadsPerThreadgroup, Size maxGridSize, long maxBytesArgument, long bufferOffsetAlignment,
                         long maxThreadgroupMemoryLength,
                         boolean fp16, boolean fp64, boolean unifiedMemory) {
}
