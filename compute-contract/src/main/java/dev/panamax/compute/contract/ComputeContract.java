package dev.panamax.compute.contract;

import dev.panamax.compute.AddressSpace;
import dev.panamax.compute.ArgumentInfo;
import dev.panamax.compute.BlitEncoder;
import dev.panamax.compute.Buffer;
import dev.panamax.compute.CommandBuffer;
import dev.panamax.compute.CommandBufferException;
import dev.panamax.compute.CommandBufferStatus;
import dev.panamax.compute.CommandQueue;
import dev.panamax.compute.ComputeDevice;
import dev.panamax.compute.ComputeEncoder;
import dev.panamax.compute.ComputePipeline;
import dev.panamax.compute.DeviceInfo;
import dev.panamax.compute.EncodingException;
import dev.panamax.compute.Library;
import dev.panamax.compute.LibraryBuildException;
import dev.panamax.compute.RecordedCommands;
import dev.panamax.compute.References;
import dev.panamax.compute.Size;
import dev.panamax.compute.StorageMode;
import dev.panamax.compute.Validation;
import dev.panamax.compute.ValueType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.*;

/**
 * What every compute backend must do: one abstract suite, one subclass per backend giving its
 * {@link #device()} and its {@link #kernels()} (the same kernels in the backend's language). The
 * suite runs under the leak extension at PARANOID: every test releases what it makes.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class ComputeContract {
    /** The kernels the suite runs, written in the backend's kernel language. */
    public interface Kernels {
        /** {@code add(a, b, c, n)}: c[i] = a[i] + b[i] for i < n (floats). */
        String vectorAdd();

        /** {@code scale(x, factor, n)}: x[i] = x[i] * factor for i < n. */
        String scale();

        /** {@code inc(x)}: x[gid] += 1 (no bounds check: the grid must fit). */
        String increment();

        /** Source that does not compile, its error on line 3. */
        String brokenOnLine3();
    }

    protected abstract ComputeDevice device();

    protected abstract Kernels kernels();

    protected CommandQueue queue;
    protected Library library;
    protected ComputePipeline add;
    protected ComputePipeline scale;
    protected ComputePipeline inc;

    @BeforeAll
    void openQueueAndPipelines() {
        queue = device().newCommandQueue(3);
        library = device().newLibrary(kernels().vectorAdd() + "\n" + kernels().scale() + "\n" + kernels().increment());
        add = library.newPipeline("add");
        scale = library.newPipeline("scale");
        inc = library.newPipeline("inc");
    }

    @AfterAll
    void closeQueueAndPipelines() {
        if (add != null) add.close();
        if (scale != null) scale.close();
        if (inc != null) inc.close();
        if (library != null) library.close();
        if (queue != null) queue.close();
    }

    static float[] ramp(int n, float step) {
        float[] a = new float[n];
        for (int i = 0; i < n; i++) a[i] = i * step;
        return a;
    }

    // ------------------------------------------------------------------ device and buffers

    @Test
    void theDeviceDescribesItself() {
        DeviceInfo info = device().info();
        assertFalse(info.name().isBlank());
        assertTrue(info.computeUnits() > 0);
        assertTrue(info.memoryBytes() > 0);
        assertTrue(info.maxThreadsPerThreadgroup() > 0);
        assertTrue(info.bufferOffsetAlignment() > 0);
        assertTrue(ComputeDevice.all().contains(device()));
    }

    @Test
    void aSharedBufferIsHostVisibleAndItsContentsAreCachedAtCreation() {
        try (Buffer b = device().newBuffer(1000, StorageMode.SHARED)) {
            assertEquals(1000, b.length());
            assertEquals(1000, b.contents().byteSize());
            assertSame(b.contents(), b.contents());
            b.contents().set(ValueLayout.JAVA_INT, 0, 42);
            assertEquals(42, b.contents().get(ValueLayout.JAVA_INT, 0));
        }
    }

    @Test
    void aPrivateBufferRefusesCpuAccessWithAClearMessage() {
        try (Buffer b = device().newBuffer(64, StorageMode.PRIVATE)) {
            IllegalStateException e = assertThrows(IllegalStateException.class, b::contents);
            assertTrue(e.getMessage().contains("PRIVATE") && e.getMessage().contains("BlitEncoder"), e.getMessage());
        }
    }

    @Test
    void aClosedBuffersContentsFailInJava() {
        Buffer b = device().newBuffer(64, StorageMode.SHARED);
        var contents = b.contents();
        b.close();
        assertThrows(IllegalStateException.class, b::contents);
        assertThrows(IllegalStateException.class, () -> contents.get(ValueLayout.JAVA_INT, 0));
    }

    // ------------------------------------------------------------------ library and pipeline

    @Test
    void aPipelineKnowsItsArguments() {
        List<ArgumentInfo> args = add.arguments();
        assertEquals(4, args.size());
        assertEquals("a", args.get(0).name());
        assertEquals(AddressSpace.DEVICE, args.get(0).addressSpace());
        assertTrue(args.get(0).takesBuffer());
        assertEquals("n", args.get(3).name());
        assertEquals(AddressSpace.VALUE, args.get(3).addressSpace());
        assertEquals(4, args.get(3).valueBytes());
        assertTrue(add.maxThreadsPerThreadgroup() > 0);
        assertTrue(library.functionNames().containsAll(List.of("add", "scale", "inc")), library.functionNames().toString());
    }

    @Test
    void aBrokenSourceGivesTheLogAndTheFailingLine() {
        LibraryBuildException e = assertThrows(LibraryBuildException.class, () -> device().newLibrary(kernels().brokenOnLine3()));
        assertEquals(3, e.line(), e.getMessage());
        assertFalse(e.log().isBlank());
        assertTrue(e.getMessage().contains("line 3"), e.getMessage());
    }

    @Test
    void anUnknownFunctionNamesTheOnesThereAre() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> library.newPipeline("nope"));
        assertTrue(e.getMessage().contains("add") && e.getMessage().contains("nope"), e.getMessage());
    }

    @Test
    void theSameSourceTwiceSharesOneBuild() {
        try (Library again = device().newLibrary(kernels().vectorAdd() + "\n" + kernels().scale() + "\n" + kernels().increment());
             ComputePipeline p = again.newPipeline("add")) {
            assertEquals(add.arguments(), p.arguments());
        }
    }

    // ------------------------------------------------------------------ encoders, commit, wait

    @Test
    void vectorAddMatchesJava() {
        int n = 100_003;
        float[] a = ramp(n, 0.5f), b = ramp(n, 2f);
        try (Buffer ba = device().newBuffer(a); Buffer bb = device().newBuffer(b);
             Buffer bc = device().newBuffer((long) n * Float.BYTES, StorageMode.SHARED)) {
            CommandBuffer cb = queue.commandBuffer();
            try (ComputeEncoder e = cb.computeEncoder()) {
                // n is not a multiple of 64: whole groups cover it, and the kernel bounds-checks
                e.setPipeline(add).setBuffer(0, ba).setBuffer(1, bb).setBuffer(2, bc).setInt(3, n)
                        .dispatchThreadgroups(Size.threadgroupsCovering(Size.of(n), Size.of(64)), Size.of(64));
            }
            cb.commit();
            assertEquals(CommandBufferStatus.COMPLETED, cb.waitUntilCompleted());
            float[] c = bc.contents().toArray(ValueLayout.JAVA_FLOAT);
            for (int i = 0; i < n; i++) assertEquals(a[i] + b[i], c[i], "element " + i);
        }
    }

    @Test
    void theArgumentTableIsSnapshotPerDispatch() {
        int n = 64;
        try (Buffer x = device().newBuffer(ramp(n, 1f))) {
            CommandBuffer cb = queue.commandBuffer();
            try (ComputeEncoder e = cb.computeEncoder()) {
                e.setPipeline(scale).setBuffer(0, x).setFloat(1, 2f).setInt(2, n).dispatchThreads(Size.of(n), Size.of(16));
                e.setFloat(1, 3f).dispatchThreads(Size.of(n), Size.of(16));
                e.setInt(2, 8).dispatchThreads(Size.of(n), Size.of(16)); // only the first 8 once more by 3
            }
            cb.commit();
            cb.waitUntilCompleted();
            float[] out = x.contents().toArray(ValueLayout.JAVA_FLOAT);
            for (int i = 0; i < n; i++) assertEquals(i < 8 ? i * 18f : i * 6f, out[i], "element " + i);
        }
    }

    @Test
    void repeatedDispatchesEachRunAndAChangeAfterThemIsHonoured() {
        int n = 64;
        for (References r : References.values()) {
            for (Validation v : Validation.values()) {
                // a queue of its own: what its recorder grows to for 55 commands is freed with it
                try (CommandQueue q = device().newCommandQueue(1);
                     Buffer x = device().newBuffer(new float[n]); Buffer y = device().newBuffer(new float[n])) {
                    CommandBuffer cb = q.commandBuffer(r, v);
                    try (ComputeEncoder e = cb.computeEncoder()) {
                        e.setPipeline(inc).setBuffer(0, x);
                        for (int i = 0; i < 50; i++) e.dispatchThreads(Size.of(n), Size.of(16)); // equal sizes, new objects
                        for (int i = 0; i < 3; i++) e.dispatchThreads(Size.of(n / 2), Size.of(16)); // a smaller grid
                        e.setBuffer(0, y).dispatchThreads(Size.of(n / 2), Size.of(16)); // another buffer, the same sizes
                        e.dispatchThreadgroups(Size.of(n / 16), Size.of(16)); // the whole of y, as threadgroups
                    }
                    assertEquals(55, cb.commandCount());
                    cb.commit();
                    assertEquals(CommandBufferStatus.COMPLETED, cb.waitUntilCompleted(), () -> r + " " + v);
                    float[] ox = x.contents().toArray(ValueLayout.JAVA_FLOAT), oy = y.contents().toArray(ValueLayout.JAVA_FLOAT);
                    for (int i = 0; i < n; i++) {
                        assertEquals(i < n / 2 ? 53f : 50f, ox[i], r + " " + v + ": x element " + i);
                        assertEquals(i < n / 2 ? 2f : 1f, oy[i], r + " " + v + ": y element " + i);
                    }
                }
            }
        }
    }

    @Test
    void aCommandBufferEndingWithABarrierIsCompleteOnlyWhenItsCommandsAre() {
        int n = 1 << 20, dispatches = 40; // long enough that a wait returning early would see them unfinished
        try (CommandQueue q = device().newCommandQueue(1); Buffer x = device().newBuffer(new float[n])) {
            CommandBuffer cb = q.commandBuffer();
            try (ComputeEncoder e = cb.computeEncoder()) {
                e.setPipeline(inc).setBuffer(0, x);
                for (int i = 0; i < dispatches; i++) e.dispatchThreads(Size.of(n), Size.of(64)).memoryBarrier();
            }
            cb.commit();
            assertEquals(CommandBufferStatus.COMPLETED, cb.waitUntilCompleted());
            float[] out = x.contents().toArray(ValueLayout.JAVA_FLOAT);
            for (int i = 0; i < n; i++) assertEquals(dispatches, out[i], "element " + i);
        }
    }

    @Test
    void aLongCommandBufferOfEveryKindOfCommandRunsInOrder() {
        int n = 256, dispatches = 150;
        float[] read = new float[n];
        for (References r : References.values()) {
            for (Validation v : Validation.values()) {
                // a queue of its own: what its recorder grows to is freed with it
                try (CommandQueue q = device().newCommandQueue(1); Buffer x = device().newBuffer(ramp(n, 1f));
                     Buffer y = device().newBuffer((long) n * Float.BYTES, StorageMode.PRIVATE)) {
                    CommandBuffer cb = q.commandBuffer(r, v);
                    try (ComputeEncoder e = cb.computeEncoder()) {
                        e.memoryBarrier(); // a barrier first, then many dispatches
                        e.setPipeline(inc).setBuffer(0, x);
                        for (int i = 0; i < dispatches; i++) e.dispatchThreads(Size.of(n), Size.of(32));
                    }
                    try (BlitEncoder b = cb.blitEncoder()) {
                        b.copy(x, 0, y, 0, (long) n * Float.BYTES).fill(x, 0, (long) n * Float.BYTES, (byte) 0);
                    }
                    try (ComputeEncoder e = cb.computeEncoder()) {
                        e.setPipeline(inc).setBuffer(0, y);
                        for (int i = 0; i < dispatches; i++) e.dispatchThreads(Size.of(n), Size.of(32));
                    }
                    try (BlitEncoder b = cb.blitEncoder()) {
                        b.read(y, 0, read);
                    }
                    cb.commit();
                    assertEquals(CommandBufferStatus.COMPLETED, cb.waitUntilCompleted(), () -> r + " " + v);
                    for (float f : x.contents().toArray(ValueLayout.JAVA_FLOAT)) assertEquals(0f, f, r + " " + v);
                    for (int i = 0; i < n; i++) assertEquals(i + 2f * dispatches, read[i], r + " " + v + ": element " + i);
                }
            }
        }
        // one that begins with a blit
        try (CommandQueue q = device().newCommandQueue(1); Buffer x = device().newBuffer(ramp(n, 1f))) {
            CommandBuffer cb = q.commandBuffer();
            try (BlitEncoder b = cb.blitEncoder()) {
                b.fill(x, 0, (long) n * Float.BYTES, (byte) 0);
            }
            try (ComputeEncoder e = cb.computeEncoder()) {
                e.setPipeline(inc).setBuffer(0, x);
                for (int i = 0; i < dispatches; i++) e.dispatchThreads(Size.of(n), Size.of(32));
            }
            cb.commit();
            assertEquals(CommandBufferStatus.COMPLETED, cb.waitUntilCompleted());
            for (float f : x.contents().toArray(ValueLayout.JAVA_FLOAT)) assertEquals(dispatches, f);
        }
    }

    @Test
    void aLongCommandBufferTheDriverRefusesPartWayStillRunsTheCommandsBeforeAndTheQueueGoesOn() throws Exception {
        int n = 64, before = 120;
        try (CommandQueue q = device().newCommandQueue(1); Buffer x = device().newBuffer(new float[n]);
             ComputePipeline fresh = library.newPipeline("add")) {
            CommandBuffer cb = q.commandBuffer(References.RETAINED, Validation.UNCHECKED);
            try (ComputeEncoder e = cb.computeEncoder()) {
                e.setPipeline(inc).setBuffer(0, x);
                for (int i = 0; i < before; i++) e.dispatchThreads(Size.of(n), Size.of(8));
                e.setPipeline(fresh).setBuffer(0, x).dispatchThreads(Size.of(n), Size.of(8)); // three arguments never set
                e.setPipeline(inc).setBuffer(0, x);
                for (int i = 0; i < 10; i++) e.dispatchThreads(Size.of(n), Size.of(8)); // never run
            }
            cb.commit();
            // a bounded wait: commands left waiting for the driver would otherwise hang the suite
            ExecutionException failed = assertThrows(ExecutionException.class, () -> cb.completion().get(30, TimeUnit.SECONDS));
            assertEquals(before, ((CommandBufferException) failed.getCause()).commandIndex());
            assertEquals(CommandBufferStatus.ERROR, cb.status());
            for (float f : x.contents().toArray(ValueLayout.JAVA_FLOAT)) assertEquals(before, f);
            CommandBuffer next = q.commandBuffer();
            try (ComputeEncoder e = next.computeEncoder()) {
                e.setPipeline(inc).setBuffer(0, x);
                for (int i = 0; i < before; i++) e.dispatchThreads(Size.of(n), Size.of(8));
            }
            next.commit();
            assertSame(next, next.completion().get(30, TimeUnit.SECONDS));
            for (float f : x.contents().toArray(ValueLayout.JAVA_FLOAT)) assertEquals(2f * before, f);
        }
    }

    @Test
    void commandBuffersOfOneShapeEachRunTheirOwnArguments() {
        int n = 64;
        try (CommandQueue q = device().newCommandQueue(1); Buffer x = device().newBuffer(ramp(n, 1f))) {
            for (float factor : new float[] {2f, 3f, 5f}) {
                CommandBuffer cb = q.commandBuffer();
                try (ComputeEncoder e = cb.computeEncoder()) {
                    e.setPipeline(scale).setBuffer(0, x).setFloat(1, 1f).setInt(2, n);
                    for (int i = 0; i < 20; i++) e.dispatchThreads(Size.of(n), Size.of(16));
                    e.setFloat(1, factor).dispatchThreads(Size.of(n), Size.of(16));
                    e.setFloat(1, 1f);
                    for (int i = 0; i < 20; i++) e.dispatchThreads(Size.of(n), Size.of(16));
                }
                cb.commit();
                assertEquals(CommandBufferStatus.COMPLETED, cb.waitUntilCompleted());
            }
            float[] out = x.contents().toArray(ValueLayout.JAVA_FLOAT);
            for (int i = 0; i < n; i++) assertEquals(i * 30f, out[i], "element " + i);
            // the same shape again and again, each copy from and to another place
            try (Buffer y = device().newBuffer(new float[n])) {
                for (int part = 0; part < 4; part++) {
                    CommandBuffer cb = q.commandBuffer();
                    try (var b = cb.blitEncoder()) {
                        long at = part * (n / 4L) * Float.BYTES;
                        b.copy(x, at, y, at, (n / 4L) * Float.BYTES);
                    }
                    cb.commit();
                    assertEquals(CommandBufferStatus.COMPLETED, cb.waitUntilCompleted());
                }
                assertArrayEquals(out, y.contents().toArray(ValueLayout.JAVA_FLOAT));
            }
        }
    }

    @Test
    void privateBuffersMoveThroughBlitsWithHalfConversion() {
        int n = 1000;
        float[] data = ramp(n, 0.25f);
        float[] back = new float[n];
        float[] halves = new float[n];
        try (Buffer p = device().newBuffer((long) n * 4, StorageMode.PRIVATE);
             Buffer copy = device().newBuffer((long) n * 4, StorageMode.PRIVATE);
             Buffer half = device().newBuffer((long) n * 2, StorageMode.PRIVATE)) {
            CommandBuffer cb = queue.commandBuffer();
            try (BlitEncoder b = cb.blitEncoder()) {
                b.write(p, 0, data);
            }
            try (ComputeEncoder e = cb.computeEncoder()) {
                e.setPipeline(inc).setBuffer(0, p).dispatchThreadgroups(Size.of(n / 8), Size.of(8));
            }
            try (BlitEncoder b = cb.blitEncoder()) {
                b.copy(p, 0, copy, 0, (long) n * 4).read(copy, 0, back);
                b.writeHalf(half, 0, data).readHalf(half, 0, halves);
            }
            cb.commit();
            assertEquals(CommandBufferStatus.COMPLETED, cb.waitUntilCompleted());
            for (int i = 0; i < n; i++) {
                assertEquals(data[i] + 1, back[i], "element " + i);
                assertEquals(data[i], halves[i], 0.125f, "half element " + i);
            }
        }
    }

    @Test
    void fillSetsEveryByte() {
        byte[] out = new byte[256];
        try (Buffer p = device().newBuffer(256, StorageMode.PRIVATE)) {
            CommandBuffer cb = queue.commandBuffer();
            try (BlitEncoder b = cb.blitEncoder()) {
                b.fill(p, 0, 256, (byte) 7).fill(p, 128, 64, (byte) 9).read(p, 0, out);
            }
            cb.commit();
            cb.waitUntilCompleted();
        }
        for (int i = 0; i < 256; i++) assertEquals(i >= 128 && i < 192 ? 9 : 7, out[i], "byte " + i);
    }

    @Test
    void aBufferBoundAtAnAlignedOffset() {
        long align = device().info().bufferOffsetAlignment();
        int n = 64 + (int) (align / 4);
        try (Buffer x = device().newBuffer(new float[n])) {
            CommandBuffer cb = queue.commandBuffer();
            try (ComputeEncoder e = cb.computeEncoder()) {
                e.setPipeline(inc).setBuffer(0, x, align).dispatchThreads(Size.of(64), Size.of(8));
            }
            cb.commit();
            cb.waitUntilCompleted();
            float[] out = x.contents().toArray(ValueLayout.JAVA_FLOAT);
            for (int i = 0; i < n; i++) assertEquals(i >= align / 4 && i < align / 4 + 64 ? 1f : 0f, out[i], "element " + i);
        }
    }

    @Test
    void setBytesOnABufferArgumentPassesATransientBuffer() {
        int n = 512;
        float[] a = ramp(n, 1f);
        float[] b = ramp(n, 3f);
        try (Buffer c = device().newBuffer((long) n * 4, StorageMode.SHARED)) {
            CommandBuffer cb = queue.commandBuffer();
            try (ComputeEncoder e = cb.computeEncoder()) {
                e.setPipeline(add).setFloats(0, a).setFloats(1, b).setBuffer(2, c).setInt(3, n).dispatchThreads(Size.of(n), Size.of(64));
            }
            cb.commit();
            cb.waitUntilCompleted();
            float[] out = c.contents().toArray(ValueLayout.JAVA_FLOAT);
            for (int i = 0; i < n; i++) assertEquals(a[i] + b[i], out[i], "element " + i);
        }
    }

    // ------------------------------------------------------------------ the four kinds

    @Test
    void everyKindOfCommandBufferComputesTheSame() {
        for (References r : References.values()) {
            for (Validation v : Validation.values()) {
                int n = 256;
                try (Buffer x = device().newBuffer(new float[n])) {
                    CommandBuffer cb = queue.commandBuffer(r, v);
                    try (ComputeEncoder e = cb.computeEncoder()) {
                        e.setPipeline(inc).setBuffer(0, x);
                        for (int k = 0; k < 10; k++) e.dispatchThreads(Size.of(n), Size.of(32));
                    }
                    cb.commit();
                    assertEquals(CommandBufferStatus.COMPLETED, cb.waitUntilCompleted(), r + " " + v);
                    for (float f : x.contents().toArray(ValueLayout.JAVA_FLOAT)) assertEquals(10f, f, r + " " + v);
                }
            }
        }
    }

    @Test
    void aRetainedCommandBufferKeepsAClosedBufferAliveUntilItCompletes() {
        int n = 1 << 16;
        float[] out = new float[n];
        CommandBuffer cb = queue.commandBuffer(References.RETAINED, Validation.CHECKED);
        Buffer x = device().newBuffer((long) n * 4, StorageMode.PRIVATE);
        try (BlitEncoder b = cb.blitEncoder()) {
            b.fill(x, 0, (long) n * 4, (byte) 0);
        }
        try (ComputeEncoder e = cb.computeEncoder()) {
            e.setPipeline(inc).setBuffer(0, x);
            for (int k = 0; k < 5; k++) e.dispatchThreads(Size.of(n), Size.of(64));
        }
        try (BlitEncoder b = cb.blitEncoder()) {
            b.read(x, 0, out);
        }
        cb.commit();
        x.close(); // the caller is done with it; the command buffer is not
        assertEquals(CommandBufferStatus.COMPLETED, cb.waitUntilCompleted());
        for (int i = 0; i < n; i++) assertEquals(5f, out[i], "element " + i);
    }

    @Test
    void aBufferClosedBeforeCommitIsRefusedAtCommit() {
        for (References r : References.values()) {
            closedBeforeCommit(r, Validation.CHECKED);
        }
        closedBeforeCommit(References.RETAINED, Validation.UNCHECKED);
    }

    private void closedBeforeCommit(References r, Validation v) {
        Buffer x = device().newBuffer(256, StorageMode.SHARED);
        CommandBuffer cb = queue.commandBuffer(r, v).label("unretained");
        try (ComputeEncoder e = cb.computeEncoder()) {
            e.setPipeline(inc).setBuffer(0, x).dispatchThreads(Size.of(64), Size.of(8));
        }
        x.close();
        EncodingException e = assertThrows(EncodingException.class, cb::commit, r + " " + v);
        assertTrue(e.getMessage().contains("'unretained'") && e.getMessage().contains("closed before commit"), e.getMessage());
        assertEquals(CommandBufferStatus.NOT_ENQUEUED, cb.status());
    }

    // ------------------------------------------------------------------ async

    @Test
    void statusReportsCompletionWithoutAWaiter() throws Exception {
        try (Buffer x = device().newBuffer(new float[64]); CommandQueue own = device().newCommandQueue(2)) {
            CommandBuffer cb = own.commandBuffer();
            try (ComputeEncoder e = cb.computeEncoder()) {
                e.setPipeline(inc).setBuffer(0, x).dispatchThreads(Size.of(64), Size.of(8));
            }
            cb.commit();
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (cb.status() == CommandBufferStatus.COMMITTED && System.nanoTime() < deadline) Thread.sleep(1);
            assertEquals(CommandBufferStatus.COMPLETED, cb.status(), "no waiter, no handler: status() alone must see the device finish");
            assertEquals(0, own.inFlight(), "a completed command buffer gives back its in-flight slot");
            assertEquals(1f, x.contents().getAtIndex(java.lang.foreign.ValueLayout.JAVA_FLOAT, 0));
        }
    }

    @Test
    void handlersRunOffTheDriversThreadAndTheFutureCompletes() throws Exception {
        try (Buffer x = device().newBuffer(new float[64])) {
            CommandBuffer cb = queue.commandBuffer();
            try (ComputeEncoder e = cb.computeEncoder()) {
                e.setPipeline(inc).setBuffer(0, x).dispatchThreads(Size.of(64), Size.of(8));
            }
            CountDownLatch ran = new CountDownLatch(2);
            List<String> seen = new CopyOnWriteArrayList<>();
            cb.addCompletedHandler(status -> {
                seen.add(status + " " + Thread.currentThread().isVirtual());
                ran.countDown();
            });
            cb.addCompletedHandler(status -> {
                ran.countDown();
                throw new IllegalStateException("a handler that throws is reported; the queue goes on");
            });
            long failuresBefore = queue.handlerFailures();
            cb.commit();
            assertSame(cb, cb.completion().get(10, TimeUnit.SECONDS));
            assertTrue(ran.await(10, TimeUnit.SECONDS));
            assertEquals(List.of("COMPLETED true"), seen);
            assertThrows(EncodingException.class, () -> cb.addCompletedHandler(s -> {}));
            for (int i = 0; i < 100 && queue.handlerFailures() == failuresBefore; i++) Thread.sleep(10);
            assertEquals(failuresBefore + 1, queue.handlerFailures());
        }
    }

    @Test
    void aSlowHandlerDoesNotStallTheQueue() throws Exception {
        try (Buffer x = device().newBuffer(new float[64])) {
            CountDownLatch release = new CountDownLatch(1);
            CommandBuffer first = queue.commandBuffer();
            try (ComputeEncoder e = first.computeEncoder()) {
                e.setPipeline(inc).setBuffer(0, x).dispatchThreads(Size.of(64), Size.of(8));
            }
            first.addCompletedHandler(s -> {
                try {
                    release.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException ignored) {
                    Thread.currentThread().interrupt();
                }
            });
            first.commit();
            CommandBuffer second = queue.commandBuffer();
            try (ComputeEncoder e = second.computeEncoder()) {
                e.setPipeline(inc).setBuffer(0, x).dispatchThreads(Size.of(64), Size.of(8));
            }
            second.commit();
            assertEquals(CommandBufferStatus.COMPLETED, second.waitUntilCompleted());
            release.countDown();
            first.waitUntilCompleted();
            for (float f : x.contents().toArray(ValueLayout.JAVA_FLOAT)) assertEquals(2f, f);
        }
    }

    @Test
    void commitBlocksWhileTheQueueHasItsMaximumInFlight() throws Exception {
        try (CommandQueue one = device().newCommandQueue(1); Buffer x = device().newBuffer(new float[64])) {
            CountDownLatch inHandler = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            CommandBuffer first = one.commandBuffer();
            try (ComputeEncoder e = first.computeEncoder()) {
                e.setPipeline(inc).setBuffer(0, x).dispatchThreads(Size.of(64), Size.of(8));
            }
            first.commit();
            first.waitUntilCompleted();
            assertEquals(0, one.inFlight());
            // the slot comes back when the command buffer finishes, whatever its handlers do
            CommandBuffer second = one.commandBuffer();
            try (ComputeEncoder e = second.computeEncoder()) {
                e.setPipeline(inc).setBuffer(0, x).dispatchThreads(Size.of(64), Size.of(8));
            }
            second.addCompletedHandler(s -> {
                inHandler.countDown();
                try {
                    release.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException ignored) {
                    Thread.currentThread().interrupt();
                }
            });
            second.commit();
            assertTrue(inHandler.await(10, TimeUnit.SECONDS));
            CommandBuffer third = one.commandBuffer();
            try (ComputeEncoder e = third.computeEncoder()) {
                e.setPipeline(inc).setBuffer(0, x).dispatchThreads(Size.of(64), Size.of(8));
            }
            third.commit();
            assertEquals(CommandBufferStatus.COMPLETED, third.waitUntilCompleted());
            release.countDown();
            assertEquals(1, one.maxCommandBuffersInFlight());
        }
    }

    @Test
    void aBoundedQueueNeverHasMoreThanItsMaximumInFlight() throws Exception {
        AtomicInteger maxSeen = new AtomicInteger();
        try (CommandQueue two = device().newCommandQueue(2); Buffer x = device().newBuffer(new float[1024])) {
            List<CommandBuffer> all = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                CommandBuffer cb = two.commandBuffer();
                try (ComputeEncoder e = cb.computeEncoder()) {
                    e.setPipeline(inc).setBuffer(0, x);
                    for (int k = 0; k < 20; k++) e.dispatchThreads(Size.of(1024), Size.of(64));
                }
                cb.commit();
                maxSeen.accumulateAndGet(two.inFlight(), Math::max);
                all.add(cb);
            }
            for (CommandBuffer cb : all) assertEquals(CommandBufferStatus.COMPLETED, cb.waitUntilCompleted());
            assertTrue(maxSeen.get() <= 2, "in flight: " + maxSeen.get());
            for (float f : x.contents().toArray(ValueLayout.JAVA_FLOAT)) assertEquals(400f, f);
        }
    }

    // ------------------------------------------------------------------ errors

    private CommandBuffer withOpenEncoder(References r, Validation v, java.util.function.Consumer<ComputeEncoder> body) {
        CommandBuffer cb = queue.commandBuffer(r, v).label("bad");
        try (ComputeEncoder e = cb.computeEncoder()) {
            body.accept(e);
        }
        return cb;
    }

    @Test
    void aMissingArgumentIsNamed() {
        try (Buffer x = device().newBuffer(new float[64])) {
            EncodingException e = assertThrows(EncodingException.class, () -> withOpenEncoder(References.RETAINED, Validation.CHECKED,
                    enc -> enc.setPipeline(add).setBuffer(0, x).setBuffer(1, x).setInt(3, 64).dispatchThreads(Size.of(64), Size.of(8))));
            assertTrue(e.getMessage().contains("command buffer 'bad' command 0 (dispatch 'add'): argument 2 'c'") && e.getMessage().contains("not set"),
                    e.getMessage());
        }
    }

    @Test
    void aWrongKindOrSizeIsNamed() {
        try (Buffer x = device().newBuffer(new float[64])) {
            EncodingException kind = assertThrows(EncodingException.class, () -> withOpenEncoder(References.RETAINED, Validation.CHECKED,
                    enc -> enc.setPipeline(scale).setInt(0, 1).setFloat(1, 1f).setInt(2, 64).dispatchThreads(Size.of(64), Size.of(8))));
            assertTrue(kind.getMessage().contains("argument 0 'x'") && kind.getMessage().contains("takes a buffer"), kind.getMessage());
            EncodingException size = assertThrows(EncodingException.class, () -> withOpenEncoder(References.RETAINED, Validation.CHECKED,
                    enc -> enc.setPipeline(scale).setBuffer(0, x).setDouble(1, 1.0).setInt(2, 64).dispatchThreads(Size.of(64), Size.of(8))));
            assertTrue(size.getMessage().contains("argument 1 'factor'") && size.getMessage().contains("takes 4 bytes, got 8"), size.getMessage());
            EncodingException count = assertThrows(EncodingException.class, () -> withOpenEncoder(References.RETAINED, Validation.CHECKED,
                    enc -> enc.setPipeline(inc).setBuffer(0, x).setInt(1, 3).dispatchThreads(Size.of(64), Size.of(8))));
            assertTrue(count.getMessage().contains("argument 1 is set") && count.getMessage().contains("takes 1 argument"), count.getMessage());
        }
    }

    @Test
    void aTypedScalarOfTheWrongKindIsRefusedNamingWhatWasGivenAndExpected() {
        try (Buffer x = device().newBuffer(new float[64])) {
            EncodingException intOnFloat = assertThrows(EncodingException.class, () -> withOpenEncoder(References.RETAINED, Validation.CHECKED,
                    enc -> enc.setPipeline(scale).setBuffer(0, x).setInt(1, 2).setInt(2, 64).dispatchThreads(Size.of(64), Size.of(8))));
            assertTrue(intOnFloat.getMessage().contains("(dispatch 'scale'): argument 1 'factor'")
                    && intOnFloat.getMessage().contains("takes a floating-point value")
                    && intOnFloat.getMessage().contains("got a 4-byte integer value (setInt)"), intOnFloat.getMessage());
            EncodingException floatOnInt = assertThrows(EncodingException.class, () -> withOpenEncoder(References.RETAINED, Validation.CHECKED,
                    enc -> enc.setPipeline(scale).setBuffer(0, x).setFloat(1, 2f).setFloat(2, 64f).dispatchThreads(Size.of(64), Size.of(8))));
            assertTrue(floatOnInt.getMessage().contains("argument 2 'n'") && floatOnInt.getMessage().contains("takes an integer")
                    && floatOnInt.getMessage().contains("got a 4-byte floating-point value (setFloat)"), floatOnInt.getMessage());
            // setBytes of the right size fits any value: the caller chose the bits
            CommandBuffer bytes = withOpenEncoder(References.RETAINED, Validation.CHECKED,
                    enc -> enc.setPipeline(scale).setBuffer(0, x).setBytes(1, new byte[4]).setInts(2, 64).dispatchThreads(Size.of(64), Size.of(8)));
            assertEquals(1, bytes.commandCount());
            assertEquals(ValueType.FLOAT, scale.arguments().get(1).valueType());
            assertEquals(ValueType.INTEGER, scale.arguments().get(2).valueType());
            assertEquals(ValueType.NONE, scale.arguments().get(0).valueType());
        }
    }

    @Test
    void threadgroupMemoryBeyondTheDevicesIsRefusedInEveryMode() {
        long max = device().info().maxThreadgroupMemoryLength();
        assertTrue(max > 0, device().info().toString());
        for (Validation v : Validation.values()) {
            EncodingException e = assertThrows(EncodingException.class, () -> withOpenEncoder(References.RETAINED, v,
                    enc -> enc.setPipeline(scale).setThreadgroupMemoryLength(0, 16L << 30)));
            assertTrue(e.getMessage().contains("length=" + (16L << 30) + " expected at most " + max), v + ": " + e.getMessage());
        }
    }

    @Test
    void badGridsAndOffsetsAreRefused() {
        try (Buffer x = device().newBuffer(new float[64])) {
            EncodingException zero = assertThrows(EncodingException.class, () -> withOpenEncoder(References.RETAINED, Validation.CHECKED,
                    enc -> enc.setPipeline(inc).setBuffer(0, x).dispatchThreads(Size.of(0), Size.of(8))));
            assertTrue(zero.getMessage().contains("no threads"), zero.getMessage());
            long tooMany = device().info().maxThreadsPerThreadgroup() * 2;
            EncodingException group = assertThrows(EncodingException.class, () -> withOpenEncoder(References.RETAINED, Validation.CHECKED,
                    enc -> enc.setPipeline(inc).setBuffer(0, x).dispatchThreads(Size.of(tooMany), Size.of(tooMany))));
            assertTrue(group.getMessage().contains("threadgroup"), group.getMessage());
            EncodingException beyond = assertThrows(EncodingException.class, () -> withOpenEncoder(References.RETAINED, Validation.CHECKED,
                    enc -> enc.setPipeline(inc).setBuffer(0, x).dispatchThreads(Size.of(device().info().maxGridSize().width() + 1), Size.of(8))));
            assertTrue(beyond.getMessage().contains("beyond"), beyond.getMessage());
            EncodingException offset = assertThrows(EncodingException.class, () -> withOpenEncoder(References.RETAINED, Validation.CHECKED,
                    enc -> enc.setPipeline(inc).setBuffer(0, x, 4096)));
            assertTrue(offset.getMessage().contains("argument 0 'x'") && offset.getMessage().contains("outside"), offset.getMessage());
        }
    }

    @Test
    void aGridThatIsNotAWholeNumberOfThreadgroupsIsRefusedInEveryModeSayingHowToCoverIt() {
        try (Buffer x = device().newBuffer(new float[1000])) {
            for (Validation v : Validation.values()) {
                EncodingException e = assertThrows(EncodingException.class, () -> withOpenEncoder(References.RETAINED, v,
                        enc -> enc.setPipeline(scale).setBuffer(0, x).setFloat(1, 2f).setInt(2, 1000).dispatchThreads(Size.of(1000), Size.of(256))));
                assertTrue(e.getMessage().contains("grid=1000 threadgroup=256 remainder=232")
                        && e.getMessage().contains("threadgroupsCovering") && e.getMessage().contains("dispatch 'scale'"), v + ": " + e.getMessage());
                EncodingException zero = assertThrows(EncodingException.class, () -> withOpenEncoder(References.RETAINED, v,
                        enc -> enc.setPipeline(scale).setBuffer(0, x).setFloat(1, 2f).setInt(2, 1000).dispatchThreads(Size.of(1000), Size.of(0))));
                assertTrue(zero.getMessage().contains("no threads in dimension 0"), v + ": " + zero.getMessage());
            }
            assertEquals(Size.of(4), Size.threadgroupsCovering(Size.of(1000), Size.of(256)));
            assertEquals(Size.of(4, 3), Size.threadgroupsCovering(Size.of(64, 33), Size.of(16, 16)));
            assertThrows(IllegalArgumentException.class, () -> Size.threadgroupsCovering(Size.of(10), Size.of(0)));
        }
    }

    @Test
    void threadCountsThatOverflowAreRefusedNotWrapped() {
        try (Buffer x = device().newBuffer(new float[64])) {
            for (Validation v : Validation.values()) {
                // (2^62 + 1) x 4 threads wraps to 4 in 64-bit arithmetic
                EncodingException e = assertThrows(EncodingException.class, () -> withOpenEncoder(References.RETAINED, v,
                        enc -> enc.setPipeline(inc).setBuffer(0, x).dispatchThreadgroups(Size.of((1L << 62) + 1), Size.of(4))));
                assertTrue(e.getMessage().contains("overflow in dimension 0") && e.getMessage().contains("groups=" + ((1L << 62) + 1)),
                        v + ": " + e.getMessage());
            }
            ArithmeticException count = assertThrows(ArithmeticException.class, () -> Size.of(1L << 32, 1L << 32).count());
            assertTrue(count.getMessage().contains("4294967296x4294967296"), count.getMessage());
            EncodingException group = assertThrows(EncodingException.class, () -> withOpenEncoder(References.RETAINED, Validation.CHECKED,
                    enc -> enc.setPipeline(inc).setBuffer(0, x).dispatchThreads(Size.of(1L << 31, 1L << 31, 1L << 31), Size.of(1L << 31, 1L << 31, 1L << 31))));
            assertTrue(group.getMessage().contains("has more than " + Long.MAX_VALUE + " threads"), group.getMessage());
        }
    }

    @Test
    void encodingAfterCommitAndCommittingTwiceAreRefused() {
        try (Buffer x = device().newBuffer(new float[64])) {
            CommandBuffer cb = queue.commandBuffer().label("once");
            ComputeEncoder e = cb.computeEncoder();
            e.setPipeline(inc).setBuffer(0, x).dispatchThreads(Size.of(64), Size.of(8));
            EncodingException open = assertThrows(EncodingException.class, cb::commit);
            assertTrue(open.getMessage().contains("ComputeEncoder"), open.getMessage());
            e.endEncoding();
            cb.commit();
            EncodingException twice = assertThrows(EncodingException.class, cb::commit);
            assertTrue(twice.getMessage().contains("'once' was already committed"), twice.getMessage());
            assertThrows(EncodingException.class, () -> e.dispatchThreads(Size.of(64), Size.of(8)));
            assertThrows(EncodingException.class, cb::computeEncoder);
            cb.waitUntilCompleted();
        }
    }

    @Test
    void aCommandTheDriverRefusesFailsTheCommandBufferNamingIt() {
        // a pipeline of its own: a kernel's arguments set by earlier tests would otherwise still be set
        try (Buffer x = device().newBuffer(new float[64]); ComputePipeline fresh = library.newPipeline("add")) {
            CommandBuffer cb = queue.commandBuffer(References.RETAINED, Validation.UNCHECKED).label("unchecked");
            try (ComputeEncoder e = cb.computeEncoder()) {
                e.setPipeline(inc).setBuffer(0, x).dispatchThreads(Size.of(64), Size.of(8));
                e.setPipeline(fresh).setBuffer(0, x).dispatchThreads(Size.of(64), Size.of(8)); // three arguments never set
            }
            cb.commit();
            CommandBufferException thrown = assertThrows(CommandBufferException.class, cb::waitUntilCompleted);
            assertEquals(CommandBufferStatus.ERROR, cb.status(), "the status stays queryable");
            CommandBufferException error = cb.error().orElseThrow();
            assertEquals(1, error.commandIndex());
            assertTrue(error.getMessage().contains("'unchecked' command 1 (dispatch 'add')"), error.getMessage());
            assertEquals(error.getMessage(), thrown.getMessage());
            assertEquals(1, thrown.commandIndex());
            assertSame(error, thrown.getCause());
            assertThrows(CommandBufferException.class, cb::waitUntilCompleted, "waiting again throws again");
            CompletionException failed = assertThrows(CompletionException.class, () -> cb.completion().join());
            assertSame(error, failed.getCause());
            // the command before it ran
            assertEquals(1f, x.contents().getAtIndex(ValueLayout.JAVA_FLOAT, 0));
        }
    }

    // ------------------------------------------------------------------ recorded command buffers

    @Test
    void aRecordingSubmittedSeveralTimesGivesWhatSeparateCommitsGive() {
        int n = 256;
        try (Buffer recorded = device().newBuffer(new float[n]); Buffer committed = device().newBuffer(new float[n])) {
            float[] out = new float[n];
            CommandBuffer cb = queue.commandBuffer().label("step");
            try (ComputeEncoder e = cb.computeEncoder()) {
                e.setPipeline(inc).setBuffer(0, recorded).dispatchThreads(Size.of(n), Size.of(64));
                e.setPipeline(scale).setBuffer(0, recorded).setFloat(1, 2f).setInt(2, n).dispatchThreads(Size.of(n), Size.of(64));
            }
            try (BlitEncoder b = cb.blitEncoder()) {
                b.read(recorded, 0, out);
            }
            try (RecordedCommands step = cb.record()) {
                assertEquals(3, step.commandCount());
                for (int run = 1; run <= 4; run++) {
                    CommandBuffer c = queue.commandBuffer();
                    try (ComputeEncoder e = c.computeEncoder()) {
                        e.setPipeline(inc).setBuffer(0, committed).dispatchThreads(Size.of(n), Size.of(64));
                        e.setPipeline(scale).setBuffer(0, committed).setFloat(1, 2f).setInt(2, n).dispatchThreads(Size.of(n), Size.of(64));
                    }
                    c.commit();
                    c.waitUntilCompleted();
                    CommandBuffer submitted = step.submit();
                    assertEquals(CommandBufferStatus.COMPLETED, submitted.waitUntilCompleted());
                    float expected = committed.contents().getAtIndex(ValueLayout.JAVA_FLOAT, 7);
                    assertEquals((1L << (run + 1)) - 2, (long) expected, "run " + run);
                    assertEquals(expected, recorded.contents().getAtIndex(ValueLayout.JAVA_FLOAT, 7), "run " + run);
                    assertEquals(expected, out[n - 1], "the recorded read delivers again, run " + run);
                }
                assertEquals(4, step.submissions());
            }
        }
    }

    @Test
    void aRecordingHoldsItsBuffersAndRefusesWhatItCannotRepeat() {
        Buffer x = device().newBuffer(new float[64]);
        CommandBuffer cb = queue.commandBuffer().label("held");
        try (ComputeEncoder e = cb.computeEncoder()) {
            e.setPipeline(inc).setBuffer(0, x).dispatchThreads(Size.of(64), Size.of(8));
            assertThrows(EncodingException.class, cb::record, "an encoder is open");
        }
        RecordedCommands step = cb.record();
        EncodingException twice = assertThrows(EncodingException.class, cb::commit);
        assertTrue(twice.getMessage().contains("'held' was recorded"), twice.getMessage());
        assertThrows(EncodingException.class, cb::record);
        x.close(); // the recording still holds it
        step.submit();
        step.submit();
        assertEquals(CommandBufferStatus.COMPLETED, step.submit().waitUntilCompleted());
        step.close();
        step.close();
        IllegalStateException after = assertThrows(IllegalStateException.class, step::submit);
        assertTrue(after.getMessage().contains("'held'") && after.getMessage().contains("closed"), after.getMessage());
        CommandBuffer committed = queue.commandBuffer();
        committed.commit();
        assertThrows(EncodingException.class, committed::record);
    }

    @Test
    void aCommandBufferForRecordingKeepsWhatItEncodedThoughItsOwnerFreesIt() {
        int n = 64;
        Buffer x = device().newBuffer(new float[n]);
        Buffer y = device().newBuffer(new float[n]);
        try {
            CommandBuffer cb = queue.commandBufferForRecording().label("captured");
            try (ComputeEncoder e = cb.computeEncoder()) {
                e.setPipeline(inc).setBuffer(0, x).dispatchThreads(Size.of(n), Size.of(8));
                e.setPipeline(add).setBuffer(0, x).setBuffer(1, x).setBuffer(2, y).setInt(3, n).dispatchThreads(Size.of(n), Size.of(8));
            }
            EncodingException commit = assertThrows(EncodingException.class, cb::commit);
            assertTrue(commit.getMessage().contains("made for recording"), commit.getMessage());
            float[] out = new float[n];
            try (BlitEncoder b = cb.blitEncoder()) {
                b.read(y, 0, out);
            }
            x.close(); // freed by its owner after encoding: the command buffer pinned it
            try (RecordedCommands step = cb.record()) {
                for (int run = 1; run <= 3; run++) {
                    step.submit().waitUntilCompleted();
                    assertEquals(2f * run, out[n - 1], "run " + run);
                }
            }
            CommandBuffer never = queue.commandBufferForRecording();
            try (ComputeEncoder e = never.computeEncoder()) {
                e.setPipeline(inc).setBuffer(0, y).dispatchThreads(Size.of(n), Size.of(8));
            }
            never.record().close(); // dropped without a submission: its pins go, nothing ran
            assertEquals(2f * 3, y.contents().getAtIndex(ValueLayout.JAVA_FLOAT, 0));
        } finally {
            x.close();
            y.close();
        }
    }

    @Test
    void severalThreadsWaitForOneCommandBufferWhichFinishesOnce() throws Exception {
        int n = 4096, dispatches = 20, waiters = 6;
        // a queue of its own: the memory its recording grows to goes with it
        try (Buffer x = device().newBuffer(new float[n]); CommandQueue own = device().newCommandQueue(2)) {
            CommandBuffer cb = own.commandBuffer();
            try (ComputeEncoder e = cb.computeEncoder()) {
                e.setPipeline(inc).setBuffer(0, x);
                for (int k = 0; k < dispatches; k++) e.dispatchThreads(Size.of(n), Size.of(64));
            }
            AtomicInteger handled = new AtomicInteger();
            List<Boolean> handlerThreadVirtual = new CopyOnWriteArrayList<>();
            cb.addCompletedHandler(status -> {
                handlerThreadVirtual.add(Thread.currentThread().isVirtual());
                handled.incrementAndGet();
            });
            CountDownLatch start = new CountDownLatch(1);
            List<CommandBufferStatus> seen = new CopyOnWriteArrayList<>();
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < waiters; t++) {
                Thread.Builder builder = t % 2 == 0 ? Thread.ofPlatform() : Thread.ofVirtual();
                threads.add(builder.start(() -> {
                    try {
                        start.await();
                        seen.add(cb.waitUntilCompleted());
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }));
            }
            cb.commit();
            start.countDown();
            for (Thread t : threads) t.join(10_000);
            assertEquals(java.util.Collections.nCopies(waiters, CommandBufferStatus.COMPLETED), seen);
            assertSame(cb, cb.completion().get(10, TimeUnit.SECONDS));
            for (int i = 0; i < 100 && handled.get() == 0; i++) Thread.sleep(10);
            Thread.sleep(50); // a second run of the handler would show here
            assertEquals(1, handled.get(), "the handler runs once, whoever finished the command buffer");
            assertEquals(List.of(true), handlerThreadVirtual, "handlers run on the queue's executor, not a driver thread");
            float[] out = x.contents().toArray(ValueLayout.JAVA_FLOAT);
            for (int i = 0; i < n; i++) assertEquals(dispatches, out[i], "element " + i);
        }
    }

    @Test
    void theFutureAskedForAfterCompletionIsAlreadyDone() throws Exception {
        try (Buffer x = device().newBuffer(new float[64])) {
            CommandBuffer cb = queue.commandBuffer();
            try (ComputeEncoder e = cb.computeEncoder()) {
                e.setPipeline(inc).setBuffer(0, x).dispatchThreads(Size.of(64), Size.of(8));
            }
            cb.commit();
            assertEquals(CommandBufferStatus.COMPLETED, cb.waitUntilCompleted());
            assertEquals(CommandBufferStatus.COMPLETED, cb.waitUntilCompleted(), "waiting again returns at once");
            assertTrue(cb.completion().isDone());
            assertSame(cb, cb.completion().get(1, TimeUnit.SECONDS));
            assertEquals(1f, x.contents().getAtIndex(ValueLayout.JAVA_FLOAT, 63));
        }
    }

    @Test
    void commandBuffersOfDifferentShapesOneAfterAnotherEachRunTheirOwnCommands() {
        int n = 256;
        try (Buffer x = device().newBuffer(ramp(n, 1f)); Buffer y = device().newBuffer(ramp(n, 1f))) {
            // the same pipeline on another buffer, then another value, then a different mix of commands
            run(e -> e.setPipeline(scale).setBuffer(0, x).setFloat(1, 2f).setInt(2, n).dispatchThreads(Size.of(n), Size.of(64)));
            run(e -> e.setPipeline(scale).setBuffer(0, y).setFloat(1, 2f).setInt(2, n).dispatchThreads(Size.of(n), Size.of(64)));
            run(e -> e.setPipeline(scale).setBuffer(0, x).setFloat(1, 3f).setInt(2, 8).dispatchThreads(Size.of(n), Size.of(64)));
            run(e -> {
                e.setPipeline(inc).setBuffer(0, y).dispatchThreads(Size.of(n), Size.of(32));
                e.setPipeline(scale).setBuffer(0, y).setFloat(1, 0.5f).setInt(2, n).dispatchThreads(Size.of(n), Size.of(64));
                e.dispatchThreads(Size.of(n), Size.of(64));
            });
            run(e -> e.setPipeline(scale).setBuffer(0, x).setFloat(1, 3f).setInt(2, 8).dispatchThreads(Size.of(n), Size.of(64)));
            float[] ox = x.contents().toArray(ValueLayout.JAVA_FLOAT), oy = y.contents().toArray(ValueLayout.JAVA_FLOAT);
            for (int i = 0; i < n; i++) {
                assertEquals(i < 8 ? i * 18f : i * 2f, ox[i], "x element " + i);
                assertEquals((i * 2f + 1f) / 4f, oy[i], "y element " + i);
            }
        }
    }

    @Test
    void afterACommandBufferTheDriverRefusedPartWayTheNextOneSetsItsArgumentsAfresh() {
        int n = 64;
        try (Buffer x = device().newBuffer(ramp(n, 1f)); Buffer y = device().newBuffer(ramp(n, 1f));
             ComputePipeline fresh = library.newPipeline("add")) {
            run(e -> e.setPipeline(scale).setBuffer(0, x).setFloat(1, 2f).setInt(2, n).dispatchThreads(Size.of(n), Size.of(8)));
            CommandBuffer refused = queue.commandBuffer(References.RETAINED, Validation.UNCHECKED);
            try (ComputeEncoder e = refused.computeEncoder()) {
                e.setPipeline(fresh).setBuffer(0, x).dispatchThreads(Size.of(n), Size.of(8)); // three arguments never set
                e.setPipeline(scale).setBuffer(0, y).setFloat(1, 5f).setInt(2, n).dispatchThreads(Size.of(n), Size.of(8)); // never runs
            }
            refused.commit();
            assertThrows(CommandBufferException.class, refused::waitUntilCompleted);
            assertEquals(CommandBufferStatus.ERROR, refused.status());
            assertEquals(0, refused.error().orElseThrow().commandIndex());
            // the same arguments as the command that never ran: they must still be set
            run(e -> e.setPipeline(scale).setBuffer(0, y).setFloat(1, 5f).setInt(2, n).dispatchThreads(Size.of(n), Size.of(8)));
            float[] ox = x.contents().toArray(ValueLayout.JAVA_FLOAT), oy = y.contents().toArray(ValueLayout.JAVA_FLOAT);
            for (int i = 0; i < n; i++) {
                assertEquals(i * 2f, ox[i], "x element " + i);
                assertEquals(i * 5f, oy[i], "y element " + i);
            }
        }
    }

    private void run(java.util.function.Consumer<ComputeEncoder> encode) {
        CommandBuffer cb = queue.commandBuffer();
        try (ComputeEncoder e = cb.computeEncoder()) {
            encode.accept(e);
        }
        cb.commit();
        assertEquals(CommandBufferStatus.COMPLETED, cb.waitUntilCompleted(), () -> cb.error().map(Throwable::getMessage).orElse(""));
    }

    // ------------------------------------------------------------------ threads

    @Test
    void eightThreadsEncodeAndCommitOnOneQueue() throws Exception {
        int threads = 8, rounds = 25, n = 4096;
        List<Buffer> buffers = new ArrayList<>();
        try {
            for (int t = 0; t < threads; t++) buffers.add(device().newBuffer(new float[n]));
            List<Throwable> failures = new CopyOnWriteArrayList<>();
            CountDownLatch start = new CountDownLatch(1);
            List<Thread> workers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                Buffer mine = buffers.get(t);
                float factor = t + 2;
                workers.add(Thread.ofPlatform().start(() -> {
                    try {
                        start.await();
                        for (int r = 0; r < rounds; r++) {
                            CommandBuffer cb = queue.commandBuffer();
                            try (ComputeEncoder e = cb.computeEncoder()) {
                                e.setPipeline(inc).setBuffer(0, mine).dispatchThreads(Size.of(n), Size.of(64));
                                e.setPipeline(scale).setBuffer(0, mine).setFloat(1, factor).setInt(2, n).dispatchThreads(Size.of(n), Size.of(64));
                                e.setFloat(1, 1f / factor).dispatchThreads(Size.of(n), Size.of(64));
                            }
                            cb.commit();
                            if (r % 5 == 4) assertEquals(CommandBufferStatus.COMPLETED, cb.waitUntilCompleted());
                        }
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                }));
            }
            start.countDown();
            for (Thread w : workers) w.join();
            queue.waitUntilIdle();
            assertEquals(List.of(), failures);
            for (int t = 0; t < threads; t++) {
                float[] out = buffers.get(t).contents().toArray(ValueLayout.JAVA_FLOAT);
                for (int i = 0; i < n; i++) assertEquals(rounds, out[i], 1e-3f, "thread " + t + " element " + i);
            }
        } finally {
            for (Buffer b : buffers) b.close();
        }
    }

    @Test
    void twoThreadsCommittingOneCommandBufferOneSucceedsTheKernelRunsOnceAndNoSlotIsLost() throws Exception {
        int rounds = 40;
        try (Buffer x = device().newBuffer(new float[64]); Buffer busy = device().newBuffer(new float[1 << 14]);
             CommandQueue own = device().newCommandQueue(1)) {
            for (int round = 0; round < rounds; round++) {
                // the queue's one slot taken: both commits find the queue full and wait for it there
                CommandBuffer blocker = own.commandBuffer();
                try (ComputeEncoder e = blocker.computeEncoder()) {
                    e.setPipeline(inc).setBuffer(0, busy);
                    for (int k = 0; k < 20; k++) e.dispatchThreads(Size.of(1 << 14), Size.of(64));
                }
                blocker.commit();
                CommandBuffer cb = own.commandBuffer().label("shared " + round);
                try (ComputeEncoder e = cb.computeEncoder()) {
                    e.setPipeline(inc).setBuffer(0, x).dispatchThreads(Size.of(64), Size.of(8));
                }
                CountDownLatch start = new CountDownLatch(1);
                AtomicInteger committed = new AtomicInteger();
                List<Throwable> refusals = new CopyOnWriteArrayList<>();
                List<Thread> threads = new ArrayList<>();
                for (int t = 0; t < 2; t++) {
                    threads.add(Thread.ofPlatform().start(() -> {
                        try {
                            start.await();
                            cb.commit();
                            committed.incrementAndGet();
                        } catch (Throwable refused) {
                            refusals.add(refused);
                        }
                    }));
                }
                start.countDown();
                for (Thread t : threads) t.join();
                assertEquals(1, committed.get(), "round " + round + ": " + refusals);
                assertEquals(1, refusals.size());
                assertInstanceOf(EncodingException.class, refusals.getFirst());
                assertTrue(refusals.getFirst().getMessage().contains("'shared " + round + "' was already committed"), refusals.getFirst().getMessage());
                assertEquals(CommandBufferStatus.COMPLETED, cb.waitUntilCompleted());
                assertEquals(0, own.inFlight(), "round " + round + ": a slot was lost");
            }
            for (float f : x.contents().toArray(ValueLayout.JAVA_FLOAT)) assertEquals(rounds, f, "the kernel ran once per round");
        }
    }

    @Test
    void closeRacingCommitsNeverBlocksAndEachCommitEitherRunsOrIsRefused() throws Exception {
        for (int round = 0; round < 10; round++) {
            CommandQueue racing = device().newCommandQueue(2);
            List<Buffer> buffers = new ArrayList<>();
            List<Thread> committers = new ArrayList<>();
            List<Throwable> failures = new CopyOnWriteArrayList<>();
            List<CommandBuffer> committed = new CopyOnWriteArrayList<>();
            AtomicInteger refused = new AtomicInteger();
            CountDownLatch start = new CountDownLatch(1);
            try {
                for (int t = 0; t < 4; t++) {
                    Buffer x = device().newBuffer(new float[64]);
                    buffers.add(x);
                    committers.add(Thread.ofPlatform().start(() -> {
                        try {
                            start.await();
                            while (true) {
                                CommandBuffer cb = racing.commandBuffer();
                                try (ComputeEncoder e = cb.computeEncoder()) {
                                    e.setPipeline(inc).setBuffer(0, x).dispatchThreads(Size.of(64), Size.of(8));
                                }
                                cb.commit();
                                committed.add(cb);
                            }
                        } catch (IllegalStateException closed) {
                            if (!closed.getMessage().contains("closed")) failures.add(closed);
                            refused.incrementAndGet();
                        } catch (Throwable t2) {
                            failures.add(t2);
                        }
                    }));
                }
                start.countDown();
                Thread.sleep(round % 4);
                Thread closer = Thread.ofPlatform().start(racing::close);
                closer.join(60_000);
                assertFalse(closer.isAlive(), "close() blocked while commits raced it");
                for (Thread t : committers) {
                    t.join(60_000);
                    assertFalse(t.isAlive(), "a commit blocked while close() raced it");
                }
                assertEquals(List.of(), failures);
                assertEquals(4, refused.get(), "every committer ends refused by the closed queue");
                for (CommandBuffer cb : committed) assertEquals(CommandBufferStatus.COMPLETED, cb.status(), cb.toString());
                long total = 0;
                for (Buffer b : buffers) total += (long) b.contents().getAtIndex(ValueLayout.JAVA_FLOAT, 0);
                assertEquals(committed.size(), total, "every committed command buffer ran once, none other");
            } finally {
                racing.close();
                for (Buffer b : buffers) b.close();
            }
        }
    }

    // ------------------------------------------------------------------ native commands

    @Test
    void aNativeCommandIsCalledOnceAtCommitOnTheCommittingThreadWithTheQueueAndItsDeclaredBuffers() {
        try (CommandQueue own = device().newCommandQueue(2); Buffer x = device().newBuffer(new float[64]);
             Buffer undeclared = device().newBuffer(64, StorageMode.SHARED)) {
            List<String> seen = new CopyOnWriteArrayList<>();
            AtomicInteger calls = new AtomicInteger();
            Thread committer = Thread.currentThread();
            CommandBuffer cb = own.commandBuffer().label("native");
            try (ComputeEncoder e = cb.computeEncoder()) {
                e.setPipeline(inc).setBuffer(0, x).dispatchThreads(Size.of(64), Size.of(8));
            }
            cb.encodeNative("look", List.of(x), on -> {
                calls.incrementAndGet();
                if (Thread.currentThread() != committer) seen.add("called on " + Thread.currentThread());
                if (on.api() == null || on.api().isBlank()) seen.add("no api");
                if (on.handle().address() == 0) seen.add("a NULL queue handle");
                if (on.bufferHandle(x).address() == 0) seen.add("a NULL buffer handle");
                try {
                    on.bufferHandle(undeclared);
                    seen.add("an undeclared buffer's handle was given");
                } catch (IllegalArgumentException refused) {
                    if (!refused.getMessage().contains("native command 'look'")) seen.add("the refusal does not name the command: " + refused.getMessage());
                }
            });
            try (ComputeEncoder e = cb.computeEncoder()) {
                e.setPipeline(inc).setBuffer(0, x).dispatchThreads(Size.of(64), Size.of(8));
            }
            assertEquals(0, calls.get(), "encoding calls nothing");
            cb.commit();
            assertEquals(CommandBufferStatus.COMPLETED, cb.waitUntilCompleted());
            assertEquals(1, calls.get());
            assertEquals(List.of(), seen);
            assertEquals(2f, x.contents().getAtIndex(ValueLayout.JAVA_FLOAT, 63), "the dispatches around it ran");
        }
    }

    @Test
    void aThrowingNativeCommandFailsItsCommandBufferNamingItAndTheCommandsAfterItDoNotRun() {
        try (CommandQueue own = device().newCommandQueue(2); Buffer x = device().newBuffer(new float[64])) {
            CommandBuffer cb = own.commandBuffer().label("native failure");
            try (ComputeEncoder e = cb.computeEncoder()) {
                e.setPipeline(inc).setBuffer(0, x).dispatchThreads(Size.of(64), Size.of(8));
            }
            cb.encodeNative("refuse", List.of(), on -> {
                throw new UnsupportedOperationException("not today");
            });
            try (ComputeEncoder e = cb.computeEncoder()) {
                e.setPipeline(inc).setBuffer(0, x).dispatchThreads(Size.of(64), Size.of(8));
            }
            cb.commit();
            CommandBufferException failed = assertThrows(CommandBufferException.class, cb::waitUntilCompleted);
            assertTrue(failed.getMessage().startsWith("command buffer 'native failure' command 1 (native command 'refuse'): "), failed.getMessage());
            assertTrue(failed.getMessage().contains("not today"), failed.getMessage());
            assertEquals(1, failed.commandIndex());
            assertEquals(CommandBufferStatus.ERROR, cb.status());
            assertEquals(1f, x.contents().getAtIndex(ValueLayout.JAVA_FLOAT, 0), "the dispatch before it ran, the one after it did not");
            CommandBuffer next = own.commandBuffer();
            try (ComputeEncoder e = next.computeEncoder()) {
                e.setPipeline(inc).setBuffer(0, x).dispatchThreads(Size.of(64), Size.of(8));
            }
            next.commit();
            assertEquals(CommandBufferStatus.COMPLETED, next.waitUntilCompleted(), "the queue goes on");
            assertEquals(2f, x.contents().getAtIndex(ValueLayout.JAVA_FLOAT, 0));
        }
    }

    @Test
    void aNativeCommandsClosedBufferIsRefusedWhenEncodedInEveryMode() {
        Buffer closed = device().newBuffer(64, StorageMode.SHARED);
        closed.close();
        for (Validation validation : Validation.values()) {
            CommandBuffer cb = queue.commandBuffer(References.RETAINED, validation).label("closed");
            EncodingException e = assertThrows(EncodingException.class, () -> cb.encodeNative("gemm", List.of(closed), on -> { }));
            assertEquals("command buffer 'closed' command 0 (native command 'gemm'): " + closed.describe() + " is closed", e.getMessage());
            assertEquals(0, cb.commandCount());
        }
    }
}
