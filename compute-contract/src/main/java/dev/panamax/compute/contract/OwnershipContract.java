package dev.panamax.compute.contract;

import dev.panamax.compute.Buffer;
import dev.panamax.compute.CommandBuffer;
import dev.panamax.compute.CommandBufferStatus;
import dev.panamax.compute.CommandQueue;
import dev.panamax.compute.ComputeDevice;
import dev.panamax.compute.ComputeEncoder;
import dev.panamax.compute.ComputePipeline;
import dev.panamax.compute.Library;
import dev.panamax.compute.References;
import dev.panamax.compute.Size;
import dev.panamax.compute.StorageMode;
import dev.panamax.compute.Validation;
import dev.panamax.core.memory.LeakDetection;
import dev.panamax.core.memory.LeakListener;
import dev.panamax.core.memory.LeakReport;
import dev.panamax.core.memory.NativeMemory;
import dev.panamax.core.memory.NativeScope;
import dev.panamax.core.memory.Outstanding;
import dev.panamax.tensor.Tensor;
import dev.panamax.tensor.TensorScope;
import dev.panamax.testsupport.AllowNativeLeaks;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Who owns a compute object, as every backend must honour it: the object belongs to its maker alone
 * (a {@link NativeScope} or {@link TensorScope} open when it was made does not take it), work in
 * flight keeps what it uses until the device is done whatever the GC sees, and the GC frees what is
 * dropped (libraries, queues). One subclass per backend gives its {@link #device()},
 * {@link #kernels()} and {@link #holdKernel()}. Runs under the leak extension at PARANOID; the tests
 * that drop objects on purpose say so.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class OwnershipContract {
    /** How long a test lets the GC take to free what it dropped. */
    private static final long GC_PATIENCE_SECONDS = 30;

    protected abstract ComputeDevice device();

    /** The contract's kernels in the backend's language (only {@code vectorAdd} is used here). */
    protected abstract ComputeContract.Kernels kernels();

    /**
     * {@code hold(flag, out)} in the backend's language, run on one thread: waits until the host sets
     * {@code flag[0]} (an int in a SHARED buffer) to non-zero, then sets {@code out[0] = 42} (int). It
     * keeps a run in flight for as long as the test needs.
     */
    protected abstract String holdKernel();

    private static final int N = 256;

    private Library library;
    private ComputePipeline add;

    @BeforeAll
    void buildTheLibrary() {
        library = device().newLibrary(kernels().vectorAdd());
        add = library.newPipeline("add");
    }

    @AfterAll
    void closeTheLibrary() {
        if (add != null) add.close();
        if (library != null) library.close();
    }

    // ------------------------------------------------------------------ objects made inside scopes

    /** The objects one vector addition needs, made together. */
    private record AddSetup(CommandQueue queue, Library library, ComputePipeline add, Buffer a, Buffer b, Buffer c) implements AutoCloseable {
        static AddSetup make(ComputeDevice device, String source) {
            CommandQueue queue = device.newCommandQueue(2);
            Library library = device.newLibrary(source);
            ComputePipeline add = library.newPipeline("add");
            Buffer a = device.newBuffer(N * 4L, StorageMode.SHARED);
            Buffer b = device.newBuffer(N * 4L, StorageMode.SHARED);
            Buffer c = device.newBuffer(N * 4L, StorageMode.SHARED);
            for (int i = 0; i < N; i++) {
                a.contents().setAtIndex(ValueLayout.JAVA_FLOAT, i, i);
                b.contents().setAtIndex(ValueLayout.JAVA_FLOAT, i, 1000);
            }
            return new AddSetup(queue, library, add, a, b, c);
        }

        /** c = a + b, run and checked. */
        void runAndCheck() {
            c.contents().fill((byte) 0);
            CommandBuffer cb = queue.commandBuffer();
            try (ComputeEncoder e = cb.computeEncoder()) {
                e.setPipeline(add).setBuffer(0, a).setBuffer(1, b).setBuffer(2, c).setInt(3, N).dispatchThreads(Size.of(N), Size.of(64));
            }
            cb.commit();
            assertEquals(CommandBufferStatus.COMPLETED, cb.waitUntilCompleted(), () -> String.valueOf(cb.error()));
            for (int i = 0; i < N; i++) assertEquals(1000f + i, c.contents().getAtIndex(ValueLayout.JAVA_FLOAT, i), "c[" + i + "]");
        }

        @Override
        public void close() {
            c.close();
            b.close();
            a.close();
            add.close();
            library.close();
            queue.close();
        }
    }

    @Test
    void everyComputeObjectMadeInsideANativeScopeOutlivesItAndWorksAfterItCloses() {
        AddSetup made;
        try (NativeScope _ = NativeScope.open()) {
            made = AddSetup.make(device(), kernels().vectorAdd());
            made.runAndCheck();
        }
        try (AddSetup s = made) {
            assertFalse(s.a().isFreed() || s.c().isFreed() || s.library().isFreed() || s.add().isFreed(), "the scope took none of them");
            s.runAndCheck();
            s.runAndCheck();
            assertBlockNotSharedWithANewBuffer(s.c());
        }
    }

    @Test
    void everyComputeObjectMadeInsideATensorScopeOutlivesItWhileTheScopesTensorsGo() {
        AddSetup made;
        Tensor temporary;
        try (TensorScope _ = TensorScope.open()) {
            temporary = Tensor.ones(16).mul(2);
            made = AddSetup.make(device(), kernels().vectorAdd());
            made.runAndCheck();
        }
        assertTrue(temporary.isFreed(), "the scope's own tensors are freed with it");
        try (AddSetup s = made) {
            s.runAndCheck();
            assertBlockNotSharedWithANewBuffer(s.c());
        }
    }

    /** Writes a new buffer of {@code kept}'s size and checks {@code kept} did not change: the two have different memory. */
    private void assertBlockNotSharedWithANewBuffer(Buffer kept) {
        try (Buffer fresh = device().newBuffer(kept.length(), StorageMode.SHARED)) {
            fresh.contents().fill((byte) 0x7f);
            for (int i = 0; i < N; i++) assertEquals(1000f + i, kept.contents().getAtIndex(ValueLayout.JAVA_FLOAT, i),
                    "a write to a new buffer landed in " + kept.describe() + " at element " + i);
        }
    }

    // ------------------------------------------------------------------ work in flight

    @Test
    @AllowNativeLeaks("the queue, its command buffer and two buffers are dropped unclosed on purpose: the GC frees them and reports them")
    void aBufferDroppedWhileACommittedKernelStillWritesItKeepsItsMemoryUntilTheDeviceIsDone() throws InterruptedException {
        try (Library holdLibrary = device().newLibrary(holdKernel());
             ComputePipeline hold = holdLibrary.newPipeline("hold")) {
            // RETAINED: the command buffer's references; UNRETAINED: nothing but the run itself holds the buffer
            for (References references : References.values()) droppedInFlight(hold, references);
        }
    }

    private void droppedInFlight(ComputePipeline hold, References references) throws InterruptedException {
        try (Buffer flag = device().newBuffer(64, StorageMode.SHARED)) {
            flag.contents().fill((byte) 0);
            for (int i = 0; i < 3; i++) gcOnce(); // what earlier tests dropped goes first, so the count below is this test's
            long before = liveBuffers();
            Buffer next = null;
            try {
                commitHoldAndDropEverything(hold, flag, references);
                // the control (dropped, used by nothing) goes; the buffer the held kernel writes must not
                assertTrue(gcUntil(() -> liveBuffers() <= before + 1),
                        references + ": the GC did not free the unused dropped buffer: live=" + liveBuffers() + " before=" + before);
                for (int i = 0; i < 5; i++) gcOnce();
                assertEquals(before + 1, liveBuffers(), references + ": the buffer a committed kernel still writes was freed while the device runs");
                // a new buffer of its size must not get its memory: the kernel's write would land in it
                next = device().newBuffer(1 << 20, StorageMode.SHARED);
                next.contents().fill((byte) 7);
            } finally {
                flag.contents().set(ValueLayout.JAVA_INT, 0, 1); // lets the kernel finish, whatever happened above
            }
            try (Buffer fresh = next) {
                assertTrue(gcUntil(() -> liveBuffers() <= before + 1),
                        references + ": the dropped buffer is freed once the device is done: live=" + liveBuffers() + " before=" + before);
                for (int i = 0; i < 16; i++) assertEquals(7, fresh.contents().get(ValueLayout.JAVA_BYTE, i),
                        references + ": the held kernel's write landed in a new buffer at byte " + i);
            }
        }
    }

    /** A queue, a buffer the held kernel writes (1 MiB), and an unused control buffer (64 KiB): committed, then all dropped. */
    private void commitHoldAndDropEverything(ComputePipeline hold, Buffer flag, References references) {
        CommandQueue queue = device().newCommandQueue(1);
        Buffer written = device().newBuffer(1 << 20, StorageMode.SHARED);
        Buffer control = device().newBuffer(1 << 16, StorageMode.SHARED);
        control.contents().fill((byte) 1);
        CommandBuffer cb = queue.commandBuffer(references, Validation.CHECKED);
        try (ComputeEncoder e = cb.computeEncoder()) {
            e.setPipeline(hold).setBuffer(0, flag).setBuffer(1, written).dispatchThreads(Size.of(1), Size.of(1));
        }
        cb.commit();
    }

    // ------------------------------------------------------------------ what the GC frees

    @Test
    @AllowNativeLeaks("the library is dropped unclosed on purpose: the GC frees it and reports it")
    void theGcFreesADroppedLibraryAndItsPipelines() throws InterruptedException {
        long checkpoint = NativeMemory.checkpoint();
        List<LeakReport> leaks = new CopyOnWriteArrayList<>();
        LeakListener listener = leaks::add;
        LeakDetection.addListener(listener);
        try {
            makeAndDropALibrary();
            assertTrue(gcUntil(() -> NativeMemory.outstandingSince(checkpoint).isEmpty()),
                    () -> "a dropped library is still held: " + describe(NativeMemory.outstandingSince(checkpoint)));
            assertTrue(gcUntil(() -> !leaks.isEmpty()), "the dropped library was not reported as a leak"); // reported just after the release
        } finally {
            LeakDetection.removeListener(listener);
        }
        assertLeaksNameTheCaller(leaks, "makeAndDropALibrary");
    }

    private void makeAndDropALibrary() {
        // a source of its own, so the library does not share its program with the suite's
        Library dropped = device().newLibrary(kernels().vectorAdd() + "\n// dropped " + System.nanoTime() + "\n");
        ComputePipeline pipeline = dropped.newPipeline("add");
        assertEquals("add", pipeline.name());
    }

    @Test
    @AllowNativeLeaks("the queue is dropped unclosed on purpose: the GC frees it and reports it")
    void theGcFreesADroppedQueueAndEverythingItKept() throws InterruptedException {
        long checkpoint = NativeMemory.checkpoint();
        List<LeakReport> leaks = new CopyOnWriteArrayList<>();
        LeakListener listener = leaks::add;
        LeakDetection.addListener(listener);
        try {
            try (Buffer a = device().newBuffer(N * 4L, StorageMode.SHARED);
                 Buffer b = device().newBuffer(N * 4L, StorageMode.SHARED);
                 Buffer c = device().newBuffer(N * 4L, StorageMode.SHARED)) {
                useAndDropAQueue(a, b, c);
            }
            assertTrue(gcUntil(() -> NativeMemory.outstandingSince(checkpoint).isEmpty()),
                    () -> "a dropped queue is still held: " + describe(NativeMemory.outstandingSince(checkpoint)));
            assertTrue(gcUntil(() -> !leaks.isEmpty()), "the dropped queue was not reported as a leak"); // reported just after the release
        } finally {
            LeakDetection.removeListener(listener);
        }
        assertLeaksNameTheCaller(leaks, "useAndDropAQueue");
    }

    /** Every leak reported is the dropped object's, and names the line that made it (not the backend's). */
    private static void assertLeaksNameTheCaller(List<LeakReport> leaks, String method) {
        for (LeakReport r : leaks) {
            assertTrue(r.allocationSite().contains(OwnershipContract.class.getSimpleName() + "." + method),
                    () -> "a leak report names " + r.allocationSite() + " instead of the caller: " + r.describe());
        }
    }

    private void useAndDropAQueue(Buffer a, Buffer b, Buffer c) {
        CommandQueue queue = device().newCommandQueue(2);
        for (int round = 0; round < 3; round++) {
            CommandBuffer cb = queue.commandBuffer();
            try (ComputeEncoder e = cb.computeEncoder()) {
                e.setPipeline(add).setBuffer(0, a).setBuffer(1, b).setBuffer(2, c).setInt(3, N).dispatchThreads(Size.of(N), Size.of(64));
            }
            float[] read = new float[N];
            try (var blit = cb.blitEncoder()) {
                blit.read(c, 0, read);
            }
            cb.commit();
            assertEquals(CommandBufferStatus.COMPLETED, cb.waitUntilCompleted());
        }
        // and one left committed, nobody waiting
        CommandBuffer last = queue.commandBuffer();
        try (ComputeEncoder e = last.computeEncoder()) {
            e.setPipeline(add).setBuffer(0, a).setBuffer(1, b).setBuffer(2, c).setInt(3, N).dispatchThreads(Size.of(N), Size.of(64));
        }
        last.commit();
    }

    // ------------------------------------------------------------------ helpers

    private long liveBuffers() {
        return device().memoryStats().liveBuffers();
    }

    private static void gcOnce() throws InterruptedException {
        System.gc();
        NativeMemory.cleanUnreachable();
        Thread.sleep(10);
    }

    /** Runs the GC until {@code done} holds, for at most {@value #GC_PATIENCE_SECONDS} seconds; whether it came to hold. */
    protected static boolean gcUntil(BooleanSupplier done) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(GC_PATIENCE_SECONDS);
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > deadline) return false;
            gcOnce();
        }
        return true;
    }

    private static String describe(List<Outstanding> outstanding) {
        StringBuilder b = new StringBuilder();
        for (Outstanding o : outstanding) b.append("\n  ").append(o.describe());
        return b.toString();
    }
}
