package dev.panamax.opencl.misuse;

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
import dev.panamax.core.memory.NativeMemory;
import dev.panamax.core.memory.NativeScope;
import dev.panamax.tensor.Tensor;
import dev.panamax.tensor.TensorScope;

import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Random ownership sequences on several threads at once: compute objects made inside native and
 * tensor scopes and used after them, queues and buffers dropped while their command buffers run
 * (RETAINED and UNRETAINED), libraries closed or dropped, GCs in between. Every waited result is
 * checked exactly, and each thread's sentinel buffer is checked after every operation: a block handed
 * to it while a dropped run still wrote it would show there. At the end the GC frees everything that
 * was dropped. Arguments: seed, threads, operations per thread.
 */
public final class OwnershipSequences {
    static final int N = 256;

    public static void main(String[] args) throws Exception {
        long seed = Long.parseLong(args[0]);
        int threads = Integer.parseInt(args[1]);
        int ops = Integer.parseInt(args[2]);
        ComputeDevice device = ComputeDevice.systemDefault();
        long checkpoint = NativeMemory.checkpoint();
        try (Library library = device.newLibrary(Device.KERNEL); ComputePipeline scale = library.newPipeline("scale")) {
            try (ExecutorService pool = Executors.newFixedThreadPool(threads)) {
                List<Future<?>> done = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    int thread = t;
                    done.add(pool.submit(() -> {
                        new Worker(device, scale, new Random(seed * 31 + thread), 3f + thread).run(ops);
                        return null;
                    }));
                }
                for (Future<?> f : done) f.get();
            }
        }
        long deadline = System.nanoTime() + 60_000_000_000L;
        while ((device.memoryStats().liveBuffers() > 0 || !NativeMemory.outstandingSince(checkpoint).isEmpty()) && System.nanoTime() < deadline) {
            System.gc();
            NativeMemory.cleanUnreachable();
            Thread.sleep(20);
        }
        if (device.memoryStats().liveBuffers() > 0 || !NativeMemory.outstandingSince(checkpoint).isEmpty())
            throw new AssertionError("dropped objects were not freed: liveBuffers=" + device.memoryStats().liveBuffers()
                    + " outstanding=" + NativeMemory.outstandingSince(checkpoint).stream().map(o -> o.describe()).toList());
        System.out.println("ownership sequence done: seed=" + seed + " threads=" + threads + " ops=" + ops);
    }

    private static final class Worker {
        private final ComputeDevice device;
        private final ComputePipeline scale;
        private final Random random;
        private final float mark;
        private Buffer sentinel;

        Worker(ComputeDevice device, ComputePipeline scale, Random random, float mark) {
            this.device = device;
            this.scale = scale;
            this.random = random;
            this.mark = mark;
        }

        void run(int ops) throws Exception {
            try (CommandQueue own = device.newCommandQueue(1 + random.nextInt(3))) {
                for (int op = 0; op < ops; op++) {
                    if (sentinel == null || random.nextInt(20) == 0) newSentinel();
                    int pick = random.nextInt(100);
                    String what;
                    if (pick < 30) what = scopedRun();
                    else if (pick < 50) what = dropInFlight();
                    else if (pick < 58) what = libraryChurn();
                    else if (pick < 63) {
                        System.gc();
                        what = "gc";
                    } else what = plainRun(own);
                    check(sentinel, mark, "(the sentinel) after op " + op + " (" + what + ")");
                }
            } finally {
                if (sentinel != null) sentinel.close();
            }
        }

        private void newSentinel() {
            if (sentinel != null) sentinel.close();
            sentinel = device.newBuffer(N * 4L << random.nextInt(3), StorageMode.SHARED);
            for (long i = 0; i < sentinel.length() / 4; i++) sentinel.contents().setAtIndex(ValueLayout.JAVA_FLOAT, i, mark);
        }

        /** Objects made inside a scope of a random kind (or none), used after it closes, then closed or dropped. */
        private String scopedRun() {
            int kind = random.nextInt(3);
            CommandQueue queue;
            Buffer x;
            AutoCloseable scope = kind == 0 ? NativeScope.open() : kind == 1 ? TensorScope.open() : null;
            try {
                if (kind == 1) Tensor.ones(4).add(1);
                queue = device.newCommandQueue(1 + random.nextInt(2));
                x = filled(1f);
            } finally {
                closeQuietly(scope);
            }
            runAndCheck(queue, x, 2f);
            if (random.nextBoolean()) x.close();
            if (random.nextBoolean()) queue.close();
            return "scoped run, scope kind " + kind;
        }

        /** A queue and a buffer dropped, unclosed, while their command buffer may still run. */
        private String dropInFlight() {
            CommandQueue queue = device.newCommandQueue(1);
            Buffer x = filled(1f);
            References references = random.nextBoolean() ? References.RETAINED : References.UNRETAINED;
            CommandBuffer cb = queue.commandBuffer(references, Validation.CHECKED);
            try (ComputeEncoder e = cb.computeEncoder()) {
                for (int i = 0; i < 1 + random.nextInt(8); i++)
                    e.setPipeline(scale).setBuffer(0, x).dispatchThreads(Size.of(x.length() / 4), Size.of(64));
            }
            cb.commit();
            return "dropped in flight, " + references;
        }

        private String libraryChurn() {
            Library library = device.newLibrary(Device.KERNEL);
            ComputePipeline p = library.newPipeline("scale");
            Buffer x = filled(1f);
            try (CommandQueue queue = device.newCommandQueue(1)) {
                CommandBuffer cb = queue.commandBuffer();
                try (ComputeEncoder e = cb.computeEncoder()) {
                    e.setPipeline(p).setBuffer(0, x).dispatchThreads(Size.of(x.length() / 4), Size.of(64));
                }
                cb.commit();
                if (random.nextBoolean()) {
                    p.close();      // RETAINED: the command buffer keeps them until it completes
                    library.close();
                }
                if (cb.waitUntilCompleted() != CommandBufferStatus.COMPLETED) throw new AssertionError("library churn: " + cb.error());
            }
            check(x, 2f, "after a run of a churned library");
            x.close();
            return "library churn";
        }

        private String plainRun(CommandQueue own) {
            try (Buffer x = filled(1f)) {
                runAndCheck(own, x, 2f);
            }
            return "plain run";
        }

        private Buffer filled(float value) {
            Buffer x = device.newBuffer(N * 4L << random.nextInt(3), StorageMode.SHARED);
            for (long i = 0; i < x.length() / 4; i++) x.contents().setAtIndex(ValueLayout.JAVA_FLOAT, i, value);
            return x;
        }

        private void runAndCheck(CommandQueue queue, Buffer x, float expected) {
            CommandBuffer cb = queue.commandBuffer();
            try (ComputeEncoder e = cb.computeEncoder()) {
                e.setPipeline(scale).setBuffer(0, x).dispatchThreads(Size.of(x.length() / 4), Size.of(64));
            }
            cb.commit();
            if (cb.waitUntilCompleted() != CommandBufferStatus.COMPLETED) throw new AssertionError("run: " + cb.error());
            check(x, expected, "after a run");
        }

        private static void check(Buffer x, float expected, String when) {
            for (long i = 0; i < x.length() / 4; i++) {
                float v = x.contents().getAtIndex(ValueLayout.JAVA_FLOAT, i);
                if (v != expected) throw new AssertionError(x.describe() + " " + when + ": element=" + i + " value=" + v + " expected=" + expected);
            }
        }

        private static void closeQuietly(AutoCloseable c) {
            if (c == null) return;
            try {
                c.close();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
    }
}
