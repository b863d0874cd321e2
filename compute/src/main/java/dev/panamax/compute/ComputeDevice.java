package dev.panamax.compute;

import dev.panamax.core.memory.AllocatesForCaller;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;

/**
 * A device that runs kernels: the entry point of the compute API. Devices come from the backends
 * found with {@link java.util.ServiceLoader} (OpenCL: panamax-opencl on the class or module path)
 * and live as long as the JVM. Thread-safe.
 *
 * <pre>{@code
 * ComputeDevice device = ComputeDevice.systemDefault();
 * try (Library library = device.newLibrary(SOURCE);
 *      ComputePipeline vadd = library.newPipeline("vadd");
 *      Buffer a = device.newBuffer(x), b = device.newBuffer(y), c = device.newBuffer(x.length * 4L, StorageMode.SHARED);
 *      CommandQueue queue = device.newCommandQueue()) {
 *     CommandBuffer commands = queue.commandBuffer();
 *     try (ComputeEncoder encoder = commands.computeEncoder()) {
 *         encoder.setPipeline(vadd).setBuffer(0, a).setBuffer(1, b).setBuffer(2, c).dispatchThreads(Size.of(x.length), Size.of(64));
 *     }
 *     commands.commit();
 *     commands.waitUntilCompleted();
 *     float[] sum = c.contents().toArray(ValueLayout.JAVA_FLOAT);
 * }
 * }</pre>
 */
@AllocatesForCaller
public interface ComputeDevice {
    /** The first device of the first backend that has one (the order backends are found in). */
    static ComputeDevice systemDefault() {
        return Devices.systemDefault();
    }

    /** Every device of every backend found. */
    static List<ComputeDevice> all() {
        return Devices.all();
    }

    /** Name, vendor, limits and features. */
    DeviceInfo info();

    /** A queue with at most 3 command buffers in flight; handlers run on virtual threads. */
    default CommandQueue newCommandQueue() {
        return newCommandQueue(3);
    }

    /**
     * A queue on which at most {@code maxCommandBuffersInFlight} committed command buffers may be
     * unfinished: {@link CommandBuffer#commit()} blocks until one finishes when they all are.
     */
    CommandQueue newCommandQueue(int maxCommandBuffersInFlight);

    /**
     * A buffer of {@code length} bytes (contents undefined), from the device's pool, reserved
     * against its memory budget.
     *
     * @throws DeviceMemoryException when the budget stays full after the GC freed what it could
     */
    Buffer newBuffer(long length, StorageMode mode);

    /** A SHARED buffer holding a copy of {@code data}. */
    default Buffer newBuffer(float[] data) {
        Buffer b = newBuffer((long) data.length * Float.BYTES, StorageMode.SHARED);
        MemorySegment.copy(data, 0, b.contents(), ValueLayout.JAVA_FLOAT, 0, data.length);
        return b;
    }

    /** A SHARED buffer holding a copy of {@code data}. */
    default Buffer newBuffer(int[] data) {
        Buffer b = newBuffer((long) data.length * Integer.BYTES, StorageMode.SHARED);
        MemorySegment.copy(data, 0, b.contents(), ValueLayout.JAVA_INT, 0, data.length);
        return b;
    }

    /** Compiles kernel source (OpenCL C for the OpenCL backend). */
    default Library newLibrary(String source) {
        return newLibrary(source, "");
    }

    /**
     * Compiles kernel source with compiler options; cached by source and options while a library of
     * them is alive.
     *
     * @throws LibraryBuildException with the compiler's log and the failing line
     */
    Library newLibrary(String source, String options);

    /** The memory budget and the buffer pool. */
    DeviceMemoryStats memoryStats();

    /**
     * Runs {@code relieve} when a buffer does not fit the budget, before the allocation waits for
     * the GC: a user that keeps buffers alive through commands not yet finished (a tensor backend's
     * open command buffer) runs them there, so that what only they held becomes garbage the wait can
     * free while it is young. It runs on the allocating thread, must not throw, and is held for the
     * device's life.
     */
    void onMemoryPressure(Runnable relieve);
}
