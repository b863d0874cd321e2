package dev.panamax.opencl.compute;

import dev.panamax.compute.Buffer;
import dev.panamax.compute.CommandBufferException;
import dev.panamax.compute.ComputeDevice;
import dev.panamax.compute.ComputePipeline;
import dev.panamax.compute.Library;
import dev.panamax.compute.Size;
import dev.panamax.compute.spi.Argument;
import dev.panamax.compute.spi.Command;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Golden tests of the replay planner: command lists in, the exact calls out, each with its
 * parameters. The pipelines and buffers are the device's own (PoCL); the resolver answers with
 * names instead of device handles, so the planner runs without an OpenCL call and a plan reads as
 * {@code NDRANGE#0(queue, scale, 1, 0, staging+24, staging+48, 0, 0, 0)}: the command index after
 * {@code #} (and the argument index after {@code .} for {@code SET_ARG}), the staging and scratch
 * areas as offsets.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ReplayPlannerGoldenTest {
    static final String SOURCE = """
            __kernel void scale(__global float *x, float f) { x[get_global_id(0)] *= f; }
            __kernel void sum(__global const float *in, __global float *out, __local float *partial, __constant float *weights) {
                partial[get_local_id(0)] = in[get_global_id(0)] * weights[0];
                barrier(CLK_LOCAL_MEM_FENCE);
                if (get_local_id(0) == 0) out[get_group_id(0)] = partial[0];
            }
            """;
    static final long QUEUE = 0x51;

    private final ComputeDevice device = ComputeDevice.systemDefault();
    private Library library;
    private ComputePipeline scale, sum;
    private Buffer a, b;

    private Arena arena;
    private HostArea staging, scratch;
    private final Map<Long, String> names = new HashMap<>();
    private final List<String> reads = new ArrayList<>();
    /** A buffer the resolver refuses, as the device refuses another device's. */
    private Buffer refused;
    private long epoch = 1;

    /** Names for the device objects, in the order the planner asks for them. */
    private final PlanResolver resolver = new PlanResolver() {
        @Override
        public OpenClPipeline pipeline(Command.Dispatch dispatch, int command) {
            return (OpenClPipeline) dispatch.pipeline();
        }

        @Override
        public long buffer(Buffer buffer, int command) {
            if (buffer == refused)
                throw new CommandBufferException("command " + command + ": " + buffer.describe() + " refused", command, null);
            return buffer == a ? 0xA : 0xB;
        }

        @Override
        public long bufferView(long mem, Buffer buffer, long offset, int command, int argument) {
            long view = 0x100 + names.size();
            names.put(view, "view(" + names.get(mem) + "+" + offset + ")");
            return view;
        }

        @Override
        public long transientBuffer(long hostAddress, long bytes, int command, int argument) {
            long t = 0x100 + names.size();
            names.put(t, "transient(" + name(hostAddress) + ", " + bytes + ")");
            return t;
        }

        @Override
        public void read(Command.Read read, long scratchOffset) {
            reads.add(read.bytes() + " bytes at scratch+" + scratchOffset);
        }
    };
    private final ReplayPlanner planner = new ReplayPlanner(QUEUE, resolver);

    @BeforeAll
    void build() {
        library = device.newLibrary(SOURCE);
        scale = library.newPipeline("scale");
        sum = library.newPipeline("sum");
        a = device.newBuffer(new float[64]);
        b = device.newBuffer(new float[64]);
    }

    @AfterAll
    void close() {
        for (AutoCloseable c : new AutoCloseable[] {a, b, scale, sum, library}) {
            try {
                if (c != null) c.close();
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        }
    }

    @BeforeEach
    void areas() {
        arena = Arena.ofConfined();
        staging = new HostArea("staging", arena.allocate(4096, 64), 8);
        scratch = new HostArea("scratch", arena.allocate(4096, 64), 64);
        names.clear();
        names.put(QUEUE, "queue");
        names.put(0xAL, "a");
        names.put(0xBL, "b");
        names.put(((OpenClPipeline) scale).kernel().address(), "scale");
        names.put(((OpenClPipeline) sum).kernel().address(), "sum");
        reads.clear();
        refused = null;
        epoch++; // every kernel's arguments unknown
    }

    @AfterEach
    void free() {
        arena.close();
    }

    // ------------------------------------------------------------------ dispatches

    @Test
    void aDispatchSetsEachArgumentThenEnqueuesWithItsSizesInStaging() {
        ReplayPlan plan = plan(dispatch(scale, Size.of(64), Size.of(16), buffer(a), f32(2f)));
        assertPlan(plan,
                "SET_ARG#0.0(scale, 0, 8, staging+0)",
                "SET_ARG#0.1(scale, 1, 4, staging+8)",
                "NDRANGE#0(queue, scale, 1, 0, staging+16, staging+40, 0, 0, 0)");
        assertEquals(0xA, staging.segment().get(ValueLayout.JAVA_LONG, 0), "the cl_mem's value");
        assertEquals(Float.floatToIntBits(2f), staging.segment().get(ValueLayout.JAVA_LONG, 8), "the float's bits");
        assertArrayEquals(new long[] {64, 1, 1, 16, 1, 1}, staging.segment().asSlice(16, 48).toArray(ValueLayout.JAVA_LONG),
                "the global, then the local sizes");
        assertEquals(1, plan.enqueues());
    }

    @Test
    void theKernelKeepsItsArgumentsAcrossPlansOfTheSameEpoch() {
        plan(dispatch(scale, Size.of(64), Size.of(16), buffer(a), f32(2f)));
        staging.reset();
        assertPlan(plan(dispatch(scale, Size.of(64), Size.of(16), buffer(a), f32(3f))),
                "SET_ARG#0.1(scale, 1, 4, staging+0)",
                "NDRANGE#0(queue, scale, 1, 0, staging+8, staging+32, 0, 0, 0)");
        staging.reset();
        assertPlan(plan(dispatch(scale, Size.of(64), Size.of(16), buffer(a), f32(3f))),
                "NDRANGE#0(queue, scale, 1, 0, staging+0, staging+24, 0, 0, 0)");
        epoch++; // a failed batch: the kernel's arguments are no longer known
        staging.reset();
        assertPlan(plan(dispatch(scale, Size.of(64), Size.of(16), buffer(a), f32(3f))),
                "SET_ARG#0.0(scale, 0, 8, staging+0)",
                "SET_ARG#0.1(scale, 1, 4, staging+8)",
                "NDRANGE#0(queue, scale, 1, 0, staging+16, staging+40, 0, 0, 0)");
    }

    @Test
    void dispatchesSharingAnArgumentTableAndSizesSetNothingAgain() {
        Argument[] table = {buffer(a), f32(2f)};
        Size grid = Size.of(64), group = Size.of(16);
        assertPlan(plan(new Command.Dispatch(scale, table, grid, group, true), new Command.Dispatch(scale, table, grid, group, true),
                        new Command.Dispatch(scale, table, Size.of(32), group, true)),
                "SET_ARG#0.0(scale, 0, 8, staging+0)",
                "SET_ARG#0.1(scale, 1, 4, staging+8)",
                "NDRANGE#0(queue, scale, 1, 0, staging+16, staging+40, 0, 0, 0)",
                "NDRANGE#1(queue, scale, 1, 0, staging+16, staging+40, 0, 0, 0)",
                "NDRANGE#2(queue, scale, 1, 0, staging+64, staging+88, 0, 0, 0)");
    }

    @Test
    void theSameDispatchRecordedAgainRepeatsItsEnqueue() {
        Command.Dispatch d = dispatch(scale, Size.of(64), Size.of(16), buffer(a), f32(2f));
        ReplayPlan plan = plan(d, d, d);
        assertPlan(plan,
                "SET_ARG#0.0(scale, 0, 8, staging+0)",
                "SET_ARG#0.1(scale, 1, 4, staging+8)",
                "NDRANGE#0(queue, scale, 1, 0, staging+16, staging+40, 0, 0, 0)",
                "NDRANGE#1(queue, scale, 1, 0, staging+16, staging+40, 0, 0, 0)",
                "NDRANGE#2(queue, scale, 1, 0, staging+16, staging+40, 0, 0, 0)");
        assertEquals(3, plan.enqueues());
    }

    @Test
    void anOffsetBufferIsAViewSetEveryTimeAndLocalMemoryIsASizeWithoutAValue() {
        Command.Dispatch d = dispatch(sum, Size.of(64, 2), Size.of(16, 1), new Argument.BufferArgument(a, 128), buffer(b),
                new Argument.ThreadgroupMemory(64), new Argument.BytesArgument(new byte[] {0, 0, (byte) 0x80, 0x3f}));
        assertPlan(plan(d),
                "SET_ARG#0.0(sum, 0, 8, staging+0)",
                "SET_ARG#0.1(sum, 1, 8, staging+8)",
                "SET_ARG#0.2(sum, 2, 64, 0)",
                "SET_ARG#0.3(sum, 3, 8, staging+24)",
                "NDRANGE#0(queue, sum, 2, 0, staging+32, staging+56, 0, 0, 0)");
        assertEquals("view(a+128)", names.get(staging.segment().get(ValueLayout.JAVA_LONG, 0)));
        assertEquals("transient(staging+16, 4)", names.get(staging.segment().get(ValueLayout.JAVA_LONG, 24)),
                "the bytes of a __constant argument go into a transient buffer");
        staging.reset();
        assertPlan(plan(d),
                "SET_ARG#0.0(sum, 0, 8, staging+0)",
                "SET_ARG#0.2(sum, 2, 64, 0)",
                "SET_ARG#0.3(sum, 3, 8, staging+16)",
                "NDRANGE#0(queue, sum, 2, 0, staging+24, staging+48, 0, 0, 0)");
    }

    // ------------------------------------------------------------------ blits

    @Test
    void blitsBecomeTheirEnqueuesWithHeapDataInScratch() {
        MemorySegment nativeData = arena.allocate(16);
        names.put(nativeData.address(), "nativeData");
        MemorySegment heapData = MemorySegment.ofArray(new byte[] {1, 2, 3, 4, 5});
        ReplayPlan plan = plan(
                new Command.Copy(a, 4, b, 8, 16),
                new Command.Fill(b, 0, 32, (byte) 7),
                new Command.Write(a, 0, nativeData),
                new Command.Write(a, 16, heapData),
                new Command.Read(b, 8, 12, data -> { }),
                new Command.Barrier());
        assertPlan(plan,
                "COPY#0(queue, a, b, 4, 8, 16, 0, 0, 0)",
                "FILL#1(queue, b, staging+0, 1, 0, 32, 0, 0, 0)",
                "WRITE#2(queue, a, 0, 0, 16, nativeData, 0, 0, 0)",
                "WRITE#3(queue, a, 0, 16, 5, scratch+0, 0, 0, 0)",
                "READ#4(queue, b, 0, 8, 12, scratch+64, 0, 0, 0)",
                "BARRIER#5(queue, 0, 0, 0)");
        assertEquals(7, staging.segment().get(ValueLayout.JAVA_BYTE, 0), "the fill pattern");
        assertArrayEquals(new byte[] {1, 2, 3, 4, 5}, scratch.segment().asSlice(0, 5).toArray(ValueLayout.JAVA_BYTE),
                "a heap write's copy, which the run keeps until the device has read it");
        assertEquals(List.of("12 bytes at scratch+64"), reads);
        assertEquals(6, plan.enqueues());
    }

    // ------------------------------------------------------------------ closing the batch

    @Test
    void theLastEnqueueGivesTheRunsEventAndAFlushEndsTheBatch() {
        ReplayPlan plan = plan(new Command.Fill(a, 0, 4, (byte) 0), new Command.Barrier());
        assertEquals(2, plan.complete(QUEUE, staging.base() + 512));
        assertPlan(plan,
                "FILL#0(queue, a, staging+0, 1, 0, 4, 0, 0, 0)",
                "BARRIER#1(queue, 0, 0, staging+512)",
                "FLUSH(queue)");
    }

    @Test
    void withNothingEnqueuedAMarkerGivesTheEventAndWithoutAnEventOnlyTheFlush() {
        ReplayPlan withEvent = plan();
        withEvent.complete(QUEUE, staging.base() + 512);
        assertPlan(withEvent, "MARKER(queue, 0, 0, staging+512)", "FLUSH(queue)");
        ReplayPlan withoutEvent = plan(new Command.Barrier());
        withoutEvent.complete(QUEUE, -1);
        assertPlan(withoutEvent, "BARRIER#0(queue, 0, 0, 0)", "FLUSH(queue)");
    }

    @Test
    void fromSixtyFourEnqueuesTheBatchIsGatedOnItsFirstEnqueue() {
        List<Command> commands = new ArrayList<>(Collections.nCopies(ReplayPlanner.GATED_FROM - 1, new Command.Barrier()));
        ReplayPlan below = plan(commands.toArray(Command[]::new));
        assertFalse(ReplayPlanner.gated(below), "63 enqueues run ungated");
        commands.add(0, dispatch(scale, Size.of(64), Size.of(16), buffer(a), f32(2f)));
        ReplayPlan plan = plan(commands.toArray(Command[]::new));
        assertTrue(ReplayPlanner.gated(plan));
        plan.waitFirstEnqueueFor(staging.base() + 8);
        assertEquals("NDRANGE#0(queue, scale, 1, 0, staging+16, staging+40, 1, staging+8, 0)", render(plan.calls().get(2)));
        assertEquals("BARRIER#1(queue, 0, 0, 0)", render(plan.calls().get(3)), "only the first enqueue waits");
    }

    // ------------------------------------------------------------------ refusals and needs

    @Test
    void aRefusedCommandLeavesTheCallsBeforeItAndNoHalfPlannedCall() {
        refused = b;
        ReplayPlan plan = new ReplayPlan();
        List<Command> commands = List.of(new Command.Fill(a, 0, 4, (byte) 0), new Command.Copy(a, 0, b, 0, 4), new Command.Barrier());
        CommandBufferException e = assertThrows(CommandBufferException.class,
                () -> planner.plan(commands, 0, commands.size(), epoch, staging, scratch, plan));
        assertEquals(1, e.commandIndex());
        assertPlan(plan, "FILL#0(queue, a, staging+0, 1, 0, 4, 0, 0, 0)");
    }

    @Test
    void aNativeCommandIsNeverPlanned() {
        List<Command> commands = List.of(new Command.Native("library call", List.of(), queue -> { }));
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> planner.plan(commands, 0, 1, epoch, staging, scratch, new ReplayPlan()));
        assertTrue(e.getMessage().contains("native command is called between batches"), e.getMessage());
    }

    @Test
    void theNeedsCountStagingOncePerDistinctDispatchAndScratchPerHeapWriteAndRead() {
        Command.Dispatch d = dispatch(scale, Size.of(64), Size.of(16), buffer(a), new Argument.BytesArgument(new byte[5]));
        List<Command> commands = List.of(d, d, new Command.Fill(a, 0, 4, (byte) 1),
                new Command.Write(a, 0, MemorySegment.ofArray(new byte[100])), new Command.Read(a, 0, 10, data -> { }),
                new Command.Native("library call", List.of(), queue -> { }));
        assertEquals(new StagingNeeds(80 + 48 + 8 + 8 + 8 + 8, 128 + 64, 1), ReplayPlanner.needs(commands));
        assertEquals(new StagingNeeds(80, 0, 0), ReplayPlanner.needs(List.of()));
    }

    // ------------------------------------------------------------------ helpers

    private ReplayPlan plan(Command... commands) {
        ReplayPlan plan = new ReplayPlan();
        planner.plan(List.of(commands), 0, commands.length, epoch, staging, scratch, plan);
        return plan;
    }

    private static Command.Dispatch dispatch(ComputePipeline p, Size grid, Size group, Argument... arguments) {
        return new Command.Dispatch(p, arguments, grid, group, true);
    }

    private static Argument buffer(Buffer buffer) {
        return new Argument.BufferArgument(buffer, 0);
    }

    private static Argument f32(float value) {
        return new Argument.ScalarArgument(Float.floatToRawIntBits(value), 4, true);
    }

    private void assertPlan(ReplayPlan plan, String... expected) {
        assertEquals(String.join("\n", expected), plan.calls().stream().map(this::render).collect(Collectors.joining("\n")));
    }

    private String render(PlannedCall c) {
        String where = c.command() < 0 ? "" : "#" + c.command() + (c.argument() >= 0 ? "." + c.argument() : "");
        return c.call() + where + c.parameters().stream().map(this::name).collect(Collectors.joining(", ", "(", ")"));
    }

    private String name(long value) {
        String n = names.get(value);
        if (n != null) return n;
        if (value >= staging.base() && value < staging.base() + staging.segment().byteSize()) return "staging+" + (value - staging.base());
        if (value >= scratch.base() && value < scratch.base() + scratch.segment().byteSize()) return "scratch+" + (value - scratch.base());
        return Long.toString(value);
    }
}
