package dev.panamax.compute;

import dev.panamax.core.memory.NativeBuffer;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

/** What each kind of argument accepts, precomputed per pipeline for the CHECKED encoder's one-pass check. */
class ArgumentAcceptanceTest {
    /** A pipeline of the given arguments and nothing else; its native object a few bytes of memory. */
    static final class Described extends ComputePipeline {
        Described(List<ArgumentInfo> arguments) {
            this(arguments, NativeBuffer.allocate(8));
        }

        private Described(List<ArgumentInfo> arguments, NativeBuffer object) {
            super(null, "described", arguments, object);
        }

        @Override
        public long maxThreadsPerThreadgroup() {
            return 1;
        }

        @Override
        public long staticThreadgroupMemoryLength() {
            return 0;
        }

        @Override
        public String describe() {
            return "pipeline 'described'";
        }

    }

    @Test
    void eachKindAndValueTypeAcceptsItsOwnBindings() {
        Described p = new Described(List.of(
                new ArgumentInfo(0, "x", AddressSpace.DEVICE, "float*", -1, ValueType.NONE),
                new ArgumentInfo(1, "f", AddressSpace.VALUE, "float", 4, ValueType.FLOAT),
                new ArgumentInfo(2, "n", AddressSpace.VALUE, "int", 4, ValueType.INTEGER),
                new ArgumentInfo(3, "h", AddressSpace.VALUE, "half", 2, ValueType.HALF),
                new ArgumentInfo(4, "v", AddressSpace.VALUE, "float4", 16, ValueType.VECTOR),
                new ArgumentInfo(5, "s", AddressSpace.VALUE, "pair", 8, ValueType.OTHER),
                new ArgumentInfo(6, "l", AddressSpace.THREADGROUP, "float*", -1, ValueType.NONE),
                new ArgumentInfo(7, "img", AddressSpace.IMAGE, "image2d_t", -1, ValueType.NONE),
                new ArgumentInfo(8, "smp", AddressSpace.SAMPLER, "sampler_t", -1, ValueType.NONE),
                new ArgumentInfo(9, "", AddressSpace.UNKNOWN, "", -1, ValueType.OTHER),
                new ArgumentInfo(10, "k", AddressSpace.VALUE, "int4", 16, ValueType.VECTOR)));
        try {
            byte b = ComputePipeline.BUFFER, t = ComputePipeline.THREADGROUP, v = ComputePipeline.BYTES,
                    i = ComputePipeline.INTEGER, f = ComputePipeline.FLOAT, is = ComputePipeline.INTS, fs = ComputePipeline.FLOATS;
            // setInts fits integer scalars and vectors, setFloats floating ones; a struct (or no metadata) takes either
            assertArrayEquals(new byte[] {b, (byte) (v | f | fs), (byte) (v | i | is), (byte) (v | i | is), (byte) (v | fs),
                    (byte) (v | i | f | is | fs), t, 0, 0, (byte) (b | t | v | i | f | is | fs), (byte) (v | is)}, p.accepts);
            assertArrayEquals(new long[] {-1, 4, 4, 2, 16, 8, -1, -1, -1, -1, 16}, p.valueBytes);
            assertEquals("9 (the driver gives no argument metadata: its kind and type are not checked)", p.arguments().get(9).describe());
        } finally {
            p.close();
        }
    }

    @Test
    void argumentsOutOfOrderAreRefused() {
        try (NativeBuffer object = NativeBuffer.allocate(8)) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new Described(List.of(
                    new ArgumentInfo(1, "x", AddressSpace.DEVICE, "float*", -1, ValueType.NONE)), object));
            assertTrue(e.getMessage().contains("argument 0 of 'described' says it is 1"), e.getMessage());
        }
    }
}
