package dev.panamax.compute;

import java.util.List;

/**
 * One kernel function ready to dispatch, with its argument metadata (names, address spaces, types).
 * Immutable and thread-safe: any number of encoders on any threads may use it.
 */
public abstract class ComputePipeline extends Resource {
    /** What an argument accepts, one bit per kind of binding: the CHECKED encoder's one-pass check reads them. */
    static final byte BUFFER = 1, THREADGROUP = 2, BYTES = 4, INTEGER = 8, FLOAT = 16, INTS = 32, FLOATS = 64;

    private final String name;
    private final List<ArgumentInfo> arguments;
    /** Per argument, the bindings it accepts ({@link #BUFFER} and the others). */
    final byte[] accepts;
    /** Per argument, the size a value must have, or -1 when any size is taken. */
    final long[] valueBytes;

    /** For backends: {@code handle} owns the kernel object (see {@link Resource}). */
    protected ComputePipeline(ComputeDevice device, String name, List<ArgumentInfo> arguments, dev.panamax.core.memory.NativeHandle handle) {
        super(device, handle);
        this.name = name;
        this.arguments = List.copyOf(arguments);
        int n = this.arguments.size();
        this.accepts = new byte[n];
        this.valueBytes = new long[n];
        for (int i = 0; i < n; i++) {
            ArgumentInfo ai = this.arguments.get(i);
            if (ai.index() != i) throw new IllegalArgumentException("argument " + i + " of '" + name + "' says it is " + ai.index());
            accepts[i] = accepts(ai);
            valueBytes[i] = ai.addressSpace() == AddressSpace.VALUE || ai.addressSpace() == AddressSpace.UNKNOWN ? ai.valueBytes() : -1;
        }
    }

    /** What an argument accepts: a buffer, threadgroup memory, raw bytes, integer or floating scalars, ints or floats (setInts, setFloats). */
    static byte accepts(ArgumentInfo ai) {
        return switch (ai.addressSpace()) {
            case DEVICE, CONSTANT -> BUFFER;
            case THREADGROUP -> THREADGROUP;
            case IMAGE, SAMPLER, OBJECT -> 0;
            case UNKNOWN -> BUFFER | THREADGROUP | BYTES | INTEGER | FLOAT | INTS | FLOATS;
            case VALUE -> switch (ai.valueType()) {
                case INTEGER, HALF -> BYTES | INTEGER | INTS;
                case FLOAT -> BYTES | FLOAT | FLOATS;
                case VECTOR -> (byte) (BYTES | (floatingElements(ai) ? FLOATS : INTS));
                case OTHER, NONE -> BYTES | INTEGER | FLOAT | INTS | FLOATS;
            };
        };
    }

    /** Whether a vector's elements are floating-point ({@code float4}, {@code double2}, {@code half8}). */
    static boolean floatingElements(ArgumentInfo ai) {
        String t = ai.typeName().strip();
        return t.startsWith("float") || t.startsWith("double") || t.startsWith("half");
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

    /**
     * The threadgroup memory the function itself declares (OpenCL {@code __local} variables in the
     * kernel body), in bytes: with the lengths set for its threadgroup arguments, it must fit the
     * device's {@link DeviceInfo#maxThreadgroupMemoryLength()}.
     */
    public abstract long staticThreadgroupMemoryLength();
}
