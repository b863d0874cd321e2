package dev.panamax.tensor;

import dev.panamax.core.memory.NativeMemory;
import dev.panamax.core.memory.PoolMetrics;
import dev.panamax.tensor.spi.HostStorage;
import dev.panamax.tensor.spi.Storage;
import dev.panamax.tensor.spi.StoragePool;
import dev.panamax.testsupport.AllowNativeLeaks;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Tensor storage comes from the process's pool: freed blocks are reused, never while a view or a
 * recorded kernel still needs them, and pooled garbage never shows through an op.
 */
class StoragePoolTest {
    /** Elements of a storage in a size class no other test of this class uses (16 KiB). */
    private static final int N = 3000;

    @Test
    void aFreedBlockIsHandedToTheNextStorageOfItsClass() {
        assertTrue(StoragePool.isEnabled());
        PoolMetrics before = StoragePool.metrics();
        HostStorage a = HostStorage.allocate(DType.F32, N);
        long address = a.address();
        a.close();
        HostStorage b = HostStorage.allocate(DType.I32, N - 10);
        assertEquals(address, b.address(), "the same block, back from its class");
        b.close();
        PoolMetrics after = StoragePool.metrics();
        assertTrue(after.hits() >= before.hits() + 1, "the reuse counts as a hit");
        assertEquals(after.hits() + after.misses(), before.hits() + before.misses() + 2);
    }

    @Test
    void tensorsOfAStepReuseTheBlocksOfTheStepBefore() {
        Tensor w = Tensor.ones(64, 64);
        PoolMetrics warm = null;
        for (int step = 0; step < 5; step++) {
            try (var _ = TensorScope.open()) {
                w.matmul(w).relu().add(1).sum().item();
            }
            if (step == 0) warm = StoragePool.metrics();
        }
        assertEquals(1.0, StoragePool.metrics().hitRateSince(warm), "after the first step every storage is a hit");
        w.close();
    }

    @Test
    void aBlockViewedByALiveViewIsNotReused() {
        Tensor view;
        long address;
        try (var scope = TensorScope.open()) {
            Tensor base = Tensor.arange(DType.F32, 0, N, 1).reshape(3, 1000);
            address = HostStorage.of(base.storage()).address();
            view = scope.keep(base.t().slice(0, 1, 3));
        }
        // the scope kept the storage, shared by base and view: nothing gave its block back
        List<HostStorage> others = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            HostStorage s = HostStorage.allocate(DType.F32, N);
            s.segment().fill((byte) 0x7f);
            others.add(s);
            assertFalse(s.address() == address, "a block still viewed was handed out again");
        }
        others.forEach(Storage::close);
        assertEquals(1.0f, view.toFloatArray()[0]);
        assertEquals(2002f, view.toFloatArray()[5], "row 2 of the transpose, column 2");
        view.close();
    }

    @Test
    @AllowNativeLeaks("leaves tensors to the GC on purpose")
    void aTensorTheGcCollectsGivesItsBlockBack() throws InterruptedException {
        TensorScope.unscoped(() -> Tensor.ones(4 * N).mul(2)); // 64 KiB class, dropped
        Backends.syncAll(); // a lazy backend holds what its recording touches until it ran
        long idle = StoragePool.metrics().bytesIdle(); // without the two blocks the tensors hold
        for (int i = 0; i < 100 && StoragePool.metrics().bytesIdle() <= idle; i++) {
            System.gc();
            Thread.sleep(10);
            NativeMemory.cleanUnreachable();
        }
        assertTrue(StoragePool.metrics().bytesIdle() > idle, "the dropped tensors' blocks are idle in the pool");
        PoolMetrics collected = StoragePool.metrics();
        try (Tensor again = Tensor.ones(4 * N)) {
            assertEquals(4 * N, again.sum().item(), 0);
        }
        assertTrue(StoragePool.metrics().hits() > collected.hits(), "and serve the next tensor of their class");
    }

    @ParameterizedTest
    @ValueSource(strings = {"reference", "cpu"})
    void opsThatNeedZeroedOutputFillItThemselves(String backend) {
        try (var _ = Backends.using(backend); var _ = TensorScope.open()) {
            poisonIdleBlocks();
            assertArrayEquals(new float[N], Tensor.zeros(N).toFloatArray(), "zeros");
            // an embedding's gradient accumulates into a tensor the backward fills with zeros
            Tensor table = Tensor.ones(1000, 3).requiresGrad(true);
            Tensor rows = Tensor.of(new long[] {2, 2, 7});
            poisonIdleBlocks();
            table.indexSelect(0, rows).sum().backward();
            float[] grad = table.grad().toFloatArray();
            float[] expected = new float[N];
            for (int j = 0; j < 3; j++) {
                expected[2 * 3 + j] = 2;
                expected[7 * 3 + j] = 1;
            }
            assertArrayEquals(expected, grad);
            poisonIdleBlocks();
            // a product with nothing to sum over is zeros
            assertArrayEquals(new float[N], Tensor.ones(N, 0).matmul(Tensor.ones(0, 1)).reshape(N).toFloatArray());
            poisonIdleBlocks();
            assertEquals(2 * N, Tensor.full(2, 3, 1000).sum(1, false).sum().item(), 0);
            table.close();
        }
    }

    /** Leases every idle block of the test's class and the next ones, writes garbage (NaN bits), frees them. */
    private static void poisonIdleBlocks() {
        List<HostStorage> all = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            for (int n : new int[] {N, 1000, 3, 4 * N}) {
                HostStorage s = HostStorage.allocate(DType.F32, n);
                s.segment().fill((byte) 0xff);
                all.add(s);
            }
        }
        all.forEach(Storage::close);
    }

    @Test
    @AllowNativeLeaks("leaves the input of a kernel to the GC on purpose")
    void aBlockAPendingKernelReadsIsNotReusedBeforeItRan() {
        try (var _ = Backends.using("cpu"); var _ = TensorScope.open()) {
            float[] threes = new float[N];
            java.util.Arrays.fill(threes, 3);
            long[] input = new long[1];
            Tensor product = TensorScope.unscoped(() -> {
                Tensor in = Tensor.of(threes); // written from Java, now
                input[0] = HostStorage.of(in.storage()).address();
                return in.mul(2);              // recorded, not run yet
            });
            for (int i = 0; i < 3; i++) {
                System.gc();
                NativeMemory.cleanUnreachable();
            }
            // no tensor refers to the input any more; the recording does, so its block is not free
            Set<Long> handedOut = new HashSet<>();
            List<HostStorage> taken = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                HostStorage s = HostStorage.allocate(DType.F32, N);
                s.segment().fill((byte) 0xff);
                handedOut.add(s.address());
                taken.add(s);
            }
            assertFalse(handedOut.contains(input[0]), "the input of a waiting kernel was handed out");
            float[] values = product.toFloatArray();
            for (float v : values) assertEquals(6f, v);
            taken.forEach(Storage::close);
            product.close();
        }
    }

    @Test
    void budgetPressureTrimsIdleBlocksBeforeItFails() throws Exception {
        String java = ProcessHandle.current().info().command().orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        Process p = new ProcessBuilder(java, "-Xmx64m", "--enable-native-access=ALL-UNNAMED", "-Dpanamax.memory.limit=40m",
                "-Dpanamax.memory.maxWaitMillis=200", "-D" + Backends.PROPERTY + "=reference",
                "-cp", System.getProperty("java.class.path"), PoolPressure.class.getName())
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(2, TimeUnit.MINUTES), "child did not finish");
        assertEquals(0, p.exitValue(), "child failed: " + out);
        Matcher m = Pattern.compile("idleBefore=(\\d+) idleAfter=(\\d+) reservedAfter=(\\d+) limit=(\\d+)").matcher(out);
        assertTrue(m.find(), out);
        assertEquals(5L << 20, Long.parseLong(m.group(1)), "five 1 MiB blocks idle: " + out);
        assertEquals(0, Long.parseLong(m.group(2)), "the budget trimmed them to make room: " + out);
        assertTrue(Long.parseLong(m.group(3)) <= Long.parseLong(m.group(4)), out);
    }
}
