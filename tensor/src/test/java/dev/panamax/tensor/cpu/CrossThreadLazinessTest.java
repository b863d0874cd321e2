package dev.panamax.tensor.cpu;

import dev.panamax.tensor.Backends;
import dev.panamax.tensor.DType;
import dev.panamax.tensor.Tensor;
import dev.panamax.tensor.TensorScope;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Kernels the lazy cpu backend recorded on one thread, and what other threads do with their tensors:
 * a read, a close, a scope's end or another kernel on any thread completes them first. Each step runs
 * on one of two long-lived threads, so what a thread recorded stays recorded until something runs it;
 * the hand-over between steps (a future's result) is the happens-before a program would have.
 */
class CrossThreadLazinessTest {
    static final int N = 4096;

    private ExecutorService a, b;

    @BeforeEach
    void threads() {
        a = Executors.newSingleThreadExecutor(r -> new Thread(r, "recorder-a"));
        b = Executors.newSingleThreadExecutor(r -> new Thread(r, "recorder-b"));
    }

    @AfterEach
    void stop() {
        a.shutdownNow();
        b.shutdownNow();
    }

    /** Runs {@code body} on {@code thread} with the lazy cpu backend selected, and returns its result. */
    static <T> T on(ExecutorService thread, Callable<T> body) throws Exception {
        Future<T> f = thread.submit(() -> {
            try (var _ = Backends.using(CpuBackend.NAME)) {
                assertEquals(true, ((CpuBackend) Backends.current()).isLazy(), "the cpu backend records");
                return body.call();
            }
        });
        return f.get();
    }

    static float[] ramp(float scale, float shift) {
        float[] v = new float[N];
        for (int i = 0; i < N; i++) v[i] = scale * i + shift;
        return v;
    }

    /** Leaves a freed pool block of {@code N} floats holding {@code value} (what a stale read would see). */
    static void dirtyBlock(float value) {
        Tensor.full(DType.F32, value, N).sync().close();
    }

    /** Every tensor a test made, closed (on the test's thread) when it ends. */
    private final List<Tensor> made = new CopyOnWriteArrayList<>();

    private Tensor kept(Tensor t) {
        made.add(t);
        return t;
    }

    @AfterEach
    void closeAll() {
        for (Tensor t : made) t.close();
    }

    @Test
    void aValueComputedLazilyOnOneThreadReadsRightOnAnother() throws Exception {
        Tensor y = on(a, () -> {
            dirtyBlock(-7);
            Tensor x = kept(Tensor.of(ramp(1, 0)));
            return kept(kept(x.mul(2)).add(1)); // recorded on a, not run
        });
        float[] seen = on(b, y::toFloatArray);
        assertArrayEquals(ramp(2, 1), seen);
    }

    @Test
    void aKernelOnAnotherThreadRunsAfterTheKernelsItReads() throws Exception {
        Tensor y = on(a, () -> kept(kept(Tensor.of(ramp(1, 0))).mul(3)));
        float[] z = on(b, () -> {
            try (Tensor sum = y.add(1)) {
                return sum.toFloatArray();
            }
        });
        assertArrayEquals(ramp(3, 1), z);
    }

    @Test
    void aTensorClosedOnAnotherThreadIsNotWrittenAfterItsBlockIsReused() throws Exception {
        Tensor[] made = on(a, () -> {
            Tensor x = Tensor.of(ramp(1, 0));
            Tensor out = Tensor.zeros(N).sync();
            out.copyFrom(x).mulInPlace(5); // recorded on a: writes out later
            return new Tensor[] {x, out};
        });
        Tensor next = on(b, () -> {
            made[1].close(); // the block goes back to the pool...
            Tensor t = Tensor.of(ramp(0, 42)); // ...and may be the one this tensor takes
            return t;
        });
        on(a, () -> {
            made[0].close();
            Tensor.zeros(1).sync().close(); // a runs whatever it still has recorded
            return null;
        });
        float[] values = on(b, next::toFloatArray);
        assertArrayEquals(ramp(0, 42), values, "the next tensor in the block is untouched");
        on(b, () -> {
            next.close();
            return null;
        });
    }

    @Test
    void aWriteOnAnotherThreadWaitsForTheKernelsThatReadTheOldValues() throws Exception {
        Tensor w = on(a, () -> TensorScope.unscoped(() -> Tensor.of(ramp(1, 0))));
        Tensor total = on(b, () -> w.sum()); // recorded on b: reads w later
        on(a, () -> {
            w.fill(100); // in place, recorded and run on a
            return w.sync();
        });
        double expected = (double) N * (N - 1) / 2;
        assertEquals(expected, on(b, total::item), 1e-3 * expected, "the sum of w's values when it was recorded");
        on(a, () -> {
            w.close();
            return null;
        });
        on(b, () -> {
            total.close();
            return null;
        });
    }

    @Test
    void aScopeEndingOnOneThreadRunsWhatAnotherThreadRecordedOnItsTensors() throws Exception {
        Tensor[] inScope = new Tensor[1];
        TensorScope scope = on(a, () -> {
            TensorScope s = TensorScope.open();
            inScope[0] = Tensor.of(ramp(1, 0));
            return s;
        });
        Tensor doubled = on(b, () -> TensorScope.unscoped(() -> inScope[0].mul(2))); // recorded on b, reads a's tensor
        on(a, () -> {
            scope.close(); // frees a's tensor: b's kernel must have run
            dirtyBlock(-7);
            return null;
        });
        assertArrayEquals(ramp(2, 0), on(b, doubled::toFloatArray));
        on(b, () -> {
            doubled.close();
            return null;
        });
    }

    @Test
    void aLongRecordingRunsOnAnotherThreadToo() throws Exception {
        // more kernels than run as direct calls: the recording thread put them in a batch, which
        // only it may run; another thread runs them one by one, and the batch is cleared afterwards
        Tensor y = on(a, () -> {
            Tensor r = kept(Tensor.of(ramp(1, 0)));
            for (int i = 0; i < 3 * Recorder.DIRECT_MAX; i++) r = kept(r.add(1));
            return r;
        });
        assertArrayEquals(ramp(1, 3 * Recorder.DIRECT_MAX), on(b, y::toFloatArray));
        float[] again = on(a, () -> {
            Tensor r = y;
            for (int i = 0; i < 3 * Recorder.DIRECT_MAX; i++) r = kept(r.add(1));
            return r.toFloatArray();
        });
        assertArrayEquals(ramp(1, 6 * Recorder.DIRECT_MAX), again, "the recording thread records and runs again");
    }
}
