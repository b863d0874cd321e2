package dev.panamax.opencl.compute;

import dev.panamax.compute.AddressSpace;
import dev.panamax.compute.ArgumentInfo;
import dev.panamax.compute.Buffer;
import dev.panamax.compute.CommandBuffer;
import dev.panamax.compute.CommandBufferStatus;
import dev.panamax.compute.CommandQueue;
import dev.panamax.compute.ComputeDevice;
import dev.panamax.compute.ComputeEncoder;
import dev.panamax.compute.ComputePipeline;
import dev.panamax.compute.EncodingException;
import dev.panamax.compute.Library;
import dev.panamax.compute.Size;
import dev.panamax.compute.ValueType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Kernel arguments checked against the kernel's own metadata on OpenCL (PoCL): what each argument
 * is (images, samplers, structs by value, typedefs, vectors, local memory), and refusals that name
 * the kernel, the argument and what was given and expected. Dispatches that would crash the driver
 * if they got through run in child JVMs (the misuse suite); here only what cannot crash runs.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class KernelArgumentsTest {
    static final String SOURCE = """
            typedef struct { int count; float scale; } pair;
            typedef int index_t;
            __kernel void apply(__global float *x, pair p, index_t first) {
                int i = get_global_id(0);
                if (i >= first && i < p.count) x[i] = x[i] * p.scale;
            }
            __kernel void objects(__global float *x, read_only image2d_t img, sampler_t s, float4 v) {
                x[get_global_id(0)] = read_imagef(img, s, (int2)(0, 0)).x + v.x;
            }
            __kernel void sum(__global const float *in, __global float *out, __local float *a, __local float *b) {
                int l = get_local_id(0);
                a[l] = in[get_global_id(0)];
                b[l] = 0;
                barrier(CLK_LOCAL_MEM_FENCE);
                if (l == 0) { float t = 0; for (int k = 0; k < get_local_size(0); k++) t += a[k]; out[get_group_id(0)] = t; }
            }
            """;

    private final ComputeDevice device = ComputeDevice.systemDefault();
    private Library library;
    private ComputePipeline apply, objects, sum;
    private CommandQueue queue;

    @BeforeAll
    void build() {
        library = device.newLibrary(SOURCE);
        apply = library.newPipeline("apply");
        objects = library.newPipeline("objects");
        sum = library.newPipeline("sum");
        queue = device.newCommandQueue(2);
    }

    @AfterAll
    void close() {
        for (AutoCloseable c : new AutoCloseable[] {apply, objects, sum, library, queue}) {
            try {
                if (c != null) c.close();
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        }
    }

    @Test
    void theMetadataTellsImagesSamplersVectorsStructsAndTypedefsApart() {
        List<ArgumentInfo> o = objects.arguments();
        assertEquals(AddressSpace.DEVICE, o.get(0).addressSpace());
        assertEquals(AddressSpace.IMAGE, o.get(1).addressSpace());
        assertEquals(AddressSpace.SAMPLER, o.get(2).addressSpace());
        assertEquals(AddressSpace.VALUE, o.get(3).addressSpace());
        assertEquals(ValueType.VECTOR, o.get(3).valueType());
        assertEquals(16, o.get(3).valueBytes());
        List<ArgumentInfo> a = apply.arguments();
        assertEquals(ValueType.OTHER, a.get(1).valueType());
        assertEquals(8, a.get(1).valueBytes(), "the struct's size, measured by the device: " + a.get(1));
        assertEquals(4, a.get(2).valueBytes(), "the typedef's size, measured by the device: " + a.get(2));
        assertEquals(AddressSpace.THREADGROUP, sum.arguments().get(2).addressSpace());
    }

    @Test
    void aStructGivenTheWrongNumberOfBytesIsRefusedAndTheRightNumberComputes() {
        try (Buffer x = device.newBuffer(new float[] {1, 2, 3, 4, 5, 6, 7, 8})) {
            EncodingException e = assertThrows(EncodingException.class, () -> encode(apply,
                    enc -> enc.setBuffer(0, x).setBytes(1, new byte[3]).setInt(2, 0).dispatchThreads(Size.of(8), Size.of(8))));
            assertTrue(e.getMessage().contains("(dispatch 'apply'): argument 1 'p' (pair) takes 8 bytes, got 3"), e.getMessage());
            byte[] pair = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putInt(6).putFloat(10f).array();
            CommandBuffer cb = encode(apply, enc -> enc.setBuffer(0, x).setBytes(1, pair).setInt(2, 2).dispatchThreads(Size.of(8), Size.of(8)));
            cb.commit();
            assertEquals(CommandBufferStatus.COMPLETED, cb.waitUntilCompleted());
            assertArrayEquals(new float[] {1, 2, 30, 40, 50, 60, 7, 8}, x.contents().toArray(ValueLayout.JAVA_FLOAT));
            EncodingException longOnInt = assertThrows(EncodingException.class, () -> encode(apply,
                    enc -> enc.setBuffer(0, x).setBytes(1, pair).setLong(2, 0).dispatchThreads(Size.of(8), Size.of(8))));
            assertTrue(longOnInt.getMessage().contains("argument 2 'first' (index_t) takes 4 bytes, got 8"), longOnInt.getMessage());
        }
    }

    @Test
    void setIntsAndSetFloatsAreCheckedAgainstTheElementKind() {
        try (Library lib = device.newLibrary("""
                __kernel void vec(float4 v, int2 k, float f, __global float *out) { out[0] = v.x + v.y + v.z + v.w + k.x + k.y + f; }
                """); ComputePipeline vec = lib.newPipeline("vec"); Buffer out = device.newBuffer(new float[1])) {
            EncodingException intsOnFloat4 = assertThrows(EncodingException.class, () -> encode(vec,
                    enc -> enc.setInts(0, 1, 2, 3, 4).setInts(1, 5, 6).setFloat(2, 7).setBuffer(3, out).dispatchThreads(Size.of(1), Size.of(1))));
            assertTrue(intsOnFloat4.getMessage().contains("(dispatch 'vec'): argument 0 'v' (float4) takes a vector: setBytes, or setFloats "
                    + "of its size, got 4 integers (setInts)"), intsOnFloat4.getMessage());
            EncodingException floatsOnInt2 = assertThrows(EncodingException.class, () -> encode(vec,
                    enc -> enc.setFloats(0, 1, 2, 3, 4).setFloats(1, 5, 6).setFloat(2, 7).setBuffer(3, out).dispatchThreads(Size.of(1), Size.of(1))));
            assertTrue(floatsOnInt2.getMessage().contains("argument 1 'k' (int2) takes a vector: setBytes, or setInts of its size, "
                    + "got 2 floats (setFloats)"), floatsOnInt2.getMessage());
            EncodingException intsOnFloat = assertThrows(EncodingException.class, () -> encode(vec,
                    enc -> enc.setFloats(0, 1, 2, 3, 4).setInts(1, 5, 6).setInts(2, 7).setBuffer(3, out).dispatchThreads(Size.of(1), Size.of(1))));
            assertTrue(intsOnFloat.getMessage().contains("argument 2 'f' (float) takes a floating-point value"), intsOnFloat.getMessage());
            CommandBuffer cb = encode(vec, enc -> enc.setFloats(0, 1, 2, 3, 4).setInts(1, 5, 6).setFloats(2, 7).setBuffer(3, out)
                    .dispatchThreads(Size.of(1), Size.of(1)));
            cb.commit();
            assertEquals(CommandBufferStatus.COMPLETED, cb.waitUntilCompleted());
            assertEquals(28f, out.contents().get(ValueLayout.JAVA_FLOAT, 0));
        }
    }

    @Test
    void imagesAndSamplersAreRefusedWhateverIsGivenBeforeAnythingReachesTheDriver() {
        try (Buffer x = device.newBuffer(new float[8]); Buffer y = device.newBuffer(new float[8])) {
            EncodingException image = assertThrows(EncodingException.class, () -> encode(objects,
                    enc -> enc.setBuffer(0, x).setBuffer(1, y).setLong(2, 0).setFloats(3, 1, 2, 3, 4).dispatchThreads(Size.of(8), Size.of(8))));
            assertTrue(image.getMessage().contains("(dispatch 'objects'): argument 1 'img' (image2d_t) is an image")
                    && image.getMessage().contains("got buffer"), image.getMessage());
            // with a value on the image too: the sampler is refused next in a kernel without the image
            EncodingException imageValue = assertThrows(EncodingException.class, () -> encode(objects,
                    enc -> enc.setBuffer(0, x).setLong(1, 0).setLong(2, 0).setFloats(3, 1, 2, 3, 4).dispatchThreads(Size.of(8), Size.of(8))));
            assertTrue(imageValue.getMessage().contains("got a 8-byte integer value (setLong)"), imageValue.getMessage());
        }
    }

    @Test
    void threadgroupMemoryIsCheckedInAllAgainstTheDevice() {
        long max = device.info().maxThreadgroupMemoryLength();
        try (Buffer in = device.newBuffer(new float[64]); Buffer out = device.newBuffer(new float[8])) {
            EncodingException e = assertThrows(EncodingException.class, () -> encode(sum,
                    enc -> enc.setBuffer(0, in).setBuffer(1, out).setThreadgroupMemoryLength(2, max / 2 + 8)
                            .setThreadgroupMemoryLength(3, max / 2 + 8).dispatchThreads(Size.of(64), Size.of(8))));
            assertTrue(e.getMessage().contains("(dispatch 'sum'): threadgroup memory of " + (max + 16) + " bytes")
                    && e.getMessage().contains("expected at most " + max), e.getMessage());
            float[] data = new float[64];
            for (int i = 0; i < 64; i++) data[i] = i;
            in.contents().copyFrom(java.lang.foreign.MemorySegment.ofArray(data));
            CommandBuffer cb = encode(sum, enc -> enc.setBuffer(0, in).setBuffer(1, out).setThreadgroupMemoryLength(2, 32)
                    .setThreadgroupMemoryLength(3, 32).dispatchThreads(Size.of(64), Size.of(8)));
            cb.commit();
            assertEquals(CommandBufferStatus.COMPLETED, cb.waitUntilCompleted());
            float[] sums = out.contents().toArray(ValueLayout.JAVA_FLOAT);
            for (int g = 0; g < 8; g++) assertEquals(64 * g + 28, sums[g], "group " + g);
        }
    }

    private CommandBuffer encode(ComputePipeline p, Consumer<ComputeEncoder> body) {
        CommandBuffer cb = queue.commandBuffer().label("args");
        try (ComputeEncoder e = cb.computeEncoder()) {
            e.setPipeline(p);
            body.accept(e);
        }
        return cb;
    }
}
