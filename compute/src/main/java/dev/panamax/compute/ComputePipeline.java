package dev.panamax.compute;

import java.util.List;

/**
 * One kernel function ready to dispatch, with its argument metadata (names, address spaces, types).
 * Immutable and thread-safe: any number of encoders on any threads may use it.
 */
public abstract class ComputePipeline extends Resource {
    private final String name;
    private final List<ArgumentInfo> arguments;

    /** For backends: {@code handle} owns the kernel object (see {@link Resource}). */
    protected ComputePipeline(ComputeDevice device, String name, List<ArgumentInfo> arguments, dev.panamax.core.memory.NativeHandle handle) {
        super(device, handle);
        this.name = name;
        this.arguments = List.copyOf(arguments);
    }

    /** The function's name. */
    public final String name() {
        return name;
    }

    /** Its arguments, in order. */
    public final List<ArgumentInfo> arguments() {
        return arguments;
    }

    /** The largest threadgroup this pipeline can run. */
    public abstract long maxThreadsPerThreadgroup();
}
