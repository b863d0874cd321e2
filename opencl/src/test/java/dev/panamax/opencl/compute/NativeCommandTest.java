package dev.panamax.opencl.compute;

import dev.panamax.compute.Buffer;
import dev.panamax.compute.CommandBuffer;
import dev.panamax.compute.CommandBufferException;
import dev.panamax.compute.CommandBufferStatus;
import dev.panamax.compute.CommandQueue;
import dev.panamax.compute.ComputeDevice;
import dev.panamax.compute.ComputeEncoder;
import dev.panamax.compute.ComputePipeline;
import dev.panamax.compute.EncodingException;
import dev.panamax.compute.Library;
import dev.panamax.compute.NativeQueue;
import dev.panamax.compute.References;
import dev.panamax.compute.Size;
import dev.panamax.compute.StorageMode;
import dev.panamax.compute.Validation;
import dev.panamax.core.memory.NativeMemory;
import dev.panamax.opencl.binding.CL;
import dev.panamax.testsupport.AllowNativeLeaks;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Native commands on OpenCL (PoCL): a native library's enqueues, made through the opencl module's own
 * binding ({@code clEnqueueCopyBuffer}, {@code clEnqueueFillBuffer}) onto the queue a native command
 * is given, run in order with the command buffer's own kernels; failures name the command; the
 * buffers a native command uses are held until the command buffer completes.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class NativeCommandTest {
    private static final int N = 256;
    private static final String KERNELS = """
            __kernel void inc(__global float *x) { x[get_global_id(0)] += 1.0f; }
            __kernel void hold(volatile __global int *flag, __global int *out) {
                while (flag[0] == 0) { }
                out[0] = 42;
            }""";

    private final ComputeDevice device = new OpenClComputeContractTest().device();
    private Library library;
    private ComputePipeline inc, hold;
    private CommandQueue queue;

    @BeforeAll
    void build() {
        library = device.newLibrary(KERNELS);
        inc = library.newPipeline("inc");
        hold = library.newPipeline("hold");
    }

    /** A queue per test: what a queue grows (its batch, its staging) is freed with it, inside the test's leak check. */
    @BeforeEach
    void newQueue() {
        queue = device.newCommandQueue(2);
    }

    @AfterEach
    void closeQueue() {
        queue.close();
    }

    @AfterAll
    void close() {
        for (AutoCloseable c : new AutoCloseable[] {inc, hold, library}) {
            try {
                if (c != null) c.close();
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        }
    }

    // ------------------------------------------------------------------ order

    @Test
    void aNativeCommandBetweenTwoDispatchesSeesTheFirstAndNotTheSecond() {
        try (Buffer x = device.newBuffer(counting()); Buffer y = device.newBuffer(N * 4L, StorageMode.SHARED);
             Buffer z = device.newBuffer(N * 4L, StorageMode.SHARED)) {
            CommandBuffer cb = queue.commandBuffer().label("order");
            increment(cb, x, 1);
            cb.encodeNative("copy x to y", List.of(x, y), on -> copy(on, x, y));
            increment(cb, x, 1);
            cb.encodeNative("fill z", List.of(z), on -> fill(on, z, 10f));
            increment(cb, z, 1);
            assertEquals(5, cb.commandCount());
            cb.commit();
            assertEquals(CommandBufferStatus.COMPLETED, cb.waitUntilCompleted());
            assertContents(x, 2, "x: both increments");
            assertContents(y, 1, "y: the copy ran after the first increment and before the second");
            assertAll(z, 11f, "z: the fill ran before the increment after it");
        }
    }

    @Test
    void aNativeCommandAloneFirstOrLastRuns() {
        try (Buffer x = device.newBuffer(counting()); Buffer y = device.newBuffer(N * 4L, StorageMode.SHARED)) {
            CommandBuffer alone = queue.commandBuffer().label("alone");
            alone.encodeNative("fill y", List.of(y), on -> fill(on, y, 3f));
            alone.commit();
            assertEquals(CommandBufferStatus.COMPLETED, alone.waitUntilCompleted());
            assertAll(y, 3f, "a native command alone");

            CommandBuffer first = queue.commandBuffer().label("first");
            first.encodeNative("fill y", List.of(y), on -> fill(on, y, 5f));
            increment(first, y, 1);
            first.commit();
            assertEquals(CommandBufferStatus.COMPLETED, first.waitUntilCompleted());
            assertAll(y, 6f, "a native command first");

            CommandBuffer last = queue.commandBuffer().label("last");
            increment(last, x, 1);
            last.encodeNative("copy x to y", List.of(x, y), on -> copy(on, x, y));
            last.commit();
            assertEquals(CommandBufferStatus.COMPLETED, last.waitUntilCompleted()); // a marker after it completes the run
            assertContents(y, 1, "a native command last");
        }
    }

    @Test
    void aNativeCommandLastCompletesTheFutureAndHandlers() {
        try (Buffer x = device.newBuffer(counting()); Buffer y = device.newBuffer(N * 4L, StorageMode.SHARED)) {
            CommandBuffer cb = queue.commandBuffer().label("future");
            CompletableFuture<CommandBufferStatus> handled = new CompletableFuture<>();
            increment(cb, x, 3);
            cb.encodeNative("copy x to y", List.of(x, y), on -> copy(on, x, y));
            cb.addCompletedHandler(handled::complete);
            cb.commit();
            assertSame(cb, cb.completion().join());
            assertContents(y, 3, "the copy after three increments");
            assertEquals(CommandBufferStatus.COMPLETED, handled.join());
        }
    }

    @Test
    void manyCommandsAroundNativeCommandsRunGatedAndInOrder() {
        // 100 and 100 dispatches: each batch between native commands is gated (64 enqueues or more)
        try (Buffer x = device.newBuffer(counting()); Buffer y = device.newBuffer(N * 4L, StorageMode.SHARED);
             Buffer z = device.newBuffer(N * 4L, StorageMode.SHARED)) {
            for (References references : References.values()) {
                CommandBuffer cb = queue.commandBuffer(references, Validation.CHECKED).label("many " + references);
                increment(cb, x, 100);
                cb.encodeNative("copy x to y", List.of(x, y), on -> copy(on, x, y));
                increment(cb, x, 100);
                cb.encodeNative("copy x to z", List.of(x, z), on -> copy(on, x, z));
                cb.encodeNative("fill x", List.of(x), on -> fill(on, x, 0f));
                increment(cb, x, 70);
                assertEquals(273, cb.commandCount());
                cb.commit();
                assertEquals(CommandBufferStatus.COMPLETED, cb.waitUntilCompleted());
                assertAll(x, 70f, references + " x");
                x.contents().copyFrom(MemorySegment.ofArray(counting()));
                assertContents(y, 100, references + " y");
                assertContents(z, 200, references + " z");
            }
        }
    }

    // ------------------------------------------------------------------ the native queue

    @Test
    void theNativeQueueGivesTheOpenClQueueAndPointerAndRefusesOnceTheCallReturned() {
        try (Buffer x = device.newBuffer(counting()); Buffer other = device.newBuffer(N * 4L, StorageMode.SHARED)) {
            AtomicReference<NativeQueue> kept = new AtomicReference<>();
            AtomicReference<Throwable> inside = new AtomicReference<>();
            CommandBuffer cb = queue.commandBuffer().label("view");
            cb.encodeNative("look", List.of(x), on -> {
                kept.set(on);
                try {
                    assertEquals(NativeQueue.OPENCL, on.api());
                    assertNotEquals(0L, on.handle().address());
                    assertEquals(on.handle(), on.handlePointer().get(ValueLayout.ADDRESS, 0), "the pointer holds the handle");
                    assertNotEquals(0L, on.bufferHandle(x).address());
                    IllegalArgumentException undeclared = assertThrows(IllegalArgumentException.class, () -> on.bufferHandle(other));
                    assertTrue(undeclared.getMessage().contains("command buffer 'view' command 0 (native command 'look'): " + other.describe()
                            + " is not among the buffers it declared"), undeclared.getMessage());
                    assertThrows(IllegalArgumentException.class, () -> on.bufferHandle(null));
                } catch (Throwable t) {
                    inside.set(t);
                }
            });
            cb.commit();
            cb.waitUntilCompleted();
            if (inside.get() != null) throw new AssertionError(inside.get());
            IllegalStateException after = assertThrows(IllegalStateException.class, () -> kept.get().handle());
            assertTrue(after.getMessage().contains("NativeQueue.handle() after the native command returned"), after.getMessage());
            assertThrows(IllegalStateException.class, () -> kept.get().bufferHandle(x));
        }
    }

    // ------------------------------------------------------------------ failures

    @Test
    void aThrowingNativeCommandFailsTheCommandBufferNamingItAndTheCommandsAfterItDoNotRun() {
        try (Buffer x = device.newBuffer(counting())) {
            for (int before : new int[] {1, 100}) { // ungated and gated
                x.contents().copyFrom(MemorySegment.ofArray(counting()));
                AtomicInteger laterCalls = new AtomicInteger();
                CommandBuffer cb = queue.commandBuffer().label("failing");
                increment(cb, x, before);
                cb.encodeNative("explode", List.of(x), on -> {
                    throw new IllegalStateException("the library said no");
                });
                increment(cb, x, 1);
                cb.encodeNative("never", List.of(x), on -> laterCalls.incrementAndGet());
                cb.commit();
                CommandBufferException e = assertThrows(CommandBufferException.class, cb::waitUntilCompleted);
                assertEquals("command buffer 'failing' command " + before + " (native command 'explode'): it threw "
                        + "java.lang.IllegalStateException: the library said no", e.getMessage());
                assertEquals(before, e.commandIndex());
                assertEquals(CommandBufferStatus.ERROR, cb.status());
                assertInstanceOf(IllegalStateException.class, cb.error().orElseThrow().getCause());
                assertEquals(0, laterCalls.get(), "a native command after the failure was called");
                assertContents(x, before, "the commands before it ran, the ones after it did not");
            }
            CommandBuffer next = queue.commandBuffer().label("after");
            increment(next, x, 1);
            next.commit();
            assertEquals(CommandBufferStatus.COMPLETED, next.waitUntilCompleted(), "the queue is still usable");
            assertContents(x, 101, "the next command buffer ran");
        }
    }

    @Test
    void aNativeCommandReportingTheLibrarysErrorFailsTheCommandBuffer() {
        try (Buffer x = device.newBuffer(counting()); Buffer small = device.newBuffer(64, StorageMode.SHARED)) {
            CommandBuffer cb = queue.commandBuffer().label("too long");
            cb.encodeNative("copy past the end", List.of(x, small), on -> {
                int status = CL.clEnqueueCopyBuffer(on.handle(), on.bufferHandle(x), on.bufferHandle(small), 0, 0, x.length(),
                        0, MemorySegment.NULL, MemorySegment.NULL);
                if (status != CL.CL_SUCCESS) throw new IllegalArgumentException("clEnqueueCopyBuffer returned " + status);
            });
            cb.commit();
            CommandBufferException e = assertThrows(CommandBufferException.class, cb::waitUntilCompleted);
            assertTrue(e.getMessage().startsWith("command buffer 'too long' command 0 (native command 'copy past the end'): it threw "
                    + "java.lang.IllegalArgumentException: clEnqueueCopyBuffer returned -"), e.getMessage());
        }
    }

    @Test
    @SuppressWarnings("try") // closes the queue inside its own try on purpose: the close is what is refused
    void blockingOnTheComputeApiFromInsideANativeCommandIsRefusedNotAHang() {
        try (CommandQueue single = device.newCommandQueue(1); Buffer x = device.newBuffer(counting())) {
            List<String> refusals = new ArrayList<>();
            CommandBuffer cb = single.commandBuffer().label("outer");
            cb.encodeNative("reenter", List.of(x), on -> {
                CommandBuffer inner = single.commandBuffer().label("inner");
                increment(inner, x, 1);
                try {
                    inner.commit(); // the only slot is the outer's: waiting for it would never end
                } catch (IllegalStateException e) {
                    refusals.add(e.getMessage());
                }
                try {
                    single.close();
                } catch (IllegalStateException e) {
                    refusals.add(e.getMessage());
                }
            });
            cb.commit();
            assertEquals(CommandBufferStatus.COMPLETED, cb.waitUntilCompleted());
            assertEquals(2, refusals.size(), refusals.toString());
            assertTrue(refusals.get(0).startsWith("waiting for command buffer 'outer' from inside native command 'reenter'"), refusals.get(0));
            assertTrue(refusals.get(1).startsWith("closing a command queue from inside native command 'reenter'"), refusals.get(1));
            assertFalse(single.isClosed());
            assertContents(x, 0, "the refused commit ran nothing");

            try (CommandQueue other = device.newCommandQueue(2)) {
                AtomicReference<CommandBuffer> inner = new AtomicReference<>();
                CommandBuffer second = single.commandBuffer().label("outer 2");
                second.encodeNative("commit elsewhere", List.of(x), on -> {
                    CommandBuffer c = other.commandBuffer().label("inner 2");
                    increment(c, x, 1);
                    c.commit(); // the same device's replay is under way on this thread
                    inner.set(c);
                });
                second.commit();
                assertEquals(CommandBufferStatus.COMPLETED, second.waitUntilCompleted());
                CommandBufferException e = assertThrows(CommandBufferException.class, () -> inner.get().waitUntilCompleted());
                assertTrue(e.getMessage().contains("committing a command buffer of this device from inside a native command"), e.getMessage());
            }
            CommandBuffer after = single.commandBuffer();
            increment(after, x, 1);
            after.commit();
            assertEquals(CommandBufferStatus.COMPLETED, after.waitUntilCompleted());
            assertContents(x, 1, "the queue works after the refusals");
        }
    }

    // ------------------------------------------------------------------ encoding

    @Test
    void encodingRefusesClosedBuffersAndMissingArgumentsNamingTheCommand() {
        Buffer closed = device.newBuffer(64, StorageMode.SHARED);
        closed.close();
        try (Buffer x = device.newBuffer(counting())) {
            for (Validation validation : Validation.values()) {
                CommandBuffer cb = queue.commandBuffer(References.RETAINED, validation).label("refusals");
                increment(cb, x, 1);
                EncodingException e = assertThrows(EncodingException.class, () -> cb.encodeNative("gemm", List.of(x, closed), on -> { }));
                assertEquals("command buffer 'refusals' command 1 (native command 'gemm'): " + closed.describe() + " is closed", e.getMessage());
                List<Buffer> withNull = new ArrayList<>();
                withNull.add(x);
                withNull.add(null);
                e = assertThrows(EncodingException.class, () -> cb.encodeNative("gemm", withNull, on -> { }));
                assertTrue(e.getMessage().endsWith("(native command 'gemm'): buffer 1 of its uses is null"), e.getMessage());
                e = assertThrows(EncodingException.class, () -> cb.encodeNative(" ", List.of(), on -> { }));
                assertTrue(e.getMessage().contains("the description is blank"), e.getMessage());
                e = assertThrows(EncodingException.class, () -> cb.encodeNative("gemm", null, on -> { }));
                assertTrue(e.getMessage().contains("List.of() for none"), e.getMessage());
                e = assertThrows(EncodingException.class, () -> cb.encodeNative("gemm", List.of(x), null));
                assertTrue(e.getMessage().contains("the command is null"), e.getMessage());
                try (ComputeEncoder _ = cb.computeEncoder()) {
                    e = assertThrows(EncodingException.class, () -> cb.encodeNative("gemm", List.of(x), on -> { }));
                    assertTrue(e.getMessage().contains("end the open ComputeEncoder"), e.getMessage());
                }
                assertEquals(1, cb.commandCount(), "nothing refused was recorded");
                cb.commit();
                assertEquals(CommandBufferStatus.COMPLETED, cb.waitUntilCompleted());
                assertThrows(EncodingException.class, () -> cb.encodeNative("late", List.of(x), on -> { }));
            }
        }
    }

    // ------------------------------------------------------------------ lifetimes

    @Test
    void aRetainedCommandBufferKeepsANativeCommandsBufferClosedAfterCommit() throws InterruptedException {
        try (Buffer flag = device.newBuffer(64, StorageMode.SHARED); Buffer out = device.newBuffer(64, StorageMode.SHARED);
             Buffer destination = device.newBuffer(1 << 20, StorageMode.SHARED)) {
            flag.contents().fill((byte) 0);
            Buffer source = device.newBuffer(1 << 20, StorageMode.SHARED);
            source.contents().fill((byte) 5);
            CommandBuffer cb = heldCopy(queue, References.RETAINED, flag, out, source, destination);
            source.close(); // the command buffer's reference keeps it until completion
            assertReleasedAfterGcAndCorrect(cb, flag, destination);
            assertTrue(gcUntil(source::isFreed), "the closed source is freed once the command buffer completed");
        }
    }

    @Test
    @AllowNativeLeaks("a queue, its command buffer and the source buffer are dropped unclosed on purpose: the GC frees them and reports them")
    void aBufferANativeCommandUsesIsKeptUntilTheDeviceIsDoneThoughItsQueueAndCommandBufferWereDropped() throws InterruptedException {
        try (Buffer flag = device.newBuffer(64, StorageMode.SHARED); Buffer out = device.newBuffer(64, StorageMode.SHARED);
             Buffer destination = device.newBuffer(1 << 20, StorageMode.SHARED)) {
            flag.contents().fill((byte) 0);
            for (int i = 0; i < 3; i++) gcOnce(); // what earlier tests dropped goes first, so the count below is this test's
            long before = liveBuffers();
            Buffer reuse = null;
            try {
                commitHeldCopyAndDropEverything(flag, out, destination);
                for (int i = 0; i < 5; i++) gcOnce();
                assertEquals(before + 1, liveBuffers(), "the source a native command copies from was freed while the device runs");
                reuse = device.newBuffer(1 << 20, StorageMode.SHARED);
                reuse.contents().fill((byte) 7); // would land in the source if its block had gone back to the pool
            } finally {
                flag.contents().set(ValueLayout.JAVA_INT, 0, 1);
            }
            try (Buffer fresh = reuse) {
                assertTrue(gcUntil(() -> liveBuffers() <= before + 1), "the dropped source is freed once the device is done: live="
                        + liveBuffers() + " before=" + before);
                MemorySegment copied = destination.contents();
                for (long i = 0; i < copied.byteSize(); i += 4093) assertEquals(5, copied.get(ValueLayout.JAVA_BYTE, i), "byte " + i + " of the copy");
                assertEquals(7, fresh.contents().get(ValueLayout.JAVA_BYTE, 0));
            }
        }
    }

    /** Only the run itself holds the source: its queue, its UNRETAINED command buffer and the source are dropped here. */
    private void commitHeldCopyAndDropEverything(Buffer flag, Buffer out, Buffer destination) {
        CommandQueue dropped = device.newCommandQueue(1);
        Buffer source = device.newBuffer(1 << 20, StorageMode.SHARED);
        source.contents().fill((byte) 5);
        heldCopy(dropped, References.UNRETAINED, flag, out, source, destination);
    }

    private long liveBuffers() {
        return device.memoryStats().liveBuffers();
    }

    /** A kernel that waits for {@code flag}, then a native copy of {@code source} into {@code destination}: committed. */
    private CommandBuffer heldCopy(CommandQueue queue, References references, Buffer flag, Buffer out, Buffer source, Buffer destination) {
        CommandBuffer cb = queue.commandBuffer(references, Validation.CHECKED).label("held " + references);
        try (ComputeEncoder e = cb.computeEncoder()) {
            e.setPipeline(hold).setBuffer(0, flag).setBuffer(1, out).dispatchThreads(Size.of(1), Size.of(1));
        }
        cb.encodeNative("copy", List.of(source, destination), on -> copy(on, source, destination));
        cb.commit();
        return cb;
    }

    /** While the copy waits behind the held kernel: GC, reuse memory of the source's size, then let it run and check the copy. */
    private void assertReleasedAfterGcAndCorrect(CommandBuffer cb, Buffer flag, Buffer destination) throws InterruptedException {
        Buffer reuse = null;
        try {
            for (int i = 0; i < 5; i++) gcOnce();
            assertEquals(CommandBufferStatus.COMMITTED, cb.status(), "the held kernel keeps the run in flight");
            reuse = device.newBuffer(1 << 20, StorageMode.SHARED);
            reuse.contents().fill((byte) 7); // would land in the source if its block had gone back to the pool
        } finally {
            flag.contents().set(ValueLayout.JAVA_INT, 0, 1);
        }
        try (Buffer fresh = reuse) {
            assertEquals(CommandBufferStatus.COMPLETED, cb.waitUntilCompleted());
            MemorySegment copied = destination.contents();
            for (long i = 0; i < copied.byteSize(); i += 4093) assertEquals(5, copied.get(ValueLayout.JAVA_BYTE, i), "byte " + i + " of the copy");
            assertEquals(7, fresh.contents().get(ValueLayout.JAVA_BYTE, 0));
        }
    }

    // ------------------------------------------------------------------ helpers

    private static float[] counting() {
        float[] v = new float[N];
        for (int i = 0; i < N; i++) v[i] = i;
        return v;
    }

    private void increment(CommandBuffer cb, Buffer x, int times) {
        try (ComputeEncoder e = cb.computeEncoder()) {
            e.setPipeline(inc).setBuffer(0, x);
            for (int i = 0; i < times; i++) e.dispatchThreads(Size.of(N), Size.of(64));
        }
    }

    /** {@code clEnqueueCopyBuffer} of the whole of {@code from}, as a native library would enqueue it. */
    private static void copy(NativeQueue on, Buffer from, Buffer to) {
        int status = CL.clEnqueueCopyBuffer(on.handle(), on.bufferHandle(from), on.bufferHandle(to), 0, 0, from.length(),
                0, MemorySegment.NULL, MemorySegment.NULL);
        if (status != CL.CL_SUCCESS) throw new IllegalStateException("clEnqueueCopyBuffer returned " + status);
    }

    /** {@code clEnqueueFillBuffer} of {@code buffer} with one float. */
    private static void fill(NativeQueue on, Buffer buffer, float value) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment pattern = arena.allocateFrom(ValueLayout.JAVA_FLOAT, value);
            int status = CL.clEnqueueFillBuffer(on.handle(), on.bufferHandle(buffer), pattern, 4, 0, buffer.length(),
                    0, MemorySegment.NULL, MemorySegment.NULL);
            if (status != CL.CL_SUCCESS) throw new IllegalStateException("clEnqueueFillBuffer returned " + status);
        }
    }

    /** Element i of {@code x} is {@code i + added}. */
    private static void assertContents(Buffer x, int added, String what) {
        float[] v = x.contents().toArray(ValueLayout.JAVA_FLOAT);
        for (int i = 0; i < N; i++) assertEquals(i + added, v[i], what + ": element " + i);
    }

    private static void assertAll(Buffer x, float value, String what) {
        float[] v = x.contents().toArray(ValueLayout.JAVA_FLOAT);
        for (int i = 0; i < N; i++) assertEquals(value, v[i], what + ": element " + i);
    }

    private static void gcOnce() throws InterruptedException {
        System.gc();
        NativeMemory.cleanUnreachable();
        Thread.sleep(10);
    }

    private static boolean gcUntil(java.util.function.BooleanSupplier done) throws InterruptedException {
        for (int i = 0; i < 3000 && !done.getAsBoolean(); i++) gcOnce();
        return done.getAsBoolean();
    }
}
