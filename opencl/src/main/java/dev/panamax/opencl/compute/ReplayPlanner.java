package dev.panamax.opencl.compute;

import dev.panamax.compute.ArgumentInfo;
import dev.panamax.compute.Size;
import dev.panamax.compute.spi.Argument;
import dev.panamax.compute.spi.Command;
import dev.panamax.opencl.binding.CL;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;

/**
 * Plans a run of commands as OpenCL calls: command list in, {@link ReplayPlan} out. Each dispatch
 * becomes the {@code clSetKernelArg} calls for the arguments whose value differs from what the
 * {@code cl_kernel} holds (which persists across command buffers) and an NDRange enqueue; copies,
 * fills, writes, reads and barriers become their enqueues. Values the driver reads during the call
 * (sizes, argument values, fill patterns) go into the staging area; data read or written after it
 * (a heap write's copy, a read's destination) into the run's scratch.
 *
 * <p>The planner makes no OpenCL call and keeps no state of its own: the device objects come from
 * its {@link PlanResolver}, so the same command list, resolver and kernel argument state give the
 * same plan ({@code ReplayPlannerGoldenTest}).
 */
final class ReplayPlanner {
    /**
     * The number of enqueues from which a batch is gated. On PoCL's CPU device 1,000 gated tiny
     * dispatches took 0.78-0.82x the time of the same enqueues ungated and 300 took 0.85x: a driver
     * thread that finds a command waiting runs the chain without sleeping between commands, and the
     * host's enqueues no longer compete with it. Below about 40 the gate costs more than it saves (the
     * first enqueue no longer wakes the device while the host enqueues the rest). Measured by
     * {@code ./panamax bench compute} as {@code opencl.gated.<n>.vs.ungated}.
     */
    static final int GATED_FROM = 64;

    /**
     * The epoch of a plan that runs from a batch of its own ({@link RecordingPlan}): every argument
     * is set, and no kernel's argument state is read or changed.
     */
    static final long EVERY_ARGUMENT = Long.MIN_VALUE;

    private static final LongAdder PLANS = new LongAdder();

    private final long queue;
    private final PlanResolver resolver;

    /** A planner for the {@code cl_command_queue} at {@code queue}. */
    ReplayPlanner(long queue, PlanResolver resolver) {
        this.queue = queue;
        this.resolver = resolver;
    }

    /** The {@code cl_command_queue} the plan's enqueues go to. */
    long queue() {
        return queue;
    }

    /** Whether the plan's batch is submitted behind a gate: {@value #GATED_FROM} enqueues or more. */
    static boolean gated(ReplayPlan plan) {
        return plan.enqueues() >= GATED_FROM;
    }

    /** The staging and scratch memory a replay of {@code commands} needs, and its native commands. */
    static StagingNeeds needs(List<Command> commands) {
        long staging = 80, scratch = 0; // the event's and the gate's slots, and alignment
        int natives = 0;
        Argument[] last = null;
        Command previous = null;
        for (int i = 0, n = commands.size(); i < n; i++) {
            Command c = commands.get(i);
            if (c == previous && c instanceof Command.Dispatch) continue; // a repeated dispatch stages nothing
            previous = c;
            switch (c) {
                case Command.Dispatch d -> {
                    staging += 48;
                    if (d.arguments() != last) {
                        last = d.arguments();
                        for (Argument a : last) {
                            staging += 8;
                            if (a instanceof Argument.BytesArgument b) staging += HostArea.align(b.bytes().length, 8);
                        }
                    }
                }
                case Command.Write w -> scratch += w.data().isNative() ? 0 : HostArea.align(w.data().byteSize(), 64);
                case Command.Read r -> scratch += HostArea.align(r.bytes(), 64);
                case Command.Fill f -> staging += 8;
                case Command.Copy cp -> { }
                case Command.Barrier b -> { }
                case Command.Native nc -> natives++;
            }
        }
        return new StagingNeeds(staging, scratch, natives);
    }

    /**
     * Adds commands {@code first} to {@code end} (exclusive), none of them native, to {@code plan}.
     * {@code epoch} is the device's kernel argument generation: a pipeline whose argument state is of
     * another one sets every argument afresh. A refused command throws, leaving the calls planned for
     * the commands before it in the plan.
     *
     * {@link #EVERY_ARGUMENT} sets every argument, whatever the kernel holds.
     *
     * @param scratch the run's scratch; null when {@link #needs} found it needs none
     */
    void plan(List<Command> commands, int first, int end, long epoch, HostArea staging, HostArea scratch, ReplayPlan plan) {
        PLANS.increment();
        OpenClPipeline lastPipeline = null;
        Argument[] lastArgs = null;
        Size lastGrid = null, lastGroup = null;
        long sizes = 0;
        int dims = 0;
        long stagingBase = staging.base();
        MemorySegment stagingMemory = staging.segment();
        Command previous = null;
        for (int i = first; i < end; i++) {
            Command c = commands.get(i);
            if (c == previous && c instanceof Command.Dispatch && plan.endsInEnqueue()) {
                // the encoder recorded the same dispatch again (and maybe again): the same enqueues
                int last = i;
                while (last + 1 < end && commands.get(last + 1) == c) last++;
                plan.repeatLastEnqueue(i, last);
                i = last;
                continue;
            }
            previous = c;
            switch (c) {
                case Command.Dispatch d -> {
                    OpenClPipeline p = d.pipeline() == lastPipeline ? lastPipeline : resolver.pipeline(d, i);
                    Argument[] args = d.arguments();
                    if (p != lastPipeline || args != lastArgs) { // an encoder shares one table between dispatches it did not change
                        setArguments(i, p, args, epoch, staging, plan);
                        lastPipeline = p;
                        lastArgs = args;
                    }
                    Size grid = d.grid(), group = d.threadgroup();
                    if (grid != lastGrid || group != lastGroup) {
                        dims = Math.max(grid.dimensions(), group.dimensions());
                        sizes = staging.take(48);
                        for (int k = 0; k < 3; k++) {
                            stagingMemory.set(ValueLayout.JAVA_LONG, sizes + 8L * k, grid.get(k));
                            stagingMemory.set(ValueLayout.JAVA_LONG, sizes + 24 + 8L * k, group.get(k));
                        }
                        lastGrid = grid;
                        lastGroup = group;
                    }
                    int e = plan.addEnqueue(ClCall.NDRANGE, i);
                    // the encoder refuses a grid that is not a whole number of groups: the group size is always given
                    plan.set(e, queue, p.kernel().address(), dims, 0, stagingBase + sizes, stagingBase + sizes + 24, 0, 0, 0);
                }
                case Command.Copy cp -> {
                    long source = resolver.buffer(cp.source(), i), destination = resolver.buffer(cp.destination(), i);
                    int e = plan.addEnqueue(ClCall.COPY, i);
                    plan.set(e, queue, source, destination, cp.sourceOffset(), cp.destinationOffset(), cp.bytes(), 0, 0, 0);
                }
                case Command.Fill f -> {
                    long pattern = staging.take(8);
                    stagingMemory.set(ValueLayout.JAVA_BYTE, pattern, f.value());
                    long mem = resolver.buffer(f.buffer(), i);
                    int e = plan.addEnqueue(ClCall.FILL, i);
                    plan.set(e, queue, mem, stagingBase + pattern, 1, f.offset(), f.bytes(), 0, 0, 0);
                }
                case Command.Write w -> {
                    MemorySegment data = w.data();
                    long from;
                    if (data.isNative()) {
                        from = data.address();
                    } else { // a non-blocking write reads its data when it runs: a copy the run keeps
                        long o = scratch.take(data.byteSize());
                        MemorySegment.copy(data, 0, scratch.segment(), o, data.byteSize());
                        from = scratch.base() + o;
                    }
                    long mem = resolver.buffer(w.buffer(), i);
                    int e = plan.addEnqueue(ClCall.WRITE, i);
                    plan.set(e, queue, mem, CL.CL_FALSE, w.offset(), data.byteSize(), from, 0, 0, 0);
                }
                case Command.Read r -> {
                    long o = scratch.take(r.bytes());
                    resolver.read(r, o);
                    long mem = resolver.buffer(r.buffer(), i);
                    int e = plan.addEnqueue(ClCall.READ, i);
                    plan.set(e, queue, mem, CL.CL_FALSE, r.offset(), r.bytes(), scratch.base() + o, 0, 0, 0);
                }
                case Command.Barrier b -> {
                    int e = plan.addEnqueue(ClCall.BARRIER, i);
                    plan.set(e, queue, 0, 0, 0);
                }
                case Command.Native n -> throw new IllegalStateException("a native command is called between batches, never planned");
            }
        }
    }

    /** How many times a run of commands was planned, by every planner: a recording's submissions add none. */
    static long plansMade() {
        return PLANS.sum();
    }

    /** Plans a {@code clSetKernelArg} for each argument whose value differs from what the kernel holds. */
    private void setArguments(int command, OpenClPipeline p, Argument[] args, long epoch, HostArea staging, ReplayPlan plan) {
        boolean every = epoch == EVERY_ARGUMENT;
        long[] bits = p.setBits, sizes = p.setSizes;
        if (!every && p.argumentsEpoch != epoch) {
            Arrays.fill(sizes, -1);
            p.argumentsEpoch = epoch;
        }
        long kernel = p.kernel().address();
        long stagingBase = staging.base();
        MemorySegment stagingMemory = staging.segment();
        List<ArgumentInfo> infos = p.arguments();
        for (int a = 0; a < args.length; a++) {
            Argument arg = args[a];
            if (arg == null) continue;
            long value, bytes;
            boolean cached = true; // a value the kernel can be known to hold (not a transient buffer)
            long valueAt;
            switch (arg) {
                case Argument.BufferArgument b -> {
                    value = resolver.buffer(b.buffer(), command);
                    if (b.offset() != 0) {
                        value = resolver.bufferView(value, b.buffer(), b.offset(), command, a);
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
                    long o = staging.take(data.length);
                    MemorySegment.copy(data, 0, stagingMemory, ValueLayout.JAVA_BYTE, o, data.length);
                    cached = false;
                    if (a < infos.size() && infos.get(a).takesBuffer()) {
                        value = resolver.transientBuffer(stagingBase + o, data.length, command, a);
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
            boolean known = !every && a < sizes.length;
            if (cached && known && sizes[a] == bytes && bits[a] == value) continue;
            if (valueAt == -1) {
                valueAt = staging.take(8);
                stagingMemory.set(ValueLayout.JAVA_LONG, valueAt, value);
            }
            int e = plan.add(ClCall.SET_ARG, command, a);
            plan.set(e, kernel, a, bytes, valueAt == Long.MIN_VALUE ? 0 : stagingBase + valueAt);
            if (known) {
                bits[a] = value;
                sizes[a] = cached ? bytes : -1;
            }
        }
    }
}
