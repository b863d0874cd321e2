package dev.panamax.tensor.cpu;

import dev.panamax.tensor.DType;
import dev.panamax.tensor.reference.ReferenceBackend;
import dev.panamax.tensor.spi.Backend;
import dev.panamax.tensor.spi.Capture;
import dev.panamax.tensor.spi.CaptureRefusals;
import dev.panamax.tensor.spi.Kernel;
import dev.panamax.tensor.spi.Operand;
import dev.panamax.tensor.spi.Storage;

import java.lang.foreign.MemorySegment;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The {@code cpu} backend: native C kernels ({@code libpanamax_tensor.so}, bundled in the jar),
 * parallel through OpenMP within the process's {@link ThreadBudget}, matmul through OpenBLAS's
 * sgemm, and lazy execution: kernels are recorded per thread and run in one native crossing when the
 * frontend syncs (before Java reads, writes or frees storage) or when the recording fills. Tensors
 * may move between threads: a read, close or kernel on any thread first runs what other threads
 * recorded on the same storage (see {@code Recorder} and {@code Track}).
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
    /** Recordings not yet run that touch storage another thread made: a free or scope end anywhere runs them first. */
    private static final Set<Recording> SHARED = ConcurrentHashMap.newKeySet();
    /** Lazy recorders made in the process (threads that recorded, synced or closed on a lazy cpu backend). */
    private static final AtomicInteger RECORDERS = new AtomicInteger();
    /** The first of them: what it recorded alone is run when each later one appears. */
    private static volatile Recorder first;
    private final ReferenceBackend reference = new ReferenceBackend();
    private final LongAdder kernels = new LongAdder();
    private final LongAdder crossings = new LongAdder();
    private final LongAdder batched = new LongAdder();
    private final LongAdder fallbacks = new LongAdder();
    private final LongAdder zeroCopyBytes = new LongAdder();

    /** A backend with the settings of the system properties. */
    public CpuBackend() {
        this(dev.panamax.tensor.TensorSettings.LAZY.get(),
                dev.panamax.tensor.TensorSettings.RECORDING.get());
    }

    /** A backend that records ({@code lazy}) up to {@code capacity} kernels per crossing, or runs each at once. */
    public CpuBackend(boolean lazy, int capacity) {
        if (capacity < 1) throw new IllegalArgumentException("recording capacity must be at least 1: " + capacity);
        this.lazy = lazy;
        this.capacity = capacity;
        this.recorders = ThreadLocal.withInitial(this::newRecorder);
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

    /**
     * A recorder for the calling thread. Every lazy recorder after the first runs, before its thread
     * records or reads anything, what the first recorded alone (without noting what its kernels
     * touch): not only the second, since a third may otherwise compute on the first's results
     * while the second has counted itself but not yet run them. Once per thread.
     */
    private Recorder newRecorder() {
        Recorder r = new Recorder(this, lazy, capacity);
        if (!lazy) return r;
        Recorder f;
        synchronized (CpuBackend.class) { // the first is known before anyone counts as second
            if (first == null) {
                first = r;
                RECORDERS.set(1);
                return r;
            }
            RECORDERS.incrementAndGet();
            f = first;
        }
        f.runPending(); // under its lock, after which its thread sees it is no longer alone
        return r;
    }

    /**
     * Whether one thread alone records kernels in this process: then no other thread can depend on
     * its recording, and kernels skip the bookkeeping across threads. Read holding the recorder's
     * lock, so a second thread appearing runs (under that lock) what was recorded alone.
     */
    private static boolean alone() {
        return RECORDERS.get() == 1;
    }

    @Override
    public Storage allocate(DType dtype, long length) {
        Storage s = Backend.super.allocate(dtype, length);
        Recorder r = recorders.get();
        if (lazy) s.backendState(new Track(r));
        CpuCapture c = r.capture();
        if (c != null) c.allocated(s);
        return s;
    }

    @Override
    public void execute(Kernel kernel) {
        Recorder r = recorders.get();
        if (r.capture() != null) {
            captured(kernel, r, r.capture());
            return;
        }
        if (!lazy) {
            submit(kernel, r);
            return;
        }
        if (alone()) {
            ReentrantLock lock = r.lock();
            lock.lock();
            try {
                if (alone()) {
                    submit(kernel, r);
                    r.flushIfFull();
                    return;
                }
            } finally {
                lock.unlock();
            }
        }
        KernelOperands operands = r.operands().of(kernel);
        try {
            for (int i = 0; i < operands.count(); i++) await(operands.storage(i), operands.writes(i), r);
            ReentrantLock lock = r.lock();
            lock.lock();
            try {
                for (int i = 0; i < operands.count(); i++) r.pin(operands.storage(i), track(operands.storage(i), r));
                if (submit(kernel, r)) {
                    for (int i = 0; i < operands.count(); i++) note(operands.storage(i), operands.writes(i), r);
                }
                r.flushIfFull(); // only now: the recording that holds the kernel is the one pinned and noted
            } finally {
                lock.unlock();
            }
        } finally {
            operands.clear();
        }
    }

    /**
     * Records {@code kernel} into this thread's capture: what other threads recorded on its storage
     * runs first (now, at capture time), the program pins its storage, and a kernel without a native
     * lowering is refused (it would run outside the program).
     */
    private void captured(Kernel kernel, Recorder r, CpuCapture c) {
        KernelOperands operands = r.operands().of(kernel);
        try {
            boolean one = !lazy || alone();
            for (int i = 0; i < operands.count(); i++) {
                if (!one) await(operands.storage(i), operands.writes(i), r);
                c.touch(operands.storage(i));
            }
        } finally {
            operands.clear();
        }
        if (!Lowering.submit(kernel, r)) throw c.notNative(kernel);
    }

    /** Submits {@code kernel} to {@code r}; false when the reference implementation ran it instead. */
    private boolean submit(Kernel kernel, Recorder r) {
        boolean handled;
        try {
            handled = Lowering.submit(kernel, r);
        } finally {
            r.endOfKernel();
        }
        if (handled) return true;
        fallbacks.increment();
        r.sync();
        reference.execute(kernel);
        return false;
    }

    /**
     * Runs what this thread recorded and every recording of another thread that touches storage
     * made on a thread other than its own (so a scope's end on any thread frees nothing a waiting
     * kernel of another thread uses).
     */
    @Override
    public void sync() {
        Recorder r = recorders.get();
        if (r.capture() == null) syncOwn(r); // a capturing thread's kernels run with its program, never before
        if (lazy) runShared(r);
    }

    /** Runs what this thread recorded and, whichever thread recorded them, the kernels on {@code storage}. */
    @Override
    public void sync(Storage storage) {
        Recorder r = recorders.get();
        boolean capturing = r.capture() != null;
        if (!capturing) syncOwn(r);
        if (lazy && storage.backendState() instanceof Track t) {
            Recording w = t.writer;
            if (w != null && !w.ran && (!capturing || w.recorder != r)) w.recorder.runFor(w);
            if (t.owner != r || t.readElsewhere) {
                runShared(r);
                if (!capturing || t.owner != r) t.owner.runPending();
            }
        }
    }

    private void syncOwn(Recorder r) {
        if (!lazy) {
            r.sync();
            return;
        }
        ReentrantLock lock = r.lock();
        lock.lock();
        try {
            r.sync();
        } finally {
            lock.unlock();
        }
    }

    /** Runs every recording of a thread other than {@code r}'s that touches storage made elsewhere. */
    private static void runShared(Recorder r) {
        if (SHARED.isEmpty()) return;
        for (Recording rec : SHARED) {
            if (rec.recorder != r) rec.recorder.runFor(rec);
        }
    }

    /** Forgets {@code recording} as shared: it ran. */
    void ran(Recording recording) {
        SHARED.remove(recording);
    }

    /** The storage's {@link Track}, made now for storage this backend did not make (its first user counts as its maker). */
    private static Track track(Storage s, Recorder r) {
        if (s.backendState() instanceof Track t) return t;
        Track t = new Track(r);
        s.backendState(t);
        return t;
    }

    /**
     * Before a kernel that reads ({@code writes} false) or writes {@code s} is recorded on {@code r}:
     * runs what other threads recorded that must come first.
     */
    private static void await(Storage s, boolean writes, Recorder r) {
        Track t = track(s, r);
        Recording w = t.writer;
        if (w != null && w.recorder != r && !w.ran) w.recorder.runFor(w);   // it writes what this reads or writes
        if (writes && t.readElsewhere) runShared(r);                        // they read what this overwrites
        if (writes && t.owner != r) t.owner.runPending();                   // so may the thread that made it
    }

    /**
     * After a kernel on {@code s} was recorded on {@code r} (holding its lock): notes what it does to
     * {@code s}. The kernel is in the recording that pinned {@code s} before it was submitted (a full
     * recording runs only after this, in {@link Recorder#flushIfFull()}).
     */
    private static void note(Storage s, boolean writes, Recorder r) {
        Track t = track(s, r);
        Recording current = r.current();
        current.noted = true;
        if (writes) t.writer = current;
        if (t.owner != r) {
            if (!writes) t.readElsewhere = true;
            if (!current.shared) {
                current.shared = true;
                SHARED.add(current);
            }
        }
    }

    /** Refused while this thread captures: a replayed step cannot read mid-step. */
    @Override
    public void read(Storage from, long byteOffset, MemorySegment to) {
        if (recorders.get().capture() != null) throw CaptureRefusals.read(from);
        Backend.super.read(from, byteOffset, to);
    }

    /** While this thread captures, allowed only into storage made in the step that no kernel used yet (a constant). */
    @Override
    public void write(Storage to, long byteOffset, MemorySegment from) {
        CpuCapture c = recorders.get().capture();
        if (c != null && !c.writable(to)) throw CaptureRefusals.write(to);
        Backend.super.write(to, byteOffset, from);
    }

    /** Refused while this thread captures: a copy through Java would not be replayed. */
    @Override
    public void copy(Storage from, long fromOffset, Storage to, long toOffset, long bytes) {
        if (recorders.get().capture() != null) throw CaptureRefusals.copy(from, to);
        Backend.super.copy(from, fromOffset, to, toOffset, bytes);
    }

    /**
     * True while this thread captures a step (the native kernels check every index themselves and a
     * replay reports one out of range, naming the kernel), so the frontend does not read indices
     * mid-step; false otherwise, and the frontend checks them before the kernel is recorded.
     */
    @Override
    public boolean checksIndices() {
        return recorders.get().capture() != null;
    }

    /**
     * Captures a step on this thread: what it recorded runs now, and every kernel it submits until
     * the capture ends goes into one batch that each replay runs in one crossing (see
     * {@code dev.panamax.tensor.StepCapture}). The capture pins the storage its kernels touch; a
     * read, a write from Java into storage in use, a copy through Java or a kernel without a native
     * lowering is refused with a {@code TensorException}.
     */
    @Override
    public Capture beginCapture() {
        Recorder r = recorders.get();
        if (!lazy) return r.beginCapture();
        ReentrantLock lock = r.lock();
        lock.lock();
        try {
            CpuCapture c = r.beginCapture();
            runShared(r);
            return c;
        } finally {
            lock.unlock();
        }
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
            case Kernel.AdamStep a -> bytes(a.param()) + bytes(a.grad()) + bytes(a.m()) + bytes(a.v())
                    + (a.stepScalars() == null ? 0 : bytes(a.stepScalars()));
            case Kernel.CrossEntropy c -> bytes(c.loss()) + (c.grad() == null ? 0 : bytes(c.grad())) + bytes(c.logits()) + bytes(c.labels());
            case Kernel.Softmax s -> bytes(s.out()) + bytes(s.in());
            case Kernel.SoftmaxGrad s -> bytes(s.out()) + bytes(s.y()) + bytes(s.dy());
            case Kernel.LayerNorm l -> bytes(l.out()) + bytes(l.mean()) + bytes(l.rstd()) + bytes(l.in())
                    + (l.weight() == null ? 0 : bytes(l.weight())) + (l.bias() == null ? 0 : bytes(l.bias()));
            case Kernel.LayerNormGrad l -> bytes(l.dx()) + (l.dweight() == null ? 0 : bytes(l.dweight()))
                    + (l.dbias() == null ? 0 : bytes(l.dbias())) + bytes(l.dy()) + bytes(l.in()) + bytes(l.mean()) + bytes(l.rstd())
                    + (l.weight() == null ? 0 : bytes(l.weight()));
            case Kernel.MaxPool2d m -> bytes(m.out()) + bytes(m.indices()) + bytes(m.in());
            case Kernel.MaxPool2dGrad m -> bytes(m.dx()) + bytes(m.dy()) + bytes(m.indices());
            case Kernel.BatchNorm b -> bytes(b.out()) + bytes(b.mean()) + bytes(b.var()) + bytes(b.in())
                    + (b.weight() == null ? 0 : bytes(b.weight())) + (b.bias() == null ? 0 : bytes(b.bias()));
            case Kernel.BatchNormGrad b -> bytes(b.dx()) + (b.dweight() == null ? 0 : bytes(b.dweight()))
                    + (b.dbias() == null ? 0 : bytes(b.dbias())) + bytes(b.dy()) + bytes(b.in()) + bytes(b.mean()) + bytes(b.var())
                    + (b.weight() == null ? 0 : bytes(b.weight()));
        };
    }

    private static long bytes(Operand o) {
        long n = o.dtype().byteSize();
        for (int i = 0; i < o.rank(); i++) if (o.strides()[i] != 0) n *= o.shape()[i];
        return n;
    }

    void countReplay(int kernelsRun) {
        kernels.add(kernelsRun);
        countCrossing(kernelsRun);
    }

    void countCrossing(int kernelsRun) {
        crossings.increment();
        if (kernelsRun > 1) batched.add(kernelsRun);
    }
}
