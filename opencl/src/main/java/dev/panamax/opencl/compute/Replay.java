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
import dev.panamax.core.batch.ParamBlock;
import dev.panamax.core.batch.Thunk;
import dev.panamax.opencl.binding.CL;
import dev.panamax.opencl.binding.CLException;
import dev.panamax.opencl.binding.CLThunks;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Objects;

/**
 * Turns a submission into one core {@link Batch} (a cleared one the queue keeps for reuse) and runs it: every {@code clSetKernelArg} a
 * dispatch needs (only the arguments that changed since the kernel's previous dispatch in this
 * run), every enqueue (the last one returning the event that tells when the run is done; a marker
 * only for an empty command buffer) and a flush, in one crossing, under the device's replay lock. Sizes, values and staged data go into one scratch block, kept until the run completes.
 */
final class Replay {
    private static final Thunk SET_ARG = CLThunks.clSetKernelArg.thunk();
    private static final Thunk NDRANGE = CLThunks.clEnqueueNDRangeKernel.thunk();
    private static final Thunk COPY = CLThunks.clEnqueueCopyBuffer.thunk();
    private static final Thunk FILL = CLThunks.clEnqueueFillBuffer.thunk();
    private static final Thunk WRITE = CLThunks.clEnqueueWriteBuffer.thunk();
    private static final Thunk READ = CLThunks.clEnqueueReadBuffer.thunk();
    private static final Thunk BARRIER = CLThunks.clEnqueueBarrierWithWaitList.thunk();
    private static final Thunk MARKER = CLThunks.clEnqueueMarkerWithWaitList.thunk();
    private static final Thunk FLUSH = CLThunks.clFlush.thunk();
    private static final long EVENT_SLOT = 0;

    private final OpenClQueue queue;
    private final Submission submission;
    private final List<Command> commands;
    private final MemorySegment q;
    /** For each batch entry, the command it belongs to, and for argument entries the argument index (else -1). */
    private int[] entryCommand = new int[64];
    private int[] entryArgument = new int[64];
    private final List<MemorySegment> transients = new ArrayList<>();
    private MemorySegment mem;
    private long base;
    /** The last enqueue recorded and the index of its {@code event} parameter: its event tells when the run is done. */
    private ParamBlock lastEnqueue;
    private int lastEventParam;
    private long at = 16;

    Replay(OpenClQueue queue, Submission submission) {
        this.queue = queue;
        this.submission = submission;
        this.commands = submission.commands();
        this.q = queue.address();
    }

    Run replay() {
        OpenClQueue.Scratch scratch = queue.takeScratch(scratchBytes());
        try {
            return replay(scratch);
        } catch (Throwable t) {
            queue.returnScratch(scratch);
            throw t;
        }
    }

    private Run replay(OpenClQueue.Scratch scratch) {
        Run run = new Run(queue, submission, scratch);
        mem = scratch.segment();
        base = mem.address();
        mem.set(ValueLayout.JAVA_LONG, EVENT_SLOT, 0L);
        var lock = queue.device().replayLock();
        Batch batch = queue.takeBatch(commands.size() + 4);
        try {
            int failedAtEntry = -1;
            try {
                record(batch, run);
            } catch (CommandBufferException e) {
                run.error(e);
            }
            int markerEntry = batch.size();
            if (lastEnqueue != null) {
                // an in-order queue: the last command's event completes after every command before it
                lastEnqueue.setAddress(lastEventParam, MemorySegment.ofAddress(base + EVENT_SLOT));
            } else {
                note(markerEntry, -1, -1);
                batch.add(MARKER).params().setAddress(0, q).setAddress(3, MemorySegment.ofAddress(base + EVENT_SLOT));
            }
            note(batch.size(), -1, -1);
            batch.add(FLUSH).params().setAddress(0, q);
            lock.lock();
            try {
                batch.run();
            } catch (BatchFailedException e) {
                failedAtEntry = e.index();
                run.error(failure(e));
            } finally {
                lock.unlock();
            }
            if (failedAtEntry >= 0 && failedAtEntry < markerEntry && mem.get(ValueLayout.JAVA_LONG, EVENT_SLOT) == 0) {
                // the commands before the failing one are enqueued: the marker still tells when they are done
                int status = CL.clEnqueueMarkerWithWaitList(q, 0, MemorySegment.NULL, MemorySegment.ofAddress(base + EVENT_SLOT));
                if (status == CL.CL_SUCCESS) CL.clFlush(q);
                else CL.clFinish(q);
            }
        } finally {
            queue.returnBatch(batch);
            for (MemorySegment t : transients) CL.clReleaseMemObject(t); // the commands hold their own references
        }
        run.event(MemorySegment.ofAddress(mem.get(ValueLayout.JAVA_LONG, EVENT_SLOT)));
        return run;
    }

    // ------------------------------------------------------------------ recording

    private void record(Batch batch, Run run) {
        IdentityHashMap<OpenClPipeline, Argument[]> setArgs = new IdentityHashMap<>();
        OpenClPipeline lastPipeline = null;
        Argument[] lastArgs = null;
        for (int i = 0; i < commands.size(); i++) {
            Command c = commands.get(i);
            switch (c) {
                case Command.Dispatch d -> {
                    OpenClPipeline p = pipeline(d, i);
                    Argument[] current;
                    if (p == lastPipeline) {
                        current = lastArgs;
                    } else {
                        current = setArgs.computeIfAbsent(p, k -> new Argument[d.arguments().length]);
                        lastPipeline = p;
                    }
                    if (current.length < d.arguments().length) {
                        current = Arrays.copyOf(current, d.arguments().length);
                        setArgs.put(p, current);
                    }
                    lastArgs = current;
                    setArguments(batch, i, p, d.arguments(), current);
                    enqueueDispatch(batch, i, p, d);
                }
                case Command.Copy cp -> {
                    note(batch.size(), i, -1);
                    enqueued(batch.add(COPY).params(), 8).setAddress(0, q).setAddress(1, mem(cp.source(), i)).setAddress(2, mem(cp.destination(), i))
                            .setLong(3, cp.sourceOffset()).setLong(4, cp.destinationOffset()).setLong(5, cp.bytes());
                }
                case Command.Fill f -> {
                    long pattern = take(8);
                    mem.set(ValueLayout.JAVA_BYTE, pattern, f.value());
                    note(batch.size(), i, -1);
                    enqueued(batch.add(FILL).params(), 8).setAddress(0, q).setAddress(1, mem(f.buffer(), i)).setAddress(2, address(pattern))
                            .setLong(3, 1).setLong(4, f.offset()).setLong(5, f.bytes());
                }
                case Command.Write w -> {
                    MemorySegment data = w.data();
                    MemorySegment from;
                    if (data.isNative()) {
                        from = data;
                    } else {
                        long o = take(align(data.byteSize(), 64));
                        MemorySegment.copy(data, 0, mem, o, data.byteSize());
                        from = address(o);
                    }
                    note(batch.size(), i, -1);
                    enqueued(batch.add(WRITE).params(), 8).setAddress(0, q).setAddress(1, mem(w.buffer(), i)).setInt(2, CL.CL_FALSE)
                            .setLong(3, w.offset()).setLong(4, data.byteSize()).setAddress(5, from);
                }
                case Command.Read r -> {
                    long o = take(align(r.bytes(), 64));
                    run.addRead(r, o);
                    note(batch.size(), i, -1);
                    enqueued(batch.add(READ).params(), 8).setAddress(0, q).setAddress(1, mem(r.buffer(), i)).setInt(2, CL.CL_FALSE)
                            .setLong(3, r.offset()).setLong(4, r.bytes()).setAddress(5, address(o));
                }
                case Command.Barrier b -> {
                    note(batch.size(), i, -1);
                    enqueued(batch.add(BARRIER).params(), 3).setAddress(0, q);
                }
            }
        }
    }

    private void setArguments(Batch batch, int command, OpenClPipeline p, Argument[] args, Argument[] current) {
        MemorySegment kernel = p.kernel();
        List<ArgumentInfo> infos = p.arguments();
        for (int a = 0; a < args.length; a++) {
            Argument arg = args[a];
            if (arg == null || (Objects.equals(arg, current[a]) && !(arg instanceof Argument.BytesArgument))) continue;
            current[a] = arg;
            long size;
            MemorySegment value;
            switch (arg) {
                case Argument.BufferArgument b -> {
                    MemorySegment m = mem(b.buffer(), command);
                    if (b.offset() != 0) m = subBuffer(m, b.buffer(), b.offset(), command, a);
                    long o = take(8);
                    mem.set(ValueLayout.JAVA_LONG, o, m.address());
                    size = 8;
                    value = address(o);
                }
                case Argument.ScalarArgument s -> {
                    long o = take(8);
                    mem.set(ValueLayout.JAVA_LONG, o, s.bits());
                    size = s.bytes();
                    value = address(o);
                }
                case Argument.BytesArgument bytes -> {
                    byte[] data = bytes.bytes();
                    long o = take(align(data.length, 8));
                    MemorySegment.copy(data, 0, mem, ValueLayout.JAVA_BYTE, o, data.length);
                    if (a < infos.size() && infos.get(a).takesBuffer()) {
                        MemorySegment t = transientBuffer(address(o), data.length, command, a);
                        long slot = take(8);
                        mem.set(ValueLayout.JAVA_LONG, slot, t.address());
                        size = 8;
                        value = address(slot);
                    } else {
                        size = data.length;
                        value = address(o);
                    }
                }
                case Argument.ThreadgroupMemory t -> {
                    size = t.bytes();
                    value = MemorySegment.NULL;
                }
            }
            note(batch.size(), command, a);
            batch.add(SET_ARG).params().setAddress(0, kernel).setInt(1, a).setLong(2, size).setAddress(3, value);
        }
    }

    private void enqueueDispatch(Batch batch, int command, OpenClPipeline p, Command.Dispatch d) {
        Size grid = d.grid();
        Size group = d.threadgroup();
        int dims = Math.max(grid.dimensions(), group.dimensions());
        boolean uniform = true;
        for (int k = 0; k < dims; k++) {
            if (group.get(k) == 0 || grid.get(k) % group.get(k) != 0) uniform = false;
        }
        long sizes = take(48);
        for (int k = 0; k < 3; k++) {
            mem.set(ValueLayout.JAVA_LONG, sizes + 8L * k, grid.get(k));
            mem.set(ValueLayout.JAVA_LONG, sizes + 24 + 8L * k, group.get(k));
        }
        note(batch.size(), command, -1);
        ParamBlock pb = enqueued(batch.add(NDRANGE).params(), 8);
        pb.setAddress(0, q).setAddress(1, p.kernel()).setInt(2, dims).setAddress(4, address(sizes));
        if (uniform || !d.exactGrid()) pb.setAddress(5, address(sizes + 24));
    }

    // ------------------------------------------------------------------ helpers

    private ParamBlock enqueued(ParamBlock block, int eventParam) {
        lastEnqueue = block;
        lastEventParam = eventParam;
        return block;
    }

    private OpenClPipeline pipeline(Command.Dispatch d, int command) {
        if (d.pipeline() instanceof OpenClPipeline p && p.device() == queue.device()) return p;
        throw OpenClQueue.failure(submission, command, "pipeline '" + d.pipeline().name() + "' is not one of this OpenCL device's", null);
    }

    private MemorySegment mem(Buffer b, int command) {
        if (b instanceof OpenClBuffer ob && ob.device() == queue.device()) return ob.mem();
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
            MemorySegment t = CL.clCreateBuffer(queue.device().context(), CL.CL_MEM_READ_ONLY | CL.CL_MEM_COPY_HOST_PTR, bytes, data, err);
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
        int command = entry < entryCommand.length ? entryCommand[entry] : -1;
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

    private void note(int entry, int command, int argument) {
        if (entry >= entryCommand.length) {
            entryCommand = Arrays.copyOf(entryCommand, Math.max(entry + 1, entryCommand.length * 2));
            entryArgument = Arrays.copyOf(entryArgument, entryCommand.length);
        }
        entryCommand[entry] = command;
        entryArgument[entry] = argument;
    }

    private long take(long bytes) {
        long o = at;
        at += align(bytes, 8);
        if (at > mem.byteSize()) throw new IllegalStateException("scratch overrun: " + at + " > " + mem.byteSize());
        return o;
    }

    private MemorySegment address(long offset) {
        return MemorySegment.ofAddress(base + offset);
    }

    private static long align(long n, long to) {
        return (n + to - 1) & -to;
    }

    /** An upper bound of the scratch bytes the commands need. */
    private long scratchBytes() {
        long need = 64;
        for (Command c : commands) {
            switch (c) {
                case Command.Dispatch d -> {
                    need += 48;
                    for (Argument a : d.arguments()) {
                        need += 16;
                        if (a instanceof Argument.BytesArgument b) need += align(b.bytes().length, 8);
                    }
                }
                case Command.Write w -> need += w.data().isNative() ? 0 : align(w.data().byteSize(), 64) + 64;
                case Command.Read r -> need += align(r.bytes(), 64) + 64;
                case Command.Fill f -> need += 8;
                case Command.Copy cp -> { }
                case Command.Barrier b -> { }
            }
        }
        return need;
    }
}
