package dev.panamax.tensor.opencl;

import dev.panamax.compute.BlitEncoder;
import dev.panamax.compute.Buffer;
import dev.panamax.compute.CommandBuffer;
import dev.panamax.compute.CommandBufferException;
import dev.panamax.compute.CommandQueue;
import dev.panamax.compute.ComputeDevice;
import dev.panamax.compute.ComputeEncoder;
import dev.panamax.compute.RecordedCommands;
import dev.panamax.compute.References;
import dev.panamax.compute.StorageMode;
import dev.panamax.compute.Validation;
import dev.panamax.tensor.DType;
import dev.panamax.tensor.spi.Backend;
import dev.panamax.tensor.spi.Capture;
import dev.panamax.tensor.spi.CaptureRefusals;
import dev.panamax.tensor.spi.Device;
import dev.panamax.tensor.spi.Kernel;
import dev.panamax.tensor.spi.KernelText;
import dev.panamax.tensor.spi.Storage;

import java.lang.foreign.MemorySegment;
import java.lang.ref.WeakReference;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Tensors on one OpenCL device, written on the public compute API: storage is a PRIVATE buffer of
 * the device's pool ({@link OpenClStorage}); every kernel of the closed set is a generated OpenCL C
 * kernel ({@link KernelEncoder}) and matrix products go to CLBlast where it is installed
 * ({@link ClBlastProducts}), its calls encoded as native commands in the same command buffers.
 *
 * <p><b>Laziness.</b> Kernels are encoded into one open command buffer, shared by every thread
 * (submission order is the order kernels reach the backend, under its lock); it is committed
 * without waiting when it holds {@value #DEFAULT_KERNELS_PER_COMMIT} kernels
 * ({@code panamax.tensor.opencl.kernelsPerCommit}) and at every sync, which then waits for the
 * device. A training step therefore makes no host round trip until its loss is read. Copies in and
 * out ({@link #write}, {@link #read}) are blit commands in the same stream; a read waits for it.
 * Each committed command buffer holds the kernels it runs, so the storage they touch stays alive
 * until the device is done with it, whatever the GC sees.
 *
 * <p><b>Failures.</b> A kernel the device cannot compile fails at once, naming the kernel and the
 * device; a command buffer the device fails (out of resources, a lost device) surfaces from the
 * next sync with the failing command and the number of kernels it carried; after {@link #close()}
 * every use fails, naming the backend. Each is an {@link OpenClTensorException}.
 */
public final class OpenClTensorBackend implements Backend, AutoCloseable {
    /** The name users select the backend by. */
    public static final String NAME = "opencl";
    /** Kernels encoded before the open command buffer is committed without a sync. */
    public static final int DEFAULT_KERNELS_PER_COMMIT = 512;
    private static final int KERNELS_PER_COMMIT = OpenClTensorSettings.KERNELS_PER_COMMIT.get();

    private final ComputeDevice device;
    private final Device tag;
    private final CommandQueue queue;
    private final KernelCache kernels;
    private final KernelEncoder encoder;
    private final ClBlastProducts products;
    private final IndexErrors indexErrors;

    // guarded by this
    private CommandBuffer open;
    private ComputeEncoder compute;
    private final ArrayList<Object> held = new ArrayList<>();
    private int kernelsInOpen;
    /** Bytes of storage made since the last commit: the open command buffer may hold all of them. */
    private long bytesSinceCommit;
    /** From this many bytes made since the last commit, the next kernel commits (a quarter of the device budget). */
    private final long commitAtBytes;
    private final ArrayDeque<Committed> inFlight = new ArrayDeque<>();
    private OpenClTensorException failure;
    /** Whether a kernel that checks indices on the device was encoded since the record was last read. */
    private boolean indexKernelsSinceCheck;
    private boolean closed;
    /** The step being captured, or null: its thread's kernels go into the capture's own command buffer. */
    private ClCapture capturing;
    private long kernelCount, commits, syncs, products_, reads, writes, replays;

    /**
     * A committed command buffer, what it holds (its kernels, and the storage they touch, pinned:
     * a storage closed meanwhile keeps its block until the device is done with it), and how many
     * kernels it runs.
     */
    private record Committed(CommandBuffer buffer, Object[] held, int kernels) {
        void unpin() {
            for (Object o : held) if (o instanceof Storage s) s.handle().unpin();
        }
    }

    /** The backend on {@code device}, the {@code index}-th OpenCL device (what its {@link Device} tag names). */
    public OpenClTensorBackend(ComputeDevice device, int index) {
        this(device, index, new KernelCache(device));
    }

    /** A backend whose programs come from {@code kernels} (tests give it source that does not compile). */
    OpenClTensorBackend(ComputeDevice device, int index, KernelCache kernels) {
        this.device = Objects.requireNonNull(device, "device");
        this.tag = new Device(NAME, index, device.info().name());
        this.queue = device.newCommandQueue(8);
        this.kernels = kernels;
        this.indexErrors = new IndexErrors(device);
        this.encoder = new KernelEncoder(kernels, indexErrors);
        this.products = ClBlastProducts.forDevice(device);
        this.commitAtBytes = Math.max(1L << 20, device.memoryStats().limitBytes() / 4);
        WeakReference<OpenClTensorBackend> self = new WeakReference<>(this);
        device.onMemoryPressure(() -> {
            OpenClTensorBackend backend = self.get();
            if (backend != null) backend.relieveMemoryPressure();
        });
    }

    /**
     * When the device's budget is full: the kernels waiting in command buffers hold the storage they
     * touch, so they are committed and waited for, and what only they held becomes garbage while it
     * is young, before the budget waits for the GC. A failure is kept for the next sync, as if the
     * wait had been that sync's.
     */
    private synchronized void relieveMemoryPressure() {
        if (closed) return;
        try {
            commit();
        } catch (OpenClTensorException e) {
            if (failure == null) failure = e;
        }
        while (!inFlight.isEmpty()) retire(inFlight.pollFirst());
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Device device() {
        return tag;
    }

    /** The compute device the tensors live on. */
    public ComputeDevice computeDevice() {
        return device;
    }

    /** Whether matrix products run through CLBlast (else through the generated tiled kernel). */
    public boolean usesClBlast() {
        return products != null;
    }

    @Override
    public Storage allocate(DType dtype, long length) {
        checkOpen("allocate");
        long bytes = Math.multiplyExact(length, (long) dtype.byteSize());
        try {
            Buffer b;
            synchronized (this) {
                retireFinished(); // what finished runs pinned can go back to the pool before this takes more
            }
            // over the budget, the device first runs relieveMemoryPressure, then waits for the GC
            b = device.newBuffer(Math.max(bytes, 16), StorageMode.PRIVATE);
            OpenClStorage made = new OpenClStorage(this, b, dtype, length, tag);
            synchronized (this) {
                bytesSinceCommit += bytes;
                if (capturingHere()) capturing.allocated(made);
            }
            return made;
        } catch (RuntimeException e) {
            throw new OpenClTensorException(tag, "cannot allocate " + length + " x " + dtype.label() + " (" + bytes
                    + " bytes) of device memory: " + e.getMessage(), e);
        }
    }

    @Override
    public synchronized void execute(Kernel kernel) {
        checkOpen(KernelText.name(kernel));
        if (capturingHere()) {
            captured(kernel, capturing);
            return;
        }
        try {
            if (kernel instanceof Kernel.MatMul mm && products != null && products.takes(mm)) {
                endCompute();
                products.encode(commandBuffer(), mm, this::buffer);
                products_++;
            } else {
                if (kernel instanceof Kernel.IndexSelect || kernel instanceof Kernel.IndexAdd || kernel instanceof Kernel.CrossEntropy) {
                    if (!indexErrors.cleared()) {
                        endCompute();
                        indexErrors.clearIn(commandBuffer());
                    }
                    indexKernelsSinceCheck = true;
                }
                encoder.encode(kernel, computeEncoder(), this::buffer);
            }
        } catch (OpenClTensorException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new OpenClTensorException(tag, KernelText.describe(kernel) + ": " + e.getMessage(), e);
        }
        held.add(kernel);
        forEachStorage(kernel, this::pinOnce);
        kernelCount++;
        // committed when full, or when what it may hold alive reaches a quarter of the device's memory:
        // the device then frees what the kernels no longer need while the host goes on encoding
        if (++kernelsInOpen >= KERNELS_PER_COMMIT || bytesSinceCommit >= commitAtBytes) commit();
    }

    @Override
    public synchronized void sync() {
        if (closed) return; // nothing can be in flight: close synced
        commitAndWait();
    }

    /**
     * Commits without waiting when the open command buffer uses {@code storage}: the frontend may
     * free it afterwards, because every run keeps the storage it touches pinned until the device is
     * done (Java never reads device memory directly; {@link #read} waits for the device itself).
     */
    @Override
    public synchronized void sync(Storage storage) {
        // a storage the open command buffer uses must be committed before it is freed (a command buffer
        // refuses resources closed before its commit); one that only committed runs use needs nothing
        if (!closed && open != null && openUses(storage)) commit();
    }

    /** Whether a command of the open command buffer uses {@code storage} (it is pinned there). */
    private boolean openUses(Storage storage) {
        for (int i = held.size() - 1; i >= 0; i--) if (held.get(i) == storage) return true;
        return false;
    }

    /** Commits without waiting (storage may be freed afterwards: runs keep theirs pinned). */
    @Override
    public synchronized void flush() {
        if (!closed) commit();
    }

    @Override
    public synchronized void write(Storage to, long byteOffset, MemorySegment from) {
        checkOpen("write");
        if (capturingHere() && !capturing.writable(to)) throw CaptureRefusals.write(to);
        long bytes = from.byteSize();
        checkRange("write", to, byteOffset, bytes);
        if (bytes == 0) return;
        endCompute();
        try (BlitEncoder blit = commandBuffer().blitEncoder()) {
            blit.write(buffer(to), byteOffset, from); // a heap segment is copied now, a native one read when it runs
        }
        pin(to);
        writes++;
        if (from.isNative()) {
            commit(); // the caller may reuse a native source once this returns
            awaitAll();
        }
    }

    @Override
    public synchronized void read(Storage from, long byteOffset, MemorySegment to) {
        checkOpen("read");
        if (capturingHere()) throw CaptureRefusals.read(from);
        long bytes = to.byteSize();
        checkRange("read", from, byteOffset, bytes);
        if (bytes == 0) return;
        endCompute();
        try (BlitEncoder blit = commandBuffer().blitEncoder()) {
            blit.read(buffer(from), byteOffset, to); // delivered into `to` when the command buffer completes
        }
        pin(from);
        reads++;
        commitAndWait();
    }

    @Override
    public synchronized void copy(Storage from, long fromOffset, Storage to, long toOffset, long bytes) {
        checkOpen("copy");
        if (capturingHere()) throw CaptureRefusals.copy(from, to);
        checkRange("copy", from, fromOffset, bytes);
        checkRange("copy", to, toOffset, bytes);
        if (bytes == 0) return;
        endCompute();
        try (BlitEncoder blit = commandBuffer().blitEncoder()) {
            blit.copy(buffer(from), fromOffset, buffer(to), toOffset, bytes);
        }
        pin(from);
        pin(to);
    }

    @Override
    public Map<String, Long> counters() {
        synchronized (this) {
            Map<String, Long> m = new LinkedHashMap<>();
            m.put("kernels", kernelCount);
            m.put("commits", commits);
            m.put("kernelsPerCommit", commits == 0 ? 0 : Math.round((double) kernelCount / commits));
            m.put("clblastProducts", products_);
            m.put("syncs", syncs);
            m.put("reads", reads);
            m.put("writes", writes);
            m.put("replays", replays);
            m.put("programs", (long) kernels.programs());
            return m;
        }
    }

    /**
     * Runs what was submitted, then frees the queue and the compiled kernels. Tensors made on this
     * backend keep their memory until they are closed or collected, but can no longer compute.
     * Idempotent.
     */
    @Override
    public synchronized void close() {
        if (closed) return;
        try {
            commitAndWait();
        } finally {
            closed = true;
            try {
                queue.close();
            } finally {
                try {
                    kernels.close();
                } finally {
                    indexErrors.close();
                }
            }
        }
    }

    // ------------------------------------------------------------------ the command stream

    private CommandBuffer commandBuffer() {
        if (open == null) {
            open = queue.commandBuffer(References.UNRETAINED, Validation.CHECKED).label("tensor kernels on " + tag);
            kernelsInOpen = 0;
        }
        return open;
    }

    private ComputeEncoder computeEncoder() {
        if (compute == null) compute = commandBuffer().computeEncoder();
        return compute;
    }

    private void endCompute() {
        if (compute != null) {
            ComputeEncoder e = compute;
            compute = null;
            e.close();
        }
    }

    /** Commits the open command buffer, if any, without waiting; retires what the device finished. */
    private void commit() {
        if (open == null) return;
        endCompute();
        CommandBuffer cb = open;
        Committed c = new Committed(cb, held.toArray(), kernelsInOpen);
        open = null;
        held.clear();
        kernelsInOpen = 0;
        bytesSinceCommit = 0;
        try {
            cb.commit();
        } catch (RuntimeException e) {
            c.unpin(); // nothing of it runs
            throw new OpenClTensorException(tag, "committing " + c.kernels + " kernels failed: " + e.getMessage(), e);
        }
        commits++;
        inFlight.addLast(c);
        retireFinished();
    }

    /** Retires, without waiting, the committed command buffers the device has finished (their storage unpinned). */
    private void retireFinished() {
        while (!inFlight.isEmpty() && inFlight.peekFirst().buffer.status().isFinished()) retire(inFlight.pollFirst());
    }

    /** Indices are checked by the kernels that read them, reported at the next sync that waits ({@link IndexErrors}). */
    @Override
    public boolean checksIndices() {
        return true;
    }

    /**
     * Commits what is open, with a read of the index-error record when a kernel that checks indices
     * ran since the last one, waits for every command buffer, then throws the first device failure,
     * else the first index out of range, since the last wait.
     */
    private void commitAndWait() {
        int[] record = null;
        if (indexKernelsSinceCheck) {
            endCompute();
            record = indexErrors.readAndClearIn(commandBuffer());
            indexKernelsSinceCheck = false;
        }
        commit();
        awaitAll();
        var bad = IndexErrors.failure(record);
        if (bad != null) throw bad;
    }

    /** Waits for every committed command buffer; throws the first failure since the last sync. */
    private void awaitAll() {
        syncs++;
        while (!inFlight.isEmpty()) retire(inFlight.pollFirst());
        OpenClTensorException f = failure;
        if (f != null) {
            failure = null;
            throw f;
        }
    }

    /** Waits for one command buffer, unpins its storage and notes its failure (the first one since the last sync). */
    private void retire(Committed c) {
        try {
            c.buffer.waitUntilCompleted();
        } catch (CommandBufferException e) {
            if (failure == null) {
                failure = new OpenClTensorException(tag, "a command buffer of " + c.kernels + " tensor kernels failed: "
                        + e.getMessage() + "; the tensors those kernels write hold undefined values", e);
            }
        } finally {
            c.unpin();
        }
    }

    /** Pins a storage until the command buffer that uses it is done (once per command buffer). */
    private void pin(Storage s) {
        s.handle().pin();
        held.add(s);
    }

    /** Hands {@code to} each storage a kernel reads or writes (one may come twice). */
    private static void forEachStorage(Kernel kernel, Consumer<Storage> to) {
        switch (kernel) {
            case Kernel.Fill k -> to.accept(k.out().storage());
            case Kernel.Unary k -> { to.accept(k.out().storage()); to.accept(k.in().storage()); }
            case Kernel.Binary k -> { to.accept(k.out().storage()); to.accept(k.a().storage()); to.accept(k.b().storage()); }
            case Kernel.BinaryScalar k -> { to.accept(k.out().storage()); to.accept(k.a().storage()); }
            case Kernel.Where k -> { to.accept(k.out().storage()); to.accept(k.cond().storage()); to.accept(k.a().storage()); to.accept(k.b().storage()); }
            case Kernel.Reduce k -> { to.accept(k.out().storage()); to.accept(k.in().storage()); }
            case Kernel.MatMul k -> { to.accept(k.out().storage()); to.accept(k.a().storage()); to.accept(k.b().storage()); }
            case Kernel.IndexSelect k -> { to.accept(k.out().storage()); to.accept(k.in().storage()); to.accept(k.index().storage()); }
            case Kernel.IndexAdd k -> { to.accept(k.out().storage()); to.accept(k.index().storage()); to.accept(k.src().storage()); }
            case Kernel.AdamStep k -> {
                to.accept(k.param().storage()); to.accept(k.grad().storage()); to.accept(k.m().storage()); to.accept(k.v().storage());
                if (k.stepScalars() != null) to.accept(k.stepScalars().storage());
            }
            case Kernel.CrossEntropy k -> {
                to.accept(k.loss().storage()); if (k.grad() != null) to.accept(k.grad().storage());
                to.accept(k.logits().storage()); to.accept(k.labels().storage());
            }
            case Kernel.Softmax k -> { to.accept(k.out().storage()); to.accept(k.in().storage()); }
            case Kernel.SoftmaxGrad k -> { to.accept(k.out().storage()); to.accept(k.y().storage()); to.accept(k.dy().storage()); }
            case Kernel.LayerNorm k -> {
                to.accept(k.out().storage()); to.accept(k.mean().storage()); to.accept(k.rstd().storage()); to.accept(k.in().storage());
                if (k.weight() != null) to.accept(k.weight().storage());
                if (k.bias() != null) to.accept(k.bias().storage());
            }
            case Kernel.LayerNormGrad k -> {
                to.accept(k.dx().storage()); to.accept(k.dy().storage()); to.accept(k.in().storage());
                to.accept(k.mean().storage()); to.accept(k.rstd().storage());
                if (k.dweight() != null) to.accept(k.dweight().storage());
                if (k.dbias() != null) to.accept(k.dbias().storage());
                if (k.weight() != null) to.accept(k.weight().storage());
            }
            case Kernel.MaxPool2d k -> { to.accept(k.out().storage()); to.accept(k.indices().storage()); to.accept(k.in().storage()); }
            case Kernel.BatchNorm k -> {
                to.accept(k.out().storage()); to.accept(k.mean().storage()); to.accept(k.var().storage()); to.accept(k.in().storage());
                if (k.weight() != null) to.accept(k.weight().storage());
                if (k.bias() != null) to.accept(k.bias().storage());
            }
            case Kernel.BatchNormGrad k -> {
                to.accept(k.dx().storage()); to.accept(k.dy().storage()); to.accept(k.in().storage());
                to.accept(k.mean().storage()); to.accept(k.var().storage());
                if (k.dweight() != null) to.accept(k.dweight().storage());
                if (k.dbias() != null) to.accept(k.dbias().storage());
                if (k.weight() != null) to.accept(k.weight().storage());
            }
            case Kernel.MaxPool2dGrad k -> { to.accept(k.dx().storage()); to.accept(k.dy().storage()); to.accept(k.indices().storage()); }
        }
    }

    /** Pins a storage a kernel of the open command buffer uses (the last few pinned are not pinned again). */
    private void pinOnce(Storage s) {
        int n = held.size();
        for (int i = n - 1; i >= 0 && i >= n - 12; i--) if (held.get(i) == s) return; // pinned by a recent kernel
        s.handle().pin();
        held.add(s);
    }

    // ------------------------------------------------------------------ step capture

    /**
     * Captures a step on the calling thread (see {@code dev.panamax.tensor.StepCapture}): what is
     * open is committed first, and every kernel the thread submits until the capture ends is encoded
     * into a command buffer of the capture's own, which {@link Capture#finish()} records
     * ({@link dev.panamax.compute.CommandBuffer#record()}) and each replay submits whole: one command
     * buffer per step, no kernel lowered or encoded again in Java. Other threads' kernels keep going
     * to the shared stream. The capture pins the storage its kernels touch; a read, a write from Java
     * into storage in use and a copy through Java are refused with a {@code TensorException}, as on
     * the cpu backend. One step is captured at a time per backend.
     */
    @Override
    public synchronized Capture beginCapture() {
        checkOpen("capture");
        if (capturing != null) throw CaptureRefusals.alreadyCapturing(NAME);
        commit();
        capturing = new ClCapture(this, queue.commandBufferForRecording().label("captured step on " + tag));
        return capturing;
    }

    /** The capture {@code c} ended (finished or abandoned); the caller holds this backend's lock. */
    void endCapture(ClCapture c) {
        if (capturing == c) capturing = null;
    }

    /** Whether the calling thread is capturing a step (the caller holds this backend's lock). */
    private boolean capturingHere() {
        return capturing != null && capturing.onCapturingThread();
    }

    /** Encodes {@code kernel} into capture {@code c}'s command buffer, its storage pinned by the capture. */
    private void captured(Kernel kernel, ClCapture c) {
        try {
            if (kernel instanceof Kernel.MatMul mm && products != null && products.takes(mm)) {
                products.encode(c.commandBuffer(), mm, this::buffer); // a native command: called again by each replay
            } else {
                if (kernel instanceof Kernel.IndexSelect || kernel instanceof Kernel.IndexAdd || kernel instanceof Kernel.CrossEntropy) {
                    if (!indexErrors.cleared()) { // zeroed once, in the shared stream, which runs before any replay
                        endCompute();
                        indexErrors.clearIn(commandBuffer());
                    }
                    c.checkingIndices();
                }
                encoder.encode(kernel, c.computeEncoder(), this::buffer);
            }
        } catch (OpenClTensorException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new OpenClTensorException(tag, KernelText.describe(kernel) + " (capturing a step): " + e.getMessage(), e);
        }
        forEachStorage(kernel, c::touch);
        c.kernel();
    }

    /**
     * Submits a captured program's recording after what is open (committed first, without waiting):
     * its run is waited for, and its failures and index errors reported, as a commit's are.
     */
    synchronized void replay(RecordedCommands recorded, int kernels, boolean checksIndices) {
        checkOpen("replay");
        commit();
        CommandBuffer run;
        try {
            run = recorded.submit();
        } catch (RuntimeException e) {
            throw new OpenClTensorException(tag, "replaying a captured step of " + kernels + " kernels failed: " + e.getMessage(), e);
        }
        replays++;
        kernelCount += kernels;
        inFlight.addLast(new Committed(run, new Object[0], kernels));
        if (checksIndices) indexKernelsSinceCheck = true;
        retireFinished();
    }

    // ------------------------------------------------------------------ storage

    /** The buffer of a storage this backend made. */
    Buffer buffer(Storage s) {
        if (s instanceof OpenClStorage o && o.backend() == this) return o.buffer();
        throw new IllegalArgumentException("storage on " + s.device() + " handed to the opencl backend on " + tag
                + "; move the tensor with tensor.to(\"" + NAME + "\") first");
    }

    private void checkRange(String what, Storage s, long byteOffset, long bytes) {
        if (byteOffset < 0 || bytes < 0 || byteOffset > s.byteSize() - bytes) {
            throw new IllegalArgumentException(what + " of " + bytes + " bytes at offset " + byteOffset + " outside " + s
                    + " (" + s.byteSize() + " bytes)");
        }
    }

    private void checkOpen(String what) {
        if (closed) {
            throw new OpenClTensorException(tag, what + ": the opencl tensor backend was closed; tensors made on it can no "
                    + "longer compute or be read", null);
        }
    }

    @Override
    public String toString() {
        return "OpenClTensorBackend[" + tag + (products != null ? ", CLBlast" : "") + "]";
    }

    /**
     * For tests: encodes {@code command} into the open command buffer as a native command, as a
     * library's call would be (a command that throws stands for a device failing the command buffer).
     */
    synchronized void encodeNative(String description, dev.panamax.compute.NativeCommand command) {
        checkOpen(description);
        endCompute();
        commandBuffer().encodeNative(description, List.of(), command);
        kernelsInOpen++;
    }

    /** For tests: the kernels of the open command buffer and of those committed and not yet retired. */
    synchronized List<Integer> pendingKernels() {
        List<Integer> l = new ArrayList<>();
        for (Committed c : inFlight) l.add(c.kernels);
        l.add(kernelsInOpen);
        return l;
    }
}
