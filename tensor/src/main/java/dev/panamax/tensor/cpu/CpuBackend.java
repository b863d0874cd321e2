package dev.panamax.tensor.cpu;

import dev.panamax.tensor.reference.ReferenceBackend;
import dev.panamax.tensor.spi.Backend;
import dev.panamax.tensor.spi.Kernel;
import dev.panamax.tensor.spi.Operand;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * The {@code cpu} backend: native C kernels ({@code libpanamax_tensor.so}, bundled in the jar),
 * parallel through OpenMP within the process's {@link ThreadBudget}, matmul through OpenBLAS's
 * sgemm, and lazy execution: kernels are recorded per thread and run in one native crossing when the
 * frontend syncs (before Java reads, writes or frees storage) or when the recording fills.
 *
 * <pre>{@code
 * Backends.use("cpu");                    // or -Dpanamax.tensor.backend=cpu
 * Tensor y = x.matmul(w).add(b).relu();   // three kernels recorded
 * float[] v = y.toFloatArray();           // one crossing runs them, then the read
 * }</pre>
 *
 * Settings (system properties): {@code panamax.threads} (see {@link ThreadBudget}),
 * {@code panamax.tensor.lazy} ({@code true} by default; {@code false} runs every kernel when
 * submitted, one crossing each), {@code panamax.tensor.recording} (kernels per crossing at most,
 * default {@value Recorder#DEFAULT_CAPACITY}).
 *
 * <p>What the native kernels do not cover (arithmetic on integer and f16 tensors, index operations on
 * non-contiguous operands, a few layouts) runs on the {@code reference} implementation after the
 * recording is flushed, so results never depend on what is native; {@link #counters()} counts
 * those as {@code fallbacks}.
 */
public final class CpuBackend implements Backend {
    /** The name it is selected by. */
    public static final String NAME = "cpu";

    private final boolean lazy;
    private final int capacity;
    private final ThreadLocal<Recorder> recorders;
    private final ReferenceBackend reference = new ReferenceBackend();
    private final LongAdder kernels = new LongAdder();
    private final LongAdder crossings = new LongAdder();
    private final LongAdder batched = new LongAdder();
    private final LongAdder fallbacks = new LongAdder();
    private final LongAdder zeroCopyBytes = new LongAdder();

    /** A backend with the settings of the system properties. */
    public CpuBackend() {
        this(dev.panamax.core.Settings.bool("panamax.tensor.lazy", true),
                dev.panamax.core.Settings.intValue("panamax.tensor.recording", Recorder.DEFAULT_CAPACITY, 1, Integer.MAX_VALUE));
    }

    /** A backend that records ({@code lazy}) up to {@code capacity} kernels per crossing, or runs each at once. */
    public CpuBackend(boolean lazy, int capacity) {
        if (capacity < 1) throw new IllegalArgumentException("recording capacity must be at least 1: " + capacity);
        this.lazy = lazy;
        this.capacity = capacity;
        this.recorders = ThreadLocal.withInitial(() -> new Recorder(this, this.lazy, this.capacity));
        ThreadBudget.threads(); // a bad panamax.threads fails here, named, before any kernel runs
        CpuKernel.load(); // the library and the thread budget, now rather than in the first op
    }

    @Override
    public String name() {
        return NAME;
    }

    /** Whether kernels are recorded and run at the next sync (true) or run one crossing each. */
    public boolean isLazy() {
        return lazy;
    }

    @Override
    public void execute(Kernel kernel) {
        Recorder r = recorders.get();
        boolean handled;
        try {
            handled = Lowering.submit(kernel, r);
        } finally {
            r.endOfKernel();
        }
        if (handled) return;
        fallbacks.increment();
        r.sync();
        reference.execute(kernel);
    }

    @Override
    public void sync() {
        recorders.get().sync();
    }

    @Override
    public int threads() {
        return ThreadBudget.threads();
    }

    /**
     * {@code kernels} (native kernels run or recorded), {@code crossings} (native calls that ran
     * them), {@code batchedKernels} (kernels that ran inside a batch of two or more),
     * {@code fallbacks} (kernels run by the reference implementation), {@code zeroCopyBytes} (bytes of
     * tensor operands the native kernels read and wrote in place, by address: nothing was copied across
     * the boundary for them; a broadcast operand counts the elements it really spans).
     */
    @Override
    public Map<String, Long> counters() {
        Map<String, Long> m = new LinkedHashMap<>();
        m.put("kernels", kernels.sum());
        m.put("crossings", crossings.sum());
        m.put("batchedKernels", batched.sum());
        m.put("fallbacks", fallbacks.sum());
        m.put("zeroCopyBytes", zeroCopyBytes.sum());
        return m;
    }

    void countKernel(Kernel source) {
        kernels.increment();
        zeroCopyBytes.add(operandBytes(source));
    }

    /** The bytes of every operand of {@code k}, a broadcast dimension (stride 0) counted once. */
    static long operandBytes(Kernel k) {
        return switch (k) {
            case Kernel.Fill f -> bytes(f.out());
            case Kernel.Unary u -> bytes(u.out()) + bytes(u.in());
            case Kernel.Binary b -> bytes(b.out()) + bytes(b.a()) + bytes(b.b());
            case Kernel.BinaryScalar b -> bytes(b.out()) + bytes(b.a());
            case Kernel.Where w -> bytes(w.out()) + bytes(w.cond()) + bytes(w.a()) + bytes(w.b());
            case Kernel.Reduce r -> bytes(r.out()) + bytes(r.in());
            case Kernel.MatMul m -> bytes(m.out()) + bytes(m.a()) + bytes(m.b());
            case Kernel.IndexSelect i -> bytes(i.out()) + bytes(i.in()) + bytes(i.index());
            case Kernel.IndexAdd i -> bytes(i.out()) + bytes(i.index()) + bytes(i.src());
            case Kernel.AdamStep a -> bytes(a.param()) + bytes(a.grad()) + bytes(a.m()) + bytes(a.v());
            case Kernel.CrossEntropy c -> bytes(c.loss()) + (c.grad() == null ? 0 : bytes(c.grad())) + bytes(c.logits()) + bytes(c.labels());
        };
    }

    private static long bytes(Operand o) {
        long n = o.dtype().byteSize();
        for (int i = 0; i < o.rank(); i++) if (o.strides()[i] != 0) n *= o.shape()[i];
        return n;
    }

    void countCrossing(int kernelsRun) {
        crossings.increment();
        if (kernelsRun > 1) batched.add(kernelsRun);
    }
}
