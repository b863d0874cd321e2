package dev.panamax.opencl.misuse;

import dev.panamax.core.batch.Batch;
import dev.panamax.core.batch.BatchMode;
import dev.panamax.core.memory.HandleReleasedException;
import dev.panamax.core.memory.NativeBuffer;
import dev.panamax.core.memory.NativeHandle;
import dev.panamax.opencl.OpenCl;
import dev.panamax.opencl.binding.CL;
import dev.panamax.opencl.binding.CLApi;
import dev.panamax.opencl.binding.CLThunks;
import dev.panamax.opencl.binding.ClKernel;
import dev.panamax.opencl.binding.ClMem;
import dev.panamax.opencl.binding.ClProgram;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * A random sequence of handle operations from 8 threads over shared OpenCL buffers and kernels and
 * core {@link NativeBuffer}s: create, use in typed calls, retain, release (the handle's and the typed
 * layer's), close, take new references, record into batches, replay and close the batches, all racing.
 * Every operation must succeed or end in the exception a released handle gives; at the end every handle
 * is closed and none may be left open.
 *
 * <p>Arguments: seed, threads (8), operations per thread (1,000). The seed is printed first; the same
 * seed draws the same operations per thread (their interleaving is the scheduler's).
 */
public final class RandomSequences {
    private static final int SLOTS = 32;
    private static final long BYTES = 256;
    private static final String[] OPS = {"createBuffer", "createCoreBuffer", "use", "useCore", "retain", "release",
            "typedRetain", "typedRelease", "close", "newReference", "kernel", "record", "replay", "closeBatch", "finish"};

    private final Device device;
    private final ClProgram program;
    private final AtomicReferenceArray<NativeHandle> slots = new AtomicReferenceArray<>(SLOTS);
    private final Queue<NativeHandle> made = new ConcurrentLinkedQueue<>();
    private final AtomicLongArray counts = new AtomicLongArray(OPS.length * 2);

    private RandomSequences(Device device) {
        this.device = device;
        this.program = device.program();
    }

    public static void main(String[] args) throws Exception {
        long seed = args.length > 0 ? Long.parseLong(args[0]) : new Random().nextLong();
        int threads = args.length > 1 ? Integer.parseInt(args[1]) : 8;
        int ops = args.length > 2 ? Integer.parseInt(args[2]) : 1_000;
        System.out.println("random sequence: seed=" + seed + " threads=" + threads + " opsPerThread=" + ops);
        try (Device d = new Device()) {
            RandomSequences r = new RandomSequences(d);
            try {
                r.run(seed, threads, ops);
            } finally {
                r.closeEverything();
            }
            System.out.println("random sequence: seed=" + seed + " " + r.summary());
        }
    }

    private void run(long seed, int threads, int ops) throws InterruptedException {
        CountDownLatch start = new CountDownLatch(1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            SplittableRandom random = new SplittableRandom(seed * 1_000_003L + t);
            workers.add(Thread.ofPlatform().name("sequence-" + t).start(() -> {
                try (Arena arena = Arena.ofConfined()) {
                    Worker w = new Worker(random, arena);
                    start.await();
                    try {
                        for (int i = 0; i < ops; i++) w.step(i);
                    } finally {
                        w.closeBatch();
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }));
        }
        start.countDown();
        for (Thread w : workers) w.join();
        if (failure.get() != null) throw new AssertionError("seed " + seed + " failed", failure.get());
    }

    /** One thread's operations; its batch is its own (a batch belongs to the thread that made it). */
    private final class Worker {
        private final SplittableRandom random;
        private final MemorySegment info;
        private final MemorySegment pattern;
        private final MemorySegment global;
        private Batch batch;

        Worker(SplittableRandom random, Arena arena) {
            this.random = random;
            this.info = arena.allocate(8);
            this.pattern = arena.allocateFrom(ValueLayout.JAVA_FLOAT, 1f);
            this.global = arena.allocateFrom(ValueLayout.JAVA_LONG, BYTES / Float.BYTES);
        }

        void step(int i) {
            int op = random.nextInt(OPS.length);
            int slot = random.nextInt(SLOTS);
            try {
                run(op, slot);
                counts.incrementAndGet(op * 2);
            } catch (HandleReleasedException released) {
                counts.incrementAndGet(op * 2 + 1);
            } catch (IllegalStateException closing) {
                // a core buffer's segment closed by another thread, or a release refused while a native call holds it
                String m = String.valueOf(closing.getMessage());
                if (!m.contains("closed") && !m.contains("in use by a native call")) throw closing;
                counts.incrementAndGet(op * 2 + 1);
            }
        }

        private void run(int op, int slot) {
            NativeHandle h = slots.get(slot);
            switch (OPS[op]) {
                case "createBuffer" -> put(slot, device.buffer(BYTES));
                case "createCoreBuffer" -> put(slot, NativeBuffer.allocate(BYTES));
                case "use" -> {
                    if (h instanceof ClMem m) {
                        CLApi.clGetMemObjectInfo(m, CL.CL_MEM_SIZE, 8, info, (long[]) null);
                        if (info.get(ValueLayout.JAVA_LONG, 0) != BYTES) throw new AssertionError("wrong size");
                    }
                }
                case "useCore" -> {
                    if (h instanceof NativeBuffer b) b.segment().set(ValueLayout.JAVA_LONG, 8, slot);
                }
                case "retain" -> {
                    if (h != null) h.retain();
                }
                case "release" -> {
                    if (h != null) h.release();
                }
                case "typedRetain" -> {
                    if (h instanceof ClMem m) CLApi.clRetainMemObject(m);
                }
                case "typedRelease" -> {
                    if (h instanceof ClMem m) CLApi.clReleaseMemObject(m);
                }
                case "close" -> {
                    if (h != null) h.close();
                }
                case "newReference" -> {
                    if (h instanceof ClMem m) put(random.nextInt(SLOTS), m.newReference());
                }
                case "kernel" -> {
                    if (h instanceof ClMem m) {
                        // a kernel does not keep its arguments alive (OpenCL leaves that to the caller): it gets a reference of its own
                        try (ClMem own = m.newReference(); ClKernel k = CLApi.clCreateKernel(program, "scale")) {
                            OpenCl.setArg(k, 0, own);
                            CLApi.clEnqueueNDRangeKernel(device.queue, k, 1, null, global, null, null, null);
                            CLApi.clFinish(device.queue);
                        }
                    }
                }
                case "record" -> {
                    if (h instanceof ClMem m) {
                        if (batch == null) batch = Batch.create(BatchMode.STANDARD);
                        CLThunks.clEnqueueFillBuffer.record(batch, device.queue, m, pattern, Float.BYTES, 0, BYTES, 0, null, null);
                    }
                }
                case "replay" -> {
                    if (batch != null) {
                        batch.run();
                        CLApi.clFinish(device.queue);
                    }
                }
                case "closeBatch" -> closeBatch();
                case "finish" -> CLApi.clFinish(device.queue);
                default -> throw new IllegalStateException(OPS[op]);
            }
        }

        void closeBatch() {
            if (batch != null) {
                batch.close();
                batch = null;
            }
        }
    }

    private void put(int slot, NativeHandle h) {
        made.add(h);
        slots.set(slot, h);
    }

    private void closeEverything() {
        for (NativeHandle h : made) h.close();
        program.close();
    }

    private String summary() {
        StringBuilder b = new StringBuilder();
        long total = 0;
        for (int i = 0; i < OPS.length; i++) {
            long ok = counts.get(i * 2);
            long refused = counts.get(i * 2 + 1);
            total += ok + refused;
            b.append(OPS[i]).append('=').append(ok).append('/').append(refused).append(' ');
        }
        return "operations=" + total + " (done/refused) " + b.toString().strip();
    }
}
