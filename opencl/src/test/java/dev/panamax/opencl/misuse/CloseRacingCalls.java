package dev.panamax.opencl.misuse;

import dev.panamax.core.memory.HandleReleasedException;
import dev.panamax.opencl.binding.CL;
import dev.panamax.opencl.binding.CLApi;
import dev.panamax.opencl.binding.ClMem;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * Four threads call {@code clGetMemObjectInfo(m, ...)} in a loop while a fifth closes {@code m}, for
 * {@code ROUNDS} buffers (args[0], default 50). Each call either returns the buffer's size or throws
 * HandleReleasedException; the object is freed only once no call is using it.
 */
public final class CloseRacingCalls {
    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 50;
        LongAdder ok = new LongAdder();
        LongAdder refused = new LongAdder();
        try (Device d = new Device()) {
            for (int round = 0; round < rounds; round++) {
                ClMem m = d.buffer(4096);
                CountDownLatch start = new CountDownLatch(1);
                AtomicReference<Throwable> failure = new AtomicReference<>();
                Thread[] callers = new Thread[4];
                for (int t = 0; t < callers.length; t++) {
                    callers[t] = Thread.ofPlatform().start(() -> {
                        try (Arena arena = Arena.ofConfined()) {
                            MemorySegment size = arena.allocate(8);
                            start.await();
                            while (true) {
                                CLApi.clGetMemObjectInfo(m, CL.CL_MEM_SIZE, 8, size, (long[]) null);
                                if (size.get(java.lang.foreign.ValueLayout.JAVA_LONG, 0) != 4096) {
                                    throw new AssertionError("wrong size read: " + size.get(java.lang.foreign.ValueLayout.JAVA_LONG, 0));
                                }
                                ok.increment();
                            }
                        } catch (HandleReleasedException expected) {
                            refused.increment();
                        } catch (Throwable t2) {
                            failure.compareAndSet(null, t2);
                        }
                    });
                }
                start.countDown();
                Thread.sleep(round % 3);
                m.close();
                for (Thread t : callers) t.join();
                if (failure.get() != null) throw new AssertionError("round " + round, failure.get());
            }
        }
        System.out.println("close racing calls: rounds=" + rounds + " calls=" + ok.sum() + " refused=" + refused.sum());
    }
}
