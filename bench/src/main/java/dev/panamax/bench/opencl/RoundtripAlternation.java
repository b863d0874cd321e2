package dev.panamax.bench.opencl;

import dev.panamax.bench.Result;
import dev.panamax.opencl.OpenCl;
import dev.panamax.opencl.binding.CL;
import dev.panamax.opencl.binding.CLApi;
import dev.panamax.opencl.binding.ClCommandQueue;
import dev.panamax.opencl.binding.ClContext;
import dev.panamax.opencl.binding.ClDeviceId;
import dev.panamax.opencl.binding.ClKernel;
import dev.panamax.opencl.binding.ClMem;
import dev.panamax.opencl.binding.ClProgram;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The OpenCL round trip (one tiny kernel + clFinish) of raw FFM, Panamax and LWJGL in ONE JVM,
 * in alternating blocks, so that all three see the same machine state, the same JIT and the same
 * PoCL worker threads: separates a cost of the binding from the order of JMH's forks.
 *
 * <pre>java --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow \
 *     -cp bench/target/panamax-bench.jar dev.panamax.bench.opencl.RoundtripAlternation [rounds] [callsPerBlock] [raw,panamax,generatedRaw,typedEnqueue,typedFinish,lwjgl]</pre>
 *
 * Prints, per binding, the median, min and max of the per-block mean round trip in microseconds, and
 * the median over rounds of its block divided by the raw block of the same round.
 * Naming one binding only gives a JVM that runs nothing else, as a JMH fork does.
 */
public final class RoundtripAlternation {
    private RoundtripAlternation() {}

    /** One binding's round trip, set up and torn down like its JMH state. */
    private interface Side {
        void roundtrip() throws Throwable;
    }

    public static void main(String[] args) throws Throwable {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 40;
        int calls = args.length > 1 ? Integer.parseInt(args[1]) : 2_000;
        List<String> chosen = List.of((args.length > 2 ? args[2] : "raw,panamax,lwjgl").split(","));
        Map<String, Side> sides = new LinkedHashMap<>();
        List<Runnable> tearDowns = new ArrayList<>();
        for (String name : chosen) {
            switch (name) {
                case "raw" -> {
                    RawDispatch raw = new RawDispatch();
                    raw.setup();
                    sides.put(name, raw::roundtrip);
                    tearDowns.addFirst(() -> uncheck(raw::tearDown));
                }
                case "panamax" -> {
                    PanamaxDispatch panamax = new PanamaxDispatch();
                    panamax.setup();
                    sides.put(name, panamax::roundtrip);
                    tearDowns.addFirst(panamax::tearDown);
                }
                // Panamax's objects, then each half of the round trip through the typed layer (CLApi) or
                // the generated raw layer (CL: unchecked status, MemorySegment arguments): which half costs what
                case "generatedRaw" -> halves(name, sides, tearDowns, o -> {
                    o.rawEnqueue();
                    o.rawFinish();
                });
                case "typedEnqueue" -> halves(name, sides, tearDowns, o -> {
                    o.typedEnqueue();
                    o.rawFinish();
                });
                case "typedFinish" -> halves(name, sides, tearDowns, o -> {
                    o.rawEnqueue();
                    CLApi.clFinish(o.queue);
                });
                case "lwjgl" -> {
                    LwjglDispatch lwjgl = new LwjglDispatch();
                    lwjgl.setup();
                    sides.put(name, lwjgl::roundtrip);
                    tearDowns.addFirst(lwjgl::tearDown);
                }
                default -> throw new IllegalArgumentException("unknown binding: name=" + name + " expected=raw|panamax|generatedRaw|typedEnqueue|typedFinish|lwjgl");
            }
        }
        Map<String, double[]> perBlock = new LinkedHashMap<>();
        sides.keySet().forEach(k -> perBlock.put(k, new double[rounds]));
        try {
            for (int warm = 0; warm < 5; warm++) {
                for (Side s : sides.values()) block(s, calls);
            }
            String[] names = sides.keySet().toArray(String[]::new);
            for (int r = 0; r < rounds; r++) {
                // rotate the order each round so that no binding always follows the same one
                for (int i = 0; i < names.length; i++) {
                    String name = names[(r + i) % names.length];
                    perBlock.get(name)[r] = block(sides.get(name), calls);
                }
            }
        } finally {
            tearDowns.forEach(Runnable::run);
        }
        System.out.printf("rounds=%d callsPerBlock=%d (mean us per round trip in each block)%n", rounds, calls);
        double rawMedian = perBlock.containsKey("raw") ? Result.median(perBlock.get("raw")) : Double.NaN;
        for (var e : perBlock.entrySet()) {
            double[] v = e.getValue().clone();
            Arrays.sort(v);
            // paired: each block against the raw block of the same round, which saw the same machine state
            double[] paired = new double[rounds];
            for (int r = 0; r < rounds; r++) {
                paired[r] = perBlock.containsKey("raw") ? e.getValue()[r] / perBlock.get("raw")[r] : Double.NaN;
            }
            System.out.printf("%-8s median=%7.2f min=%7.2f max=%7.2f  median/raw=%.3fx  paired per round=%.3fx%n",
                    e.getKey(), Result.median(v), v[0], v[v.length - 1], Result.median(v) / rawMedian, Result.median(paired));
        }
    }

    /** The kernel's objects made through Panamax's typed layer and helpers, as {@link PanamaxDispatch} makes them. */
    private static final class Objects {
        private static final long[] GLOBAL_SIZE = {TinyKernel.GLOBAL_SIZE};
        final Arena arena = Arena.ofConfined();
        final ClContext context;
        final ClCommandQueue queue;
        final ClProgram program;
        final ClKernel kernel;
        final ClMem buffer;
        final MemorySegment globalSize = arena.allocateFrom(ValueLayout.JAVA_LONG, TinyKernel.GLOBAL_SIZE);

        Objects() {
            ClDeviceId device = OpenCl.devices(OpenCl.platforms().getFirst(), TinyKernel.CL_DEVICE_TYPE_ALL).getFirst();
            context = CLApi.clCreateContext((long[]) null, new ClDeviceId[] {device}, null);
            queue = OpenCl.queue(context, device);
            program = OpenCl.buildProgram(context, device, TinyKernel.SOURCE, "");
            kernel = CLApi.clCreateKernel(program, TinyKernel.NAME);
            buffer = CLApi.clCreateBuffer(context, TinyKernel.CL_MEM_READ_WRITE, (long) TinyKernel.ELEMENTS * Float.BYTES, null);
            OpenCl.setArg(kernel, 0, buffer);
            OpenCl.setArg(kernel, 1, TinyKernel.ADDEND);
            OpenCl.setArg(kernel, 2, TinyKernel.ELEMENTS);
        }

        void typedEnqueue() {
            CLApi.clEnqueueNDRangeKernel(queue, kernel, null, GLOBAL_SIZE, null, null, null);
        }

        void rawEnqueue() {
            TinyKernel.check(CL.clEnqueueNDRangeKernel(queue.handle(), kernel.handle(), 1, MemorySegment.NULL, globalSize,
                    MemorySegment.NULL, 0, MemorySegment.NULL, MemorySegment.NULL), "clEnqueueNDRangeKernel");
        }

        void rawFinish() {
            TinyKernel.check(CL.clFinish(queue.handle()), "clFinish");
        }

        void close() {
            CLApi.clFinish(queue);
            try (Arena a = arena; ClContext c = context; ClCommandQueue q = queue; ClMem b = buffer; ClProgram p = program;
                 ClKernel k = kernel) {
                // closed by try-with-resources, in reverse order
            }
        }
    }

    private interface Step {
        void run() throws Throwable;
    }

    private static void uncheck(Step step) {
        try {
            step.run();
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    /** A side on Panamax's own objects whose round trip is {@code halves} (each half typed or raw layer). */
    private static void halves(String name, Map<String, Side> sides, List<Runnable> tearDowns, HalvesOf halves) {
        Objects o = new Objects();
        sides.put(name, () -> halves.roundtrip(o));
        tearDowns.addFirst(o::close);
    }

    /** The two halves of a round trip on one set of objects. */
    private interface HalvesOf {
        void roundtrip(Objects objects) throws Throwable;
    }

    private static double block(Side side, int calls) throws Throwable {
        long start = System.nanoTime();
        for (int i = 0; i < calls; i++) side.roundtrip();
        return (System.nanoTime() - start) / 1e3 / calls;
    }

}
