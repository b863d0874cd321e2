package dev.panamax.opencl.misuse;

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

import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Threads racing on one command queue (args: seed, threads, rounds): in each round every thread
 * commits the same command buffer at once, then commits its own in a loop while one thread closes
 * the queue after a random pause. At most one commit of the shared command buffer succeeds (none
 * when the queue closed before any got in), each
 * commit either runs once or is refused as the queue closes, close() returns, and the kernel ran
 * once per successful commit. A hang is the suite's time-out; a lost slot shows as a hang in close().
 */
public final class QueueRaces {
    public static void main(String[] args) throws Exception {
        long seed = args.length > 0 ? Long.parseLong(args[0]) : 1;
        int threads = args.length > 1 ? Integer.parseInt(args[1]) : 4;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 20;
        Random random = new Random(seed);
        ComputeDevice device = ComputeDevice.systemDefault();
        int sharedRuns = 0, ownRuns = 0;
        try (Library library = device.newLibrary("__kernel void inc(__global float *x) { x[get_global_id(0)] += 1.0f; }");
             ComputePipeline inc = library.newPipeline("inc");
             Buffer shared = device.newBuffer(new float[64])) {
            for (int round = 0; round < rounds; round++) {
                CommandQueue queue = device.newCommandQueue(1 + random.nextInt(3));
                List<Buffer> own = new ArrayList<>();
                for (int t = 0; t < threads; t++) own.add(device.newBuffer(new float[64]));
                CommandBuffer once = queue.commandBuffer().label("shared");
                try (ComputeEncoder e = once.computeEncoder()) {
                    e.setPipeline(inc).setBuffer(0, shared).dispatchThreads(Size.of(64), Size.of(8));
                }
                CyclicBarrier start = new CyclicBarrier(threads + 1);
                AtomicInteger sharedCommits = new AtomicInteger();
                List<CommandBuffer> committed = new CopyOnWriteArrayList<>();
                List<Throwable> failures = new CopyOnWriteArrayList<>();
                List<Thread> workers = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    Buffer mine = own.get(t);
                    workers.add(Thread.ofPlatform().start(() -> {
                        try {
                            start.await();
                            try {
                                once.commit();
                                sharedCommits.incrementAndGet();
                            } catch (EncodingException twice) {
                                if (!twice.getMessage().contains("already committed")) failures.add(twice);
                            }
                            while (true) {
                                CommandBuffer cb = queue.commandBuffer();
                                try (ComputeEncoder e = cb.computeEncoder()) {
                                    e.setPipeline(inc).setBuffer(0, mine).dispatchThreads(Size.of(64), Size.of(8));
                                }
                                cb.commit();
                                committed.add(cb);
                            }
                        } catch (IllegalStateException closed) {
                            if (!closed.getMessage().contains("closed")) failures.add(closed);
                        } catch (Throwable t2) {
                            failures.add(t2);
                        }
                    }));
                }
                start.await();
                Thread.sleep(random.nextInt(5));
                queue.close();
                for (Thread w : workers) w.join();
                if (!failures.isEmpty()) throw new AssertionError("round " + round + ": " + failures, failures.getFirst());
                // once, or never when close() got in before every commit of it (then each was refused as the queue closed)
                if (sharedCommits.get() > 1) throw new AssertionError("round " + round + ": the shared command buffer was committed " + sharedCommits.get() + " times");
                CommandBufferStatus expected = sharedCommits.get() == 1 ? CommandBufferStatus.COMPLETED : CommandBufferStatus.NOT_ENQUEUED;
                if (once.status() != expected) throw new AssertionError("round " + round + ": shared " + once.status() + ", expected " + expected);
                long ran = 0;
                for (Buffer b : own) {
                    ran += (long) b.contents().getAtIndex(ValueLayout.JAVA_FLOAT, 0);
                    b.close();
                }
                for (CommandBuffer cb : committed) {
                    if (cb.status() != CommandBufferStatus.COMPLETED) throw new AssertionError("round " + round + ": " + cb);
                }
                if (ran != committed.size()) throw new AssertionError("round " + round + ": " + committed.size() + " commits ran " + ran + " times");
                sharedRuns += sharedCommits.get();
                ownRuns += committed.size();
            }
            float value = shared.contents().getAtIndex(ValueLayout.JAVA_FLOAT, 0);
            if (value != sharedRuns) throw new AssertionError("the shared command buffer ran " + value + " times in " + sharedRuns + " rounds");
        }
        System.out.println("queue races: seed=" + seed + " rounds=" + rounds + " shared=" + sharedRuns + " commits=" + ownRuns);
    }
}
