package dev.panamax.tensor.cpu;

import dev.panamax.tensor.Backends;
import dev.panamax.tensor.Tensor;
import dev.panamax.tensor.TensorScope;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The main thread records kernels while it is the only thread that ever used the lazy cpu backend;
 * then several threads, released at once, each make their first use of the backend by computing on
 * the result and reading it. Whichever of them is the second, third, ... recorder of the process,
 * each must see what the first recorded alone. Exit 0 when every thread reads the right value, 3 when not.
 */
public final class ManyThreadsReadWhatOneThreadRecordedAlone {
    private ManyThreadsReadWhatOneThreadRecordedAlone() {}

    public static void main(String[] args) throws Exception {
        Backends.use(CpuBackend.NAME);
        int threads = args.length > 0 ? Integer.parseInt(args[0]) : 8;
        int n = 1 << 16;
        Tensor shared = Tensor.full(1.0, n);   // recorded, not run: this thread has been alone so far
        Tensor doubled = shared.mul(2.0);      // so is this
        CountDownLatch go = new CountDownLatch(1);
        AtomicReference<String> wrong = new AtomicReference<>();
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            workers.add(Thread.ofPlatform().name("reader-" + t).start(() -> {
                try {
                    go.await();
                    try (TensorScope _ = TensorScope.open()) {
                        double sum = doubled.add(1.0).sum().item();
                        if (sum != 3.0 * n) wrong.compareAndSet(null, Thread.currentThread().getName() + " read a sum of " + sum + "; expected " + 3.0 * n);
                    }
                } catch (Throwable e) {
                    wrong.compareAndSet(null, Thread.currentThread().getName() + " failed: " + e);
                }
            }));
        }
        go.countDown();
        for (Thread w : workers) w.join();
        doubled.close();
        shared.close();
        if (wrong.get() != null) {
            System.out.println("WRONG VALUE: " + wrong.get());
            System.exit(3);
        }
        System.out.println("every thread read what the first recorded alone: ok");
    }
}
