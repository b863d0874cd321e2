package dev.panamax.tensor.cpu;

import dev.panamax.tensor.Backends;
import dev.panamax.tensor.Tensor;
import dev.panamax.tensor.TensorException;
import dev.panamax.tensor.TensorScope;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
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
 * A random sequence of lazy tensor operations from several threads over shared tensors on the cpu
 * backend: make, compute on tensors another thread made (the kernels stay recorded on the computing
 * thread), read, sum and read the sum elsewhere, close (also while another thread uses the tensor),
 * compute inside a scope. Every value read must be the one computed in Java from the same inputs;
 * every operation must succeed or end in the exception a freed tensor gives (its storage closed by
 * another thread first). Exit 0 when so; 2 for any other exception; 3 for a wrong value.
 *
 * <p>Arguments: seed, threads (4), operations per thread (500). The seed is printed first; the same
 * seed draws the same operations per thread (their interleaving is the scheduler's).
 */
public final class LazyTensorsAcrossThreads {
    private LazyTensorsAcrossThreads() {}

    static final int N = 1024;
    private static final int SLOTS = 12;
    private static final String[] OPS = {"make", "compute", "read", "close", "sum", "checkSum", "scoped", "closeLater"};

    /** A published tensor and the values it must hold. */
    record Entry(Tensor tensor, float[] expected) {}

    /** A sum recorded on one thread, checked (and closed) on whichever thread takes it. */
    record PendingSum(Tensor sum, double expected) {}

    private final AtomicReferenceArray<Entry> slots = new AtomicReferenceArray<>(SLOTS);
    private final Queue<PendingSum> sums = new ConcurrentLinkedQueue<>();
    private final Queue<Tensor> everything = new ConcurrentLinkedQueue<>();
    private final AtomicLongArray counts = new AtomicLongArray(OPS.length * 2);

    public static void main(String[] args) throws Exception {
        long seed = args.length > 0 ? Long.parseLong(args[0]) : new Random().nextLong();
        int threads = args.length > 1 ? Integer.parseInt(args[1]) : 4;
        int ops = args.length > 2 ? Integer.parseInt(args[2]) : 500;
        System.out.println("lazy tensors across threads: seed=" + seed + " threads=" + threads + " opsPerThread=" + ops);
        Backends.use(CpuBackend.NAME);
        if (!((CpuBackend) Backends.current()).isLazy()) throw new IllegalStateException("the cpu backend does not record");
        LazyTensorsAcrossThreads run = new LazyTensorsAcrossThreads();
        try {
            run.run(seed, threads, ops);
        } finally {
            for (Tensor t : run.everything) t.close();
        }
        System.out.println("lazy tensors across threads: seed=" + seed + " ok " + run.summary());
    }

    private void run(long seed, int threads, int ops) throws InterruptedException {
        CountDownLatch start = new CountDownLatch(1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            SplittableRandom random = new SplittableRandom(seed * 1_000_003L + t);
            workers.add(Thread.ofPlatform().name("lazy-" + t).start(() -> {
                ArrayDeque<Tensor> closeLater = new ArrayDeque<>();
                try {
                    start.await();
                    for (int i = 0; i < ops && failure.get() == null; i++) step(random, closeLater);
                    while (!closeLater.isEmpty()) closeLater.pop().close();
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }));
        }
        start.countDown();
        for (Thread w : workers) w.join();
        Throwable f = failure.get();
        if (f instanceof WrongValue w) {
            System.out.println("WRONG VALUE: " + w.getMessage());
            System.exit(3);
        }
        if (f != null) {
            System.out.println("UNEXPECTED: " + f);
            f.printStackTrace(System.out);
            System.exit(2);
        }
    }

    private void step(SplittableRandom random, ArrayDeque<Tensor> closeLater) {
        int op = random.nextInt(OPS.length);
        try {
            switch (op) {
                case 0 -> publish(random, made(values(random)));
                case 1 -> compute(random, closeLater);
                case 2 -> read(random);
                case 3 -> {
                    Entry e = slots.getAndSet(random.nextInt(SLOTS), null);
                    if (e != null) e.tensor().close();
                }
                case 4 -> sum(random);
                case 5 -> checkSum();
                case 6 -> scoped(random);
                default -> {
                    if (!closeLater.isEmpty()) closeLater.pop().close();
                }
            }
            counts.incrementAndGet(2 * op);
        } catch (IllegalStateException | TensorException e) {
            // a tensor another thread closed first: the one misuse every operation may meet
            if (!String.valueOf(e.getMessage()).contains("freed") && !String.valueOf(e.getMessage()).contains("released")) throw e;
            counts.incrementAndGet(2 * op + 1);
        }
    }

    private static float[] values(SplittableRandom random) {
        float[] v = new float[N];
        for (int i = 0; i < N; i++) v[i] = (float) random.nextDouble(-4, 4);
        return v;
    }

    private Entry made(float[] values) {
        Tensor t = TensorScope.unscoped(() -> Tensor.of(values));
        everything.add(t);
        return new Entry(t, values);
    }

    private void publish(SplittableRandom random, Entry e) {
        Entry old = slots.getAndSet(random.nextInt(SLOTS), e);
        if (old != null) old.tensor().close(); // perhaps while another thread still computes on it
    }

    /** {@code x * c + y}: two kernels recorded on this thread, from tensors any thread made. */
    private void compute(SplittableRandom random, ArrayDeque<Tensor> closeLater) {
        Entry x = slots.get(random.nextInt(SLOTS)), y = slots.get(random.nextInt(SLOTS));
        if (x == null || y == null) return;
        float c = (float) random.nextDouble(-2, 2);
        Tensor scaled = TensorScope.unscoped(() -> x.tensor().mul(c));
        everything.add(scaled);
        closeLater.push(scaled); // closed some operations later, while kernels that read it may wait elsewhere
        Tensor z = TensorScope.unscoped(() -> scaled.add(y.tensor()));
        everything.add(z);
        float[] expected = new float[N];
        for (int i = 0; i < N; i++) expected[i] = x.expected()[i] * c + y.expected()[i];
        publish(random, new Entry(z, expected));
    }

    private void read(SplittableRandom random) {
        Entry e = slots.get(random.nextInt(SLOTS));
        if (e == null) return;
        float[] seen = e.tensor().toFloatArray();
        for (int i = 0; i < N; i++) {
            if (Math.abs(seen[i] - e.expected()[i]) > 1e-4f * (1 + Math.abs(e.expected()[i]))) {
                throw new WrongValue("element " + i + " is " + seen[i] + "; expected " + e.expected()[i] + " (first values "
                        + Arrays.toString(Arrays.copyOf(seen, 4)) + ")");
            }
        }
    }

    private void sum(SplittableRandom random) {
        Entry e = slots.get(random.nextInt(SLOTS));
        if (e == null) return;
        Tensor s = TensorScope.unscoped(() -> e.tensor().sum()); // recorded here, read on whichever thread takes it
        everything.add(s);
        double expected = 0;
        for (float v : e.expected()) expected += v;
        sums.add(new PendingSum(s, expected));
    }

    private void checkSum() {
        PendingSum p = sums.poll();
        if (p == null) return;
        try {
            double seen = p.sum().item();
            if (Math.abs(seen - p.expected()) > 1e-3 * (N + Math.abs(p.expected()))) {
                throw new WrongValue("a sum recorded on another thread is " + seen + "; expected " + p.expected());
            }
        } finally {
            p.sum().close();
        }
    }

    /** {@code (x + 1) * 2} in a scope of this thread, the result kept and published. */
    private void scoped(SplittableRandom random) {
        Entry x = slots.get(random.nextInt(SLOTS));
        if (x == null) return;
        Tensor z;
        try (TensorScope scope = TensorScope.open()) {
            Tensor plusOne = x.tensor().add(1);
            z = scope.keep(plusOne.mul(2));
        }
        Tensor kept = z;
        everything.add(kept);
        float[] expected = new float[N];
        for (int i = 0; i < N; i++) expected[i] = (x.expected()[i] + 1) * 2;
        publish(random, new Entry(kept, expected));
    }

    private String summary() {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < OPS.length; i++) {
            b.append(OPS[i]).append('=').append(counts.get(2 * i)).append('/').append(counts.get(2 * i + 1)).append("freed ");
        }
        return b.toString().strip();
    }

    /** A value read that differs from the one computed in Java. */
    static final class WrongValue extends RuntimeException {
    private static final long serialVersionUID = 1L;

        WrongValue(String message) {
            super(message);
        }
    }
}
