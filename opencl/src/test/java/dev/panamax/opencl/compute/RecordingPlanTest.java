package dev.panamax.opencl.compute;

import dev.panamax.compute.Buffer;
import dev.panamax.compute.CommandBuffer;
import dev.panamax.compute.CommandBufferException;
import dev.panamax.compute.CommandBufferStatus;
import dev.panamax.compute.CommandQueue;
import dev.panamax.compute.ComputeDevice;
import dev.panamax.compute.ComputeEncoder;
import dev.panamax.compute.ComputePipeline;
import dev.panamax.compute.Library;
import dev.panamax.compute.NativeQueue;
import dev.panamax.compute.RecordedCommands;
import dev.panamax.compute.References;
import dev.panamax.compute.Size;
import dev.panamax.compute.Validation;
import dev.panamax.compute.spi.Argument;
import dev.panamax.compute.spi.Command;
import dev.panamax.opencl.binding.CL;
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
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.*;

/**
 * A recorded command list is planned once, when it is recorded, into batches of its own
 * ({@link RecordingPlan}): golden tests of its plan, as {@code ReplayPlannerGoldenTest} tests a
 * commit's, then its submissions interleaved with command buffers that change the same kernels'
 * arguments on the same queue.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RecordingPlanTest {
    static final String SOURCE = """
            __kernel void scale(__global float *x, float f) { x[get_global_id(0)] *= f; }
            __kernel void add(__global float *x, float v) { x[get_global_id(0)] += v; }
            """;
    static final int N = 64;

    private final ComputeDevice device = ComputeDevice.systemDefault();
    private Library library;
    private ComputePipeline scale, add;
    private Buffer a, b;
    private OpenClQueue driver;
    private final Map<Long, String> names = new HashMap<>();

    @BeforeAll
    void build() {
        library = device.newLibrary(SOURCE);
        scale = library.newPipeline("scale");
        add = library.newPipeline("add");
    }

    @BeforeEach
    void buffersAndQueue() {
        a = device.newBuffer(new float[N]);
        b = device.newBuffer(new float[N]);
        driver = new OpenClQueue((OpenClDevice) device);
        names.clear();
        names.put(driver.address().address(), "queue");
        names.put(((OpenClBuffer) a).mem().address(), "a");
        names.put(((OpenClBuffer) b).mem().address(), "b");
        names.put(((OpenClPipeline) scale).kernel().address(), "scale");
        names.put(((OpenClPipeline) add).kernel().address(), "add");
    }

    @AfterEach
    void free() {
        driver.close();
        a.close();
        b.close();
    }

    @AfterAll
    void close() {
        for (AutoCloseable c : new AutoCloseable[] {scale, add, library}) {
            try {
                if (c != null) c.close();
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        }
    }

    // ------------------------------------------------------------------ the plan, made once

    @Test
    void eachBatchBetweenNativeCommandsIsPlannedWithEveryArgumentAndTheLastGivesTheEvent() {
        Command.Dispatch d = dispatch(scale, buffer(a), f32(2f));
        List<Command> commands = List.of(d, d, new Command.Fill(b, 0, 32, (byte) 7),
                new Command.Native("library call", List.of(), q -> { }),
                dispatch(scale, buffer(a), f32(2f)));
        OpenClPipeline p = (OpenClPipeline) scale;
        long epochBefore = p.argumentsEpoch;
        long[] sizesBefore = p.setSizes.clone();
        try (RecordingPlan plan = RecordingPlan.prepare(driver, commands)) {
            assertNotNull(plan);
            assertEquals(0, plan.eventSlot(), "the event's slot leads the recording's staging");
            assertEquals(8, plan.gateSlot());
            assertPlans(plan, List.of(
                    List.of("SET_ARG#0.0(scale, 0, 8, staging+16)",
                            "SET_ARG#0.1(scale, 1, 4, staging+24)",
                            "NDRANGE#0(queue, scale, 1, 0, staging+32, staging+56, 0, 0, 0)",
                            "NDRANGE#1(queue, scale, 1, 0, staging+32, staging+56, 0, 0, 0)",
                            "FILL#2(queue, b, staging+80, 1, 0, 32, 0, 0, 0)",
                            "FLUSH(queue)"),
                    List.of("SET_ARG#4.0(scale, 0, 8, staging+88)",
                            "SET_ARG#4.1(scale, 1, 4, staging+96)",
                            "NDRANGE#4(queue, scale, 1, 0, staging+104, staging+128, 0, 0, staging+0)",
                            "FLUSH(queue)")));
            MemorySegment staging = plan.stagingMemory();
            assertEquals(Float.floatToIntBits(2f), staging.get(ValueLayout.JAVA_LONG, 96), "the float's bits, staged once");
            assertEquals(7, staging.get(ValueLayout.JAVA_BYTE, 80), "the fill pattern");
            List<RecordingPlan.Segment> segments = plan.segments();
            assertEquals(3, segments.size());
            assertInstanceOf(RecordingPlan.NativeCall.class, segments.get(1));
            assertEquals(3, ((RecordingPlan.NativeCall) segments.get(1)).index());
        }
        assertEquals(epochBefore, p.argumentsEpoch, "planning a recording leaves the queue's argument state alone");
        assertArrayEquals(sizesBefore, p.setSizes);
    }

    @Test
    void aNativeCommandLastLeavesAMarkerToGiveTheEvent() {
        List<Command> commands = List.of(new Command.Barrier(), new Command.Native("library call", List.of(), q -> { }));
        try (RecordingPlan plan = RecordingPlan.prepare(driver, commands)) {
            assertNotNull(plan);
            assertPlans(plan, List.of(
                    List.of("BARRIER#0(queue, 0, 0, 0)", "FLUSH(queue)"),
                    List.of("MARKER(queue, 0, 0, staging+0)", "FLUSH(queue)")));
        }
    }

    @Test
    void aHeapWriteIsCopiedOnceIntoTheRecordingsOwnMemory() {
        List<Command> commands = List.of(new Command.Write(a, 4, MemorySegment.ofArray(new byte[] {1, 2, 3})));
        try (RecordingPlan plan = RecordingPlan.prepare(driver, commands)) {
            assertNotNull(plan);
            PlannedCall write = plan.calls().getFirst().getFirst();
            assertEquals(ClCall.WRITE, write.call());
            long from = write.parameters().get(5);
            assertArrayEquals(new byte[] {1, 2, 3}, MemorySegment.ofAddress(from).reinterpret(3).toArray(ValueLayout.JAVA_BYTE));
        }
    }

    @Test
    void fromSixtyFourEnqueuesTheFirstWaitsForTheGateSlot() {
        List<Command> commands = new ArrayList<>(Collections.nCopies(ReplayPlanner.GATED_FROM, new Command.Barrier()));
        try (RecordingPlan plan = RecordingPlan.prepare(driver, commands)) {
            assertNotNull(plan);
            List<String> calls = plan.calls().getFirst().stream().map(c -> render(c, plan)).toList();
            assertEquals("BARRIER#0(queue, 1, staging+8, 0)", calls.getFirst());
            assertEquals("BARRIER#1(queue, 0, 0, 0)", calls.get(1), "only the first enqueue waits");
        }
    }

    @Test
    void aListWithAReadIsReplayedAsCommitsAre() {
        assertNull(RecordingPlan.prepare(driver, List.of(new Command.Read(a, 0, 4, data -> { }))));
    }

    // ------------------------------------------------------------------ submissions

    @Test
    void aRecordingSubmittedBetweenCommandBuffersThatChangeTheSameKernelsArgumentsComputesRightEachTime() {
        try (CommandQueue queue = device.newCommandQueue(4)) {
            fill(a, 1f);
            fill(b, 1f);
            CommandBuffer cb = queue.commandBuffer().label("step");
            try (ComputeEncoder e = cb.computeEncoder()) {
                e.setPipeline(scale).setBuffer(0, a).setFloat(1, 2f).dispatchThreads(Size.of(N), Size.of(16));
                e.setPipeline(add).setBuffer(0, a).setFloat(1, 1f).dispatchThreads(Size.of(N), Size.of(16));
            }
            cb.encodeNative("reset b", List.of(b), on -> fillOnQueue(on, b, 1f));
            try (ComputeEncoder e = cb.computeEncoder()) {
                e.setPipeline(add).setBuffer(0, b).setFloat(1, 1f).dispatchThreads(Size.of(N), Size.of(16));
            }
            int runs = 5;
            try (RecordedCommands step = cb.record()) {
                long plansBefore = ReplayPlanner.plansMade();
                float expectedA = 1f, expectedB = 1f;
                List<CommandBuffer> submitted = new ArrayList<>();
                for (int run = 0; run < runs; run++) {
                    submitted.add(step.submit()); // a = 2a + 1; b = 1 + 1
                    expectedA = 2 * expectedA + 1;
                    expectedB = 2f;
                    CommandBuffer other = queue.commandBuffer().label("other " + run);
                    try (ComputeEncoder e = other.computeEncoder()) { // the same kernels, other arguments: b = 3b - 2
                        e.setPipeline(scale).setBuffer(0, b).setFloat(1, 3f).dispatchThreads(Size.of(N), Size.of(16));
                        e.setPipeline(add).setBuffer(0, b).setFloat(1, -2f).dispatchThreads(Size.of(N), Size.of(16));
                    }
                    other.commit();
                    submitted.add(other);
                    expectedB = 3 * expectedB - 2;
                }
                for (CommandBuffer s : submitted) assertEquals(CommandBufferStatus.COMPLETED, s.waitUntilCompleted(), s.label());
                assertEquals(runs, ReplayPlanner.plansMade() - plansBefore,
                        "only the other command buffers were planned: the recording's submissions plan nothing");
                assertAll(a, expectedA, "a after " + runs + " submissions");
                assertAll(b, expectedB, "b after " + runs + " submissions between the other command buffers");

                // the queue's own plans still set the arguments the recording changed
                CommandBuffer last = queue.commandBuffer();
                try (ComputeEncoder e = last.computeEncoder()) {
                    e.setPipeline(scale).setBuffer(0, b).setFloat(1, 3f).dispatchThreads(Size.of(N), Size.of(16));
                }
                step.submit();
                last.commit();
                last.waitUntilCompleted();
                assertAll(a, 2 * expectedA + 1, "a after another submission");
                assertAll(b, 3 * 2f, "b scaled after the recording set its arguments");
            }
        }
    }

    @Test
    void aGatedRecordingRunsWholeOnEachSubmission() {
        try (CommandQueue queue = device.newCommandQueue(2)) {
            fill(a, 0f);
            int dispatches = ReplayPlanner.GATED_FROM + 6;
            CommandBuffer cb = queue.commandBuffer().label("gated");
            try (ComputeEncoder e = cb.computeEncoder()) {
                e.setPipeline(add).setBuffer(0, a).setFloat(1, 1f);
                for (int k = 0; k < dispatches; k++) e.dispatchThreads(Size.of(N), Size.of(16));
            }
            try (RecordedCommands step = cb.record()) {
                for (int run = 1; run <= 3; run++) {
                    assertEquals(CommandBufferStatus.COMPLETED, step.submit().waitUntilCompleted());
                    assertAll(a, (float) dispatches * run, "submission " + run);
                }
            }
        }
    }

    @Test
    void aCallTheDriverRefusesFailsEachSubmissionNamingTheCommandAndTheCommandsBeforeItRun() {
        try (CommandQueue queue = device.newCommandQueue(2); ComputePipeline fresh = library.newPipeline("scale")) {
            fill(a, 1f);
            CommandBuffer cb = queue.commandBuffer(References.RETAINED, Validation.UNCHECKED).label("refused");
            try (ComputeEncoder e = cb.computeEncoder()) {
                e.setPipeline(add).setBuffer(0, a).setFloat(1, 1f).dispatchThreads(Size.of(N), Size.of(16));
            }
            try (ComputeEncoder e = cb.computeEncoder()) { // an argument table of its own
                e.setPipeline(fresh).setBuffer(0, a).dispatchThreads(Size.of(N), Size.of(16)); // its factor never set
            }
            try (RecordedCommands step = cb.record()) {
                for (int run = 1; run <= 2; run++) {
                    CommandBuffer submitted = step.submit();
                    CommandBufferException e = assertThrows(CommandBufferException.class, submitted::waitUntilCompleted);
                    assertEquals(1, e.commandIndex());
                    assertTrue(e.getMessage().contains("'refused (submission " + run + ")' command 1 (dispatch 'scale')"), e.getMessage());
                    assertAll(a, 1f + run, "the command before it ran, submission " + run);
                }
            }
            CommandBuffer after = queue.commandBuffer();
            try (ComputeEncoder e = after.computeEncoder()) {
                e.setPipeline(add).setBuffer(0, a).setFloat(1, 1f).dispatchThreads(Size.of(N), Size.of(16));
            }
            after.commit();
            assertEquals(CommandBufferStatus.COMPLETED, after.waitUntilCompleted(), "the queue is still usable");
            assertAll(a, 4f, "the next command buffer ran");
        }
    }

    @Test
    void aThrowingNativeCommandFailsThatSubmissionAndTheCommandsAfterItDoNotRun() {
        try (CommandQueue queue = device.newCommandQueue(2)) {
            fill(a, 1f);
            AtomicInteger calls = new AtomicInteger();
            CommandBuffer cb = queue.commandBuffer().label("native");
            try (ComputeEncoder e = cb.computeEncoder()) {
                e.setPipeline(add).setBuffer(0, a).setFloat(1, 1f).dispatchThreads(Size.of(N), Size.of(16));
            }
            cb.encodeNative("second time fails", List.of(a), on -> {
                if (calls.incrementAndGet() == 2) throw new IllegalStateException("the library said no");
            });
            try (ComputeEncoder e = cb.computeEncoder()) {
                e.setPipeline(scale).setBuffer(0, a).setFloat(1, 2f).dispatchThreads(Size.of(N), Size.of(16));
            }
            try (RecordedCommands step = cb.record()) {
                assertEquals(CommandBufferStatus.COMPLETED, step.submit().waitUntilCompleted());
                assertAll(a, 4f, "(1 + 1) * 2");
                CommandBufferException e = assertThrows(CommandBufferException.class, () -> step.submit().waitUntilCompleted());
                assertEquals(1, e.commandIndex());
                assertAll(a, 5f, "the dispatch before the native command ran, the one after it did not");
                assertEquals(CommandBufferStatus.COMPLETED, step.submit().waitUntilCompleted());
                assertAll(a, 12f, "the third submission ran whole");
            }
        }
    }

    // ------------------------------------------------------------------ helpers

    private static void fill(Buffer x, float value) {
        for (int i = 0; i < N; i++) x.contents().setAtIndex(ValueLayout.JAVA_FLOAT, i, value);
    }

    private static void assertAll(Buffer x, float expected, String what) {
        float[] v = x.contents().toArray(ValueLayout.JAVA_FLOAT);
        for (int i = 0; i < N; i++) assertEquals(expected, v[i], what + ": element " + i + " of " + Arrays.toString(v));
    }

    /** {@code clEnqueueFillBuffer} of {@code buffer} with one float, as a library enqueues its own work on the queue. */
    private static void fillOnQueue(NativeQueue on, Buffer buffer, float value) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment pattern = arena.allocateFrom(ValueLayout.JAVA_FLOAT, value);
            check(CL.clEnqueueFillBuffer(on.handle(), on.bufferHandle(buffer), pattern, 4, 0, buffer.length(), 0, MemorySegment.NULL,
                    MemorySegment.NULL), "clEnqueueFillBuffer");
        }
    }

    private static void check(int status, String what) {
        if (status != CL.CL_SUCCESS) throw new IllegalStateException(what + " returned " + status);
    }

    private static Command.Dispatch dispatch(ComputePipeline p, Argument... arguments) {
        return new Command.Dispatch(p, arguments, Size.of(N), Size.of(16), true);
    }

    private static Argument buffer(Buffer buffer) {
        return new Argument.BufferArgument(buffer, 0);
    }

    private static Argument f32(float value) {
        return new Argument.ScalarArgument(Float.floatToRawIntBits(value), 4, true);
    }

    private void assertPlans(RecordingPlan plan, List<List<String>> expected) {
        String want = expected.stream().map(l -> String.join("\n", l)).collect(Collectors.joining("\n--\n"));
        String got = plan.calls().stream().map(l -> l.stream().map(c -> render(c, plan)).collect(Collectors.joining("\n")))
                .collect(Collectors.joining("\n--\n"));
        assertEquals(want, got);
    }

    private String render(PlannedCall c, RecordingPlan plan) {
        String where = c.command() < 0 ? "" : "#" + c.command() + (c.argument() >= 0 ? "." + c.argument() : "");
        return c.call() + where + c.parameters().stream().map(v -> name(v, plan)).collect(Collectors.joining(", ", "(", ")"));
    }

    private String name(long value, RecordingPlan plan) {
        String n = names.get(value);
        if (n != null) return n;
        long base = plan.stagingMemory().address();
        if (value >= base && value < base + plan.stagingMemory().byteSize()) return "staging+" + (value - base);
        return Long.toString(value);
    }
}
