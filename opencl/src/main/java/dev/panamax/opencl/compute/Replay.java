package dev.panamax.opencl.compute;

import dev.panamax.compute.ArgumentInfo;
import dev.panamax.compute.Buffer;
import dev.panamax.compute.CommandBufferException;
import dev.panamax.compute.Size;
import dev.panamax.compute.spi.Argument;
import dev.panamax.compute.spi.Command;
import dev.panamax.compute.spi.Submission;
import dev.panamax.core.batch.Batch;
import dev.panamax.core.batch.BatchFailedException;
import dev.panamax.core.batch.BatchMode;
import dev.panamax.core.batch.Thunk;
import dev.panamax.opencl.binding.CL;
import dev.panamax.opencl.binding.CLException;
import dev.panamax.opencl.binding.CLThunks;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A queue's recorder: turns a submission into the queue's one core {@link Batch} and runs it, under
 * the device's replay lock, so one replay at a time uses its memory and nothing is made per commit.
 *
 * <p>A replay first plans the calls in typed form (which function, its arguments as raw values):
 * every {@code clSetKernelArg} a dispatch needs (only the arguments whose value differs from what
 * the {@code cl_kernel} holds, which persists across command buffers), every enqueue (the last one
 * returning the event that tells when the run is done; a marker only when nothing was enqueued) and
 * a flush. When the plan calls the same functions as the batch's recording (the same command
 * buffer shape as the previous commit), only the arguments are written; otherwise the batch is
 * recorded afresh. Then one crossing runs it all. A command buffer of {@value #GATED_FROM} enqueues or
 * more is submitted behind a gate: its first command waits for a user event that is set only after
 * the last enqueue, so the device receives the whole command list at once, as Metal runs a
 * committed command buffer, instead of waking for each command while the host is still enqueueing
 * the next. Sizes and argument values live in the queue's
 * staging memory, read by the driver at the call; data a command reads or writes after the call
 * (a read's destination, a heap write's copy) goes into scratch memory the run keeps until it
 * completes.
 *
 * <p>A submission with native commands ({@link Command.Native}) runs as several batches: the
 * commands before a native command as one batch (gated on its own when it is large, the gate opened
 * before the call), then the native command, called on this thread with the queue, then the rest.
 * A native command last is followed by a marker, whose event completes the run. A submission
 * without any takes the one-batch path above, unchanged.
 */
final class Replay {
    /** Parameters planned per call: the most any recorded function takes. */
    private static final int STRIDE = 9;
    private static final long MAX_IDLE_BATCH_BYTES = 1 << 20;
    /**
     * The number of enqueues from which a replay is gated. On PoCL's CPU device 1,000 gated tiny
     * dispatches took 0.78-0.82x the time of the same enqueues ungated and 300 took 0.85x: a driver
     * thread that finds a command waiting runs the chain without sleeping between commands, and the
     * host's enqueues no longer compete with it. Below about 40 the gate costs more than it saves (the
     * first enqueue no longer wakes the device while the host enqueues the rest). Measured by
     * {@code ./panamax bench compute} as {@code opencl.gated.<n>.vs.ungated}.
     */
    static final int GATED_FROM = 64;

    /** The functions a replay records, with which of their parameters are 32-bit ({@code cl_uint}, {@code cl_bool}). */
    private enum Op {
        SET_ARG(CLThunks.clSetKernelArg.thunk(), 4, 1),
        NDRANGE(CLThunks.clEnqueueNDRangeKernel.thunk(), 9, 2, 6),
        COPY(CLThunks.clEnqueueCopyBuffer.thunk(), 9, 6),
        FILL(CLThunks.clEnqueueFillBuffer.thunk(), 9, 6),
        WRITE(CLThunks.clEnqueueWriteBuffer.thunk(), 9, 2, 6),
        READ(CLThunks.clEnqueueReadBuffer.thunk(), 9, 2, 6),
        BARRIER(CLThunks.clEnqueueBarrierWithWaitList.thunk(), 4, 1),
        MARKER(CLThunks.clEnqueueMarkerWithWaitList.thunk(), 4, 1),
        FLUSH(CLThunks.clFlush.thunk(), 1);

        final Thunk thunk;
        final int params;
        final boolean[] int32;
        /** Each parameter's offset from the first one's in a parameter block, learnt from the first recording. */
        long[] relative;

        Op(Thunk thunk, int params, int... int32) {
            this.thunk = thunk;
            this.params = params;
            this.int32 = new boolean[params];
            for (int i : int32) this.int32[i] = true;
        }
    }

    private final OpenClQueue queue;
    private final OpenClDevice device;
    private final long q;
    /** Holds the batch and the staging memory, so that a dropped queue's release frees them. */
    private final QueueResources resources;

    // the plan: one call per entry
    private Op[] ops = new Op[64];
    private long[] params = new long[64 * STRIDE];
    /** For each entry, the command it belongs to, and for argument entries the argument index (else -1). */
    private int[] entryCommand = new int[64];
    private int[] entryArgument = new int[64];
    private int size;
    /** The calls the batch holds now and where each one's parameters start in its argument area; -1: record afresh. */
    private Op[] recorded = new Op[64];
    private long[] blockStart = new long[64];
    /** The parameters as the batch holds them now: a replay of the same shape writes only the ones that differ. */
    private long[] written = new long[64 * STRIDE];
    private int recordedSize = -1;

    /** Sizes, argument values and fill patterns: read by the driver during the call, reused by the next replay. */
    private MemorySegment staging;
    private long stagingBase;
    private long at;

    // the replay under way
    private Submission submission;
    private List<Command> commands;
    private OpenClQueue.Scratch scratch;
    /** The run under way's hold on the buffers it uses. */
    private QueueResources.InFlight holding;
    private long scratchAt;
    private int lastEnqueue;
    private int firstEnqueue;
    private int enqueues;
    /** Native commands in the submission: with none, one batch runs it all. */
    private int natives;
    private final List<MemorySegment> transients = new ArrayList<>();

    Replay(OpenClQueue queue) {
        this.queue = queue;
        this.device = queue.device();
        this.q = queue.address().address();
        this.resources = queue.resources();
    }

    /** Hands the submission's commands to the device; the caller holds the device's replay lock. */
    Run replay(Submission s) {
        submission = s;
        commands = s.commands();
        size = 0;
        at = 0;
        lastEnqueue = -1;
        firstEnqueue = -1;
        enqueues = 0;
        long runBytes = prepare();
        scratch = runBytes == 0 ? null : queue.takeScratch(runBytes);
        scratchAt = 0;
        Run run = new Run(queue, s, scratch);
        holding = run.inFlight;
        try {
            long eventSlot = take(8);
            staging.set(ValueLayout.JAVA_LONG, eventSlot, 0L);
            long gateSlot = take(8);
            if (natives == 0) enqueue(run, 0, commands.size(), eventSlot, gateSlot);
            else enqueueAroundNatives(run, eventSlot, gateSlot);
            run.event(staging.get(ValueLayout.JAVA_LONG, eventSlot));
            return run;
        } catch (Throwable t) {
            device.argumentsEpoch++;
            recordedSize = -1;
            resources.runFinished(run.inFlight);
            if (scratch != null) queue.returnScratch(scratch);
            throw t;
        } finally {
            holding = null;
            if (!transients.isEmpty()) {
                for (MemorySegment t : transients) CL.clReleaseMemObject(t); // the commands hold their own references
                transients.clear();
            }
            submission = null;
            commands = null;
            scratch = null;
        }
    }

    /**
     * Plans, emits and runs commands {@code from} to {@code to} (exclusive) as one batch ending in a
     * flush, gated when they make {@value #GATED_FROM} enqueues or more. With {@code eventSlot} (else
     * -1) the last enqueue's event goes there (a marker's when nothing is enqueued). A refused command
     * stops the batch and the error goes to the run; the commands before it still run.
     *
     * @return whether every command was enqueued
     */
    private boolean enqueue(Run run, int from, int to, long eventSlot, long gateSlot) {
        size = 0;
        lastEnqueue = -1;
        firstEnqueue = -1;
        enqueues = 0;
        boolean enqueuedAll = true;
        try {
            plan(run, from, to);
        } catch (CommandBufferException e) {
            run.error(e); // the commands before it still run
            enqueuedAll = false;
        }
        int markerEntry = size;
        if (eventSlot >= 0) {
            if (lastEnqueue >= 0) {
                // an in-order queue: the last command's event (every enqueue's last parameter) completes after every command before it
                params[lastEnqueue * STRIDE + ops[lastEnqueue].params - 1] = stagingBase + eventSlot;
            } else {
                int e = add(Op.MARKER, -1, -1);
                set(e, q, 0, 0, stagingBase + eventSlot);
            }
        }
        set(add(Op.FLUSH, -1, -1), q);
        MemorySegment gate = enqueues >= GATED_FROM ? gate(gateSlot) : null;
        int failedAt = -1;
        try {
            emit();
            resources.batch.run();
        } catch (BatchFailedException e) {
            failedAt = e.index();
            enqueuedAll = false;
            device.argumentsEpoch++; // the calls after the failing one did not run
            run.error(failure(e));
        } finally {
            if (gate != null) open(gate); // the commands enqueued, even before a failure, run
        }
        if (eventSlot >= 0 && failedAt >= 0 && failedAt < markerEntry && staging.get(ValueLayout.JAVA_LONG, eventSlot) == 0) {
            markCompletion(eventSlot); // the commands before the failing one are enqueued: a marker still tells when they are done
        }
        return enqueuedAll;
    }

    /**
     * A submission with native commands: the commands between them as batches, each native command
     * called after the batch before it has run (and its gate opened, so a library that waits for the
     * queue cannot wait for a gate only this thread would open). After a failure nothing more runs,
     * and a marker gives the run's event.
     */
    private void enqueueAroundNatives(Run run, long eventSlot, long gateSlot) {
        List<Command> commands = this.commands;
        int count = commands.size(), from = 0;
        for (int i = 0; i < count; i++) {
            if (!(commands.get(i) instanceof Command.Native n)) continue;
            if ((i > from && !enqueue(run, from, i, -1, gateSlot)) || !callNative(run, n, i)) {
                markCompletion(eventSlot);
                return;
            }
            from = i + 1;
        }
        enqueue(run, from, count, eventSlot, gateSlot); // a native command last: a marker alone gives the event
    }

    /**
     * Holds the native command's buffers for the run, then calls it with the queue; whatever it
     * throws becomes the run's error.
     *
     * @return whether it returned normally
     */
    private boolean callNative(Run run, Command.Native n, int index) {
        try {
            for (Buffer b : n.uses()) mem(b, index); // held until the device is done with the run
        } catch (CommandBufferException e) {
            run.error(e);
            return false;
        }
        try (OpenClNativeQueue on = new OpenClNativeQueue(device, queue.address(), n.uses(), submission, index)) {
            n.command().enqueue(on);
            return true;
        } catch (Throwable t) { // a failing library must fail the command buffer, never the replay
            run.error(OpenClQueue.failure(submission, index, "it threw " + t, t));
            return false;
        }
    }

    /** A marker whose event goes to {@code eventSlot}: it completes when every command enqueued before it has. */
    private void markCompletion(long eventSlot) {
        MemorySegment slot = MemorySegment.ofAddress(stagingBase + eventSlot);
        int status = CL.clEnqueueMarkerWithWaitList(queue.address(), 0, MemorySegment.NULL, slot);
        if (status == CL.CL_SUCCESS) CL.clFlush(queue.address());
        else CL.clFinish(queue.address());
    }

    /**
     * Makes the first enqueue wait for a new user event, whose handle goes to {@code slot}; null (no
     * gate) when the driver cannot make one.
     */
    private MemorySegment gate(long slot) {
        MemorySegment event = CL.clCreateUserEvent(device.context(), MemorySegment.NULL);
        if (event.equals(MemorySegment.NULL)) return null;
        staging.set(ValueLayout.JAVA_LONG, slot, event.address());
        int waitCount = ops[firstEnqueue].params - 3; // every enqueue ends (count, wait list, event)
        params[firstEnqueue * STRIDE + waitCount] = 1;
        params[firstEnqueue * STRIDE + waitCount + 1] = stagingBase + slot;
        return event;
    }

    /** Sets the gate's user event complete, which starts the gated commands, and releases it. */
    private static void open(MemorySegment gate) {
        int status = CL.clSetUserEventStatus(gate, CL.CL_COMPLETE);
        CL.clReleaseEvent(gate);
        if (status != CL.CL_SUCCESS)
            throw new IllegalStateException("clSetUserEventStatus returned " + CLException.nameOf("cl_status", status) + " (" + status + ")");
    }

    // ------------------------------------------------------------------ planning

    /** Plans commands {@code first} to {@code end} (exclusive), none of them native. */
    private void plan(Run run, int first, int end) {
        long epoch = device.argumentsEpoch;
        OpenClPipeline lastPipeline = null;
        Argument[] lastArgs = null;
        Size lastGrid = null, lastGroup = null;
        long sizes = 0;
        int dims = 0;
        List<Command> commands = this.commands;
        int count = end;
        Command previous = null;
        for (int i = first; i < count; i++) {
            Command c = commands.get(i);
            if (c == previous && c instanceof Command.Dispatch && lastEnqueue == size - 1) {
                // the encoder recorded the same dispatch again (and maybe again): the same enqueues
                int last = i;
                while (last + 1 < count && commands.get(last + 1) == c) last++;
                repeat(lastEnqueue, i, last);
                i = last;
                continue;
            }
            previous = c;
            switch (c) {
                case Command.Dispatch d -> {
                    OpenClPipeline p = d.pipeline() == lastPipeline ? lastPipeline : pipeline(d, i);
                    Argument[] args = d.arguments();
                    if (p != lastPipeline || args != lastArgs) { // an encoder shares one table between dispatches it did not change
                        setArguments(i, p, args, epoch);
                        lastPipeline = p;
                        lastArgs = args;
                    }
                    Size grid = d.grid(), group = d.threadgroup();
                    if (grid != lastGrid || group != lastGroup) {
                        dims = Math.max(grid.dimensions(), group.dimensions());
                        sizes = take(48);
                        for (int k = 0; k < 3; k++) {
                            staging.set(ValueLayout.JAVA_LONG, sizes + 8L * k, grid.get(k));
                            staging.set(ValueLayout.JAVA_LONG, sizes + 24 + 8L * k, group.get(k));
                        }
                        lastGrid = grid;
                        lastGroup = group;
                    }
                    int e = add(Op.NDRANGE, i, -1);
                    // the encoder refuses a grid that is not a whole number of groups: the group size is always given
                    set(e, q, p.kernel().address(), dims, 0, stagingBase + sizes, stagingBase + sizes + 24, 0, 0, 0);
                    enqueued(e);
                }
                case Command.Copy cp -> {
                    int e = add(Op.COPY, i, -1);
                    set(e, q, mem(cp.source(), i), mem(cp.destination(), i), cp.sourceOffset(), cp.destinationOffset(), cp.bytes(), 0, 0, 0);
                    enqueued(e);
                }
                case Command.Fill f -> {
                    long pattern = take(8);
                    staging.set(ValueLayout.JAVA_BYTE, pattern, f.value());
                    int e = add(Op.FILL, i, -1);
                    set(e, q, mem(f.buffer(), i), stagingBase + pattern, 1, f.offset(), f.bytes(), 0, 0, 0);
                    enqueued(e);
                }
                case Command.Write w -> {
                    MemorySegment data = w.data();
                    long from;
                    if (data.isNative()) {
                        from = data.address();
                    } else { // a non-blocking write reads its data when it runs: a copy the run keeps
                        long o = takeScratch(data.byteSize());
                        MemorySegment.copy(data, 0, scratch.segment(), o, data.byteSize());
                        from = scratch.segment().address() + o;
                    }
                    int e = add(Op.WRITE, i, -1);
                    set(e, q, mem(w.buffer(), i), CL.CL_FALSE, w.offset(), data.byteSize(), from, 0, 0, 0);
                    enqueued(e);
                }
                case Command.Read r -> {
                    long o = takeScratch(r.bytes());
                    run.addRead(r, o);
                    int e = add(Op.READ, i, -1);
                    set(e, q, mem(r.buffer(), i), CL.CL_FALSE, r.offset(), r.bytes(), scratch.segment().address() + o, 0, 0, 0);
                    enqueued(e);
                }
                case Command.Barrier b -> {
                    int e = add(Op.BARRIER, i, -1);
                    set(e, q, 0, 0, 0);
                    enqueued(e);
                }
                case Command.Native n -> throw new IllegalStateException("a native command is called between batches, never planned");
            }
        }
    }

    /** Plans a {@code clSetKernelArg} for each argument whose value differs from what the kernel holds. */
    private void setArguments(int command, OpenClPipeline p, Argument[] args, long epoch) {
        long[] bits = p.setBits, sizes = p.setSizes;
        if (p.argumentsEpoch != epoch) {
            Arrays.fill(sizes, -1);
            p.argumentsEpoch = epoch;
        }
        long kernel = p.kernel().address();
        List<ArgumentInfo> infos = p.arguments();
        for (int a = 0; a < args.length; a++) {
            Argument arg = args[a];
            if (arg == null) continue;
            long value, bytes;
            boolean cached = true; // a value the kernel can be known to hold (not a transient buffer)
            long valueAt;
            switch (arg) {
                case Argument.BufferArgument b -> {
                    value = mem(b.buffer(), command);
                    if (b.offset() != 0) {
                        value = subBuffer(MemorySegment.ofAddress(value), b.buffer(), b.offset(), command, a).address();
                        cached = false;
                    }
                    bytes = 8;
                    valueAt = -1;
                }
                case Argument.ScalarArgument s -> {
                    value = s.bits();
                    bytes = s.bytes();
                    valueAt = -1;
                }
                case Argument.BytesArgument b -> {
                    byte[] data = b.bytes();
                    long o = take(data.length);
                    MemorySegment.copy(data, 0, staging, ValueLayout.JAVA_BYTE, o, data.length);
                    cached = false;
                    if (a < infos.size() && infos.get(a).takesBuffer()) {
                        value = transientBuffer(MemorySegment.ofAddress(stagingBase + o), data.length, command, a).address();
                        bytes = 8;
                        valueAt = -1;
                    } else {
                        value = 0;
                        bytes = data.length;
                        valueAt = o;
                    }
                }
                case Argument.ThreadgroupMemory t -> {
                    value = 0;
                    bytes = t.bytes();
                    valueAt = Long.MIN_VALUE; // NULL: local memory of that size
                    cached = false;
                }
            }
            boolean known = a < sizes.length;
            if (cached && known && sizes[a] == bytes && bits[a] == value) continue;
            if (valueAt == -1) {
                valueAt = take(8);
                staging.set(ValueLayout.JAVA_LONG, valueAt, value);
            }
            int e = add(Op.SET_ARG, command, a);
            set(e, kernel, a, bytes, valueAt == Long.MIN_VALUE ? 0 : stagingBase + valueAt);
            if (known) {
                bits[a] = value;
                sizes[a] = cached ? bytes : -1;
            }
        }
    }

    /** Plans commands {@code first} to {@code last} as copies of entry {@code entry}, an enqueue. */
    private void repeat(int entry, int first, int last) {
        int n = last - first + 1, from = size, to = size + n;
        if (to > ops.length) grow(to);
        Op op = ops[entry];
        Arrays.fill(ops, from, to, op);
        Arrays.fill(entryArgument, from, to, -1);
        int[] commandOf = entryCommand;
        for (int e = from; e < to; e++) commandOf[e] = first + (e - from);
        long[] p = params;
        int src = entry * STRIDE;
        long a0 = p[src], a1 = p[src + 1], a2 = p[src + 2], a3 = p[src + 3], a4 = p[src + 4], a5 = p[src + 5],
                a6 = p[src + 6], a7 = p[src + 7], a8 = p[src + 8];
        for (int e = from; e < to; e++) set(e, a0, a1, a2, a3, a4, a5, a6, a7, a8);
        size = to;
        lastEnqueue = to - 1;
        enqueues += n;
    }

    /** Notes entry {@code e} as an enqueue. */
    private void enqueued(int e) {
        if (firstEnqueue < 0) firstEnqueue = e;
        lastEnqueue = e;
        enqueues++;
    }

    private void grow(int entries) {
        int n = Math.max(entries, ops.length * 2);
        ops = Arrays.copyOf(ops, n);
        params = Arrays.copyOf(params, n * STRIDE);
        entryCommand = Arrays.copyOf(entryCommand, n);
        entryArgument = Arrays.copyOf(entryArgument, n);
    }

    private int add(Op op, int command, int argument) {
        int e = size++;
        if (e == ops.length) grow(e + 1);
        ops[e] = op;
        entryCommand[e] = command;
        entryArgument[e] = argument;
        return e;
    }

    private void set(int e, long a0) {
        params[e * STRIDE] = a0;
    }

    private void set(int e, long a0, long a1, long a2, long a3) {
        int o = e * STRIDE;
        long[] p = params;
        p[o] = a0;
        p[o + 1] = a1;
        p[o + 2] = a2;
        p[o + 3] = a3;
    }

    private void set(int e, long a0, long a1, long a2, long a3, long a4, long a5, long a6, long a7, long a8) {
        int o = e * STRIDE;
        long[] p = params;
        p[o] = a0;
        p[o + 1] = a1;
        p[o + 2] = a2;
        p[o + 3] = a3;
        p[o + 4] = a4;
        p[o + 5] = a5;
        p[o + 6] = a6;
        p[o + 7] = a7;
        p[o + 8] = a8;
    }

    // ------------------------------------------------------------------ emitting

    /** Writes the plan into the batch: only the arguments when the batch already records these calls. */
    private void emit() {
        boolean same = recordedSize == size && Arrays.equals(recorded, 0, size, ops, 0, size);
        if (!same) record();
        MemorySegment area = resources.batch.arguments();
        if (!same) {
            for (int i = 0; i < size; i++) write(area, i);
            return;
        }
        // a replay of the last shape mostly finds its arguments in the batch already: write the entries that differ
        long[] p = params, w = written;
        int end = size * STRIDE;
        for (int at = Arrays.mismatch(p, 0, end, w, 0, end); at >= 0; ) {
            int i = at / STRIDE;
            write(area, i);
            int next = (i + 1) * STRIDE;
            int m = Arrays.mismatch(p, next, end, w, next, end);
            at = m < 0 ? -1 : next + m;
        }
    }

    /** Writes the parameters of entry {@code i} that differ from what its block holds. */
    private void write(MemorySegment area, int i) {
        Op op = ops[i];
        long start = blockStart[i];
        long[] rel = op.relative, p = params, w = written;
        boolean[] int32 = op.int32;
        int o = i * STRIDE;
        for (int k = 0; k < op.params; k++) {
            long v = p[o + k];
            if (v == w[o + k]) continue;
            if (int32[k]) area.set(ValueLayout.JAVA_INT, start + rel[k], (int) v);
            else area.set(ValueLayout.JAVA_LONG, start + rel[k], v);
            w[o + k] = v;
        }
        for (int k = op.params; k < STRIDE; k++) w[o + k] = p[o + k]; // slots past its parameters: only noted
    }

    private void record() {
        recordedSize = -1;
        Batch batch = resources.batch;
        if (batch.nativeBytes() > MAX_IDLE_BATCH_BYTES) { // do not keep what one large command buffer grew
            Batch smaller = Batch.createShared(BatchMode.STANDARD, 64);
            batch.close();
            resources.batch = batch = smaller;
        } else {
            batch.clear();
        }
        if (recorded.length < size) {
            recorded = new Op[ops.length];
            blockStart = new long[ops.length];
            written = new long[ops.length * STRIDE];
        } else {
            Arrays.fill(written, 0, size * STRIDE, 0L); // a fresh recording's blocks start zeroed
        }
        for (int i = 0; i < size; i++) {
            Op op = ops[i];
            var block = batch.add(op.thunk).params();
            if (op.relative == null) {
                long[] rel = new long[op.params];
                for (int k = 0; k < op.params; k++) rel[k] = block.offsetOf(k) - block.offsetOf(0);
                op.relative = rel;
            }
            blockStart[i] = block.offsetOf(0);
            recorded[i] = op;
        }
        recordedSize = size;
    }

    // ------------------------------------------------------------------ memory

    /** Makes the staging memory large enough for this submission; returns the scratch bytes the run keeps. */
    private long prepare() {
        long need = 80, run = 0; // the event's and the gate's slots, and alignment
        natives = 0;
        Argument[] last = null;
        Command previous = null;
        List<Command> commands = this.commands;
        for (int i = 0, n = commands.size(); i < n; i++) {
            Command c = commands.get(i);
            if (c == previous && c instanceof Command.Dispatch) continue; // a repeated dispatch stages nothing
            previous = c;
            switch (c) {
                case Command.Dispatch d -> {
                    need += 48;
                    if (d.arguments() != last) {
                        last = d.arguments();
                        for (Argument a : last) {
                            need += 8;
                            if (a instanceof Argument.BytesArgument b) need += align(b.bytes().length, 8);
                        }
                    }
                }
                case Command.Write w -> run += w.data().isNative() ? 0 : align(w.data().byteSize(), 64);
                case Command.Read r -> run += align(r.bytes(), 64);
                case Command.Fill f -> need += 8;
                case Command.Copy cp -> { }
                case Command.Barrier b -> { }
                case Command.Native nc -> natives++;
            }
        }
        if (staging == null || staging.byteSize() < need) {
            long bytes = Math.max(4096, Long.highestOneBit(need - 1) << 1);
            OpenClQueue.Scratch grown = OpenClQueue.Scratch.allocate(bytes);
            if (resources.staging != null) resources.staging.free();
            resources.staging = grown;
            MemorySegment s = grown.segment();
            staging = s;
            stagingBase = s.address();
        }
        return run;
    }

    private long take(long bytes) {
        long o = at;
        at += align(bytes, 8);
        if (at > staging.byteSize()) throw new IllegalStateException("staging overrun: " + at + " > " + staging.byteSize());
        return o;
    }

    private long takeScratch(long bytes) {
        long o = scratchAt;
        scratchAt += align(bytes, 64);
        if (scratchAt > scratch.segment().byteSize())
            throw new IllegalStateException("scratch overrun: " + scratchAt + " > " + scratch.segment().byteSize());
        return o;
    }

    private static long align(long n, long to) {
        return (n + to - 1) & -to;
    }

    // ------------------------------------------------------------------ checks and failures

    private OpenClPipeline pipeline(Command.Dispatch d, int command) {
        if (d.pipeline() instanceof OpenClPipeline p && p.device() == device) return p;
        throw OpenClQueue.failure(submission, command, "pipeline '" + d.pipeline().name() + "' is not one of this OpenCL device's", null);
    }

    private long mem(Buffer b, int command) {
        if (b instanceof OpenClBuffer ob && ob.device() == device) {
            holding.hold(ob.block()); // until the device is done, whatever the GC sees of the buffer
            return ob.mem().address();
        }
        throw OpenClQueue.failure(submission, command, b.describe() + " is not a buffer of this OpenCL device", null);
    }

    private MemorySegment subBuffer(MemorySegment parent, Buffer b, long offset, int command, int argument) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment region = arena.allocate(ValueLayout.JAVA_LONG, 2);
            region.set(ValueLayout.JAVA_LONG, 0, offset);
            region.set(ValueLayout.JAVA_LONG, 8, b.length() - offset);
            MemorySegment err = arena.allocate(ValueLayout.JAVA_INT);
            MemorySegment sub = CL.clCreateSubBuffer(parent, CL.CL_MEM_READ_WRITE, CL.CL_BUFFER_CREATE_TYPE_REGION, region, err);
            int status = err.get(ValueLayout.JAVA_INT, 0);
            if (status != CL.CL_SUCCESS)
                throw OpenClQueue.failure(submission, command, argumentName(command, argument) + ": a view of " + b.describe() + " at offset "
                        + offset + " failed: " + CLException.nameOf("cl_status", status) + " (" + status + ")", null);
            transients.add(sub);
            return sub;
        }
    }

    private MemorySegment transientBuffer(MemorySegment data, long bytes, int command, int argument) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment err = arena.allocate(ValueLayout.JAVA_INT);
            MemorySegment t = CL.clCreateBuffer(device.context(), CL.CL_MEM_READ_ONLY | CL.CL_MEM_COPY_HOST_PTR, bytes, data, err);
            int status = err.get(ValueLayout.JAVA_INT, 0);
            if (status != CL.CL_SUCCESS)
                throw OpenClQueue.failure(submission, command, argumentName(command, argument) + ": a transient buffer of " + bytes
                        + " bytes failed: " + CLException.nameOf("cl_status", status) + " (" + status + ")", null);
            transients.add(t);
            return t;
        }
    }

    private CommandBufferException failure(BatchFailedException e) {
        int entry = e.index();
        int command = entry < size ? entryCommand[entry] : -1;
        String status = CLException.nameOf("cl_status", e.code()) + " (" + e.code() + ")";
        if (command < 0) return new CommandBufferException(submission.label() + ": " + e.function() + " returned " + status, -1, e);
        int argument = entryArgument[entry];
        String what = argument >= 0
                ? "setting " + argumentName(command, argument) + " failed: " + e.function() + " returned " + status
                : e.function() + " returned " + status;
        return OpenClQueue.failure(submission, command, what, e);
    }

    private String argumentName(int command, int argument) {
        if (commands.get(command) instanceof Command.Dispatch d && argument < d.pipeline().arguments().size())
            return "argument " + d.pipeline().arguments().get(argument).describe();
        return "argument " + argument;
    }
}
