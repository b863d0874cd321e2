package dev.panamax.tensor.opencl;

import dev.panamax.compute.Buffer;
import dev.panamax.compute.CommandBuffer;
import dev.panamax.compute.CommandBufferStatus;
import dev.panamax.compute.CommandQueue;
import dev.panamax.compute.ComputeDevice;
import dev.panamax.compute.ComputeEncoder;
import dev.panamax.compute.StorageMode;
import dev.panamax.core.fp16.Fp16;
import dev.panamax.tensor.DType;
import dev.panamax.tensor.reference.ReferenceBackend;
import dev.panamax.tensor.spi.BinaryOp;
import dev.panamax.tensor.spi.HostStorage;
import dev.panamax.tensor.spi.Kernel;
import dev.panamax.tensor.spi.Operand;
import dev.panamax.tensor.spi.ReduceOp;
import dev.panamax.tensor.spi.Storage;
import dev.panamax.tensor.spi.UnaryOp;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every kernel family, op and dtype run through the compute API on the default OpenCL device (PoCL
 * in tests) and compared with the {@code reference} backend on the same input bytes: integers
 * exactly, floats to float rounding. Each case runs contiguous, transposed (strided output too),
 * broadcast (zero strides) and empty. The programs compile once for the whole class.
 */
class KernelEncoderTest {
    private static final DType[] ALL = DType.values();
    private static final DType[] FLOATING = {DType.F32, DType.F16};

    private static ComputeDevice device;
    private static CommandQueue queue;
    /** Per test: what a test compiles is freed by its end (the PoCL cache on disk keeps reruns quick). */
    private KernelCache cache;
    private IndexErrors indexErrors;
    private KernelEncoder kernels;

    private final SplittableRandom random = new SplittableRandom(42);
    private final List<String> failures = new ArrayList<>();
    /** Every storage a case made, freed after it ran. */
    private final List<Storage> made = new ArrayList<>();

    @BeforeAll
    static void device() {
        String dir = System.getenv("POCL_CACHE_DIR");
        try {
            if (dir != null && !dir.isBlank()) Files.createDirectories(Path.of(dir));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        device = ComputeDevice.systemDefault();
        queue = device.newCommandQueue();
    }

    @AfterAll
    static void release() {
        queue.close();
    }

    @BeforeEach
    void kernels() {
        cache = new KernelCache(device);
        indexErrors = new IndexErrors(device);
        kernels = new KernelEncoder(cache, indexErrors);
    }

    @AfterEach
    void freeKernels() {
        freeMade();
        cache.close();
        indexErrors.close();
    }

    /** The layouts a case runs in. */
    enum Form { CONTIGUOUS, TRANSPOSED, BROADCAST, EMPTY }

    // ---- elementwise -----------------------------------------------------------------------------

    @Test
    void fill() {
        for (DType t : ALL) {
            for (Form f : new Form[] {Form.CONTIGUOUS, Form.TRANSPOSED, Form.EMPTY}) {
                for (double value : new double[] {2.5, -1e10, Double.NaN, 65519.0}) {
                    Operand out = output(t, f, 3, 5);
                    check("fill " + t + " " + f + " " + value, new Kernel.Fill(out, value), out);
                }
            }
        }
        done();
    }

    @Test
    void unaryOpsOnFloats() {
        for (DType t : FLOATING) {
            for (UnaryOp op : UnaryOp.values()) {
                for (Form f : Form.values()) {
                    Operand out = output(t, f, 3, 5), in = input(t, f, 3, 5);
                    check("unary " + op + " " + t + " " + f, new Kernel.Unary(op, out, in), out);
                }
            }
        }
        done();
    }

    @Test
    void copyConvertsBetweenEveryPairOfDtypes() {
        for (DType to : ALL) {
            for (DType from : ALL) {
                for (Form f : Form.values()) {
                    Operand out = output(to, f, 3, 5), in = input(from, f, 3, 5);
                    special(in, from);
                    check("copy " + from + "->" + to + " " + f, new Kernel.Unary(UnaryOp.COPY, out, in), out);
                }
            }
        }
        done();
    }

    @Test
    void binaryOps() {
        for (DType t : ALL) {
            for (BinaryOp op : BinaryOp.values()) {
                if (!t.isFloating() && (op == BinaryOp.POW || op == BinaryOp.RELU_BACKWARD)) continue;
                for (Form f : Form.values()) {
                    Operand out = output(t, f, 3, 5), a = input(t, f, 3, 5), b = input(t, f == Form.TRANSPOSED ? Form.CONTIGUOUS : f, 3, 5);
                    if (!t.isFloating()) nonZero(b);
                    check("binary " + op + " " + t + " " + f, new Kernel.Binary(op, out, a, b), out);
                    Operand inPlace = input(t, f == Form.BROADCAST ? Form.CONTIGUOUS : f, 3, 5);
                    double scalar = t.isFloating() ? -1.75 : -7;
                    check("binary scalar " + op + " " + t + " " + f, new Kernel.BinaryScalar(op, inPlace, inPlace, scalar), inPlace);
                }
            }
        }
        done();
    }

    @Test
    void where() {
        DType[][] pairs = {{DType.F32, DType.I32}, {DType.F16, DType.I32}, {DType.I32, DType.I32}, {DType.I64, DType.I32}, {DType.F32, DType.F32}};
        for (DType[] p : pairs) {
            for (Form f : Form.values()) {
                Operand out = output(p[0], f, 3, 5), cond = input(p[1], f, 3, 5), a = input(p[0], f, 3, 5), b = input(p[0], Form.CONTIGUOUS.equals(f) ? f : Form.EMPTY == f ? f : Form.BROADCAST, 3, 5);
                fillValues(cond, i -> i % 3 == 0 ? 0 : i % 3 == 1 ? 1 : Double.NaN);
                check("where " + p[0] + " cond " + p[1] + " " + f, new Kernel.Where(out, cond, a, b), out);
            }
        }
        done();
    }

    @Test
    void adamStep() {
        for (DType t : FLOATING) {
            for (boolean decoupled : new boolean[] {false, true}) {
                for (Form f : new Form[] {Form.CONTIGUOUS, Form.TRANSPOSED, Form.EMPTY}) {
                    Operand p = output(t, f, 3, 5), g = input(t, f, 3, 5), m = output(t, f, 3, 5), v = output(t, f, 3, 5);
                    fillValues(v, i -> 0.01 * (i + 1));
                    check("adam " + t + " decoupled=" + decoupled + " " + f,
                            new Kernel.AdamStep(p, g, m, v, 1e-2, 0.9, 0.999, 1e-8, 0.01, decoupled, 3), p, m, v);
                }
            }
        }
        done();
    }

    // ---- reductions ------------------------------------------------------------------------------

    @Test
    void reductions() {
        for (DType t : ALL) {
            for (ReduceOp op : ReduceOp.values()) {
                DType outType = KernelSources.reduceOutput(op, t);
                for (int axis = 0; axis < 2; axis++) {
                    for (Form f : new Form[] {Form.CONTIGUOUS, Form.TRANSPOSED, Form.BROADCAST}) {
                        Operand in = input(t, f, 4, 6);
                        int[] shape = {4, 6};
                        shape[axis] = 1;
                        Operand out = output(outType, Form.CONTIGUOUS, shape);
                        check("reduce " + op + " " + t + " axis " + axis + " " + f, new Kernel.Reduce(op, out, in, axis), out);
                    }
                }
                // a long axis takes the work-group tree
                Operand in = input(t, Form.CONTIGUOUS, 3, 700);
                if (t.isFloating()) fillValues(in, i -> i == 650 ? Double.NaN : Math.sin(i)); // NaN propagates in row 0
                Operand out = output(outType, Form.CONTIGUOUS, 3, 1);
                check("reduce tree " + op + " " + t, new Kernel.Reduce(op, out, in, 1), out);
                Operand tin = input(t, Form.TRANSPOSED, 700, 3);
                Operand tout = output(outType, Form.CONTIGUOUS, 1, 3);
                check("reduce tree " + op + " " + t + " transposed", new Kernel.Reduce(op, tout, tin, 0), tout);
            }
            // an empty axis sums to zero; an empty output reduces nothing
            Operand empty = input(t, Form.CONTIGUOUS, 3, 0);
            Operand zeros = output(KernelSources.reduceOutput(ReduceOp.SUM, t), Form.CONTIGUOUS, 3, 1);
            check("sum of empty axis " + t, new Kernel.Reduce(ReduceOp.SUM, zeros, empty, 1), zeros);
            Operand none = output(t, Form.CONTIGUOUS, 0, 1);
            check("max into empty " + t, new Kernel.Reduce(ReduceOp.MAX, none, input(t, Form.CONTIGUOUS, 0, 4), 1), none);
        }
        done();
    }

    // ---- matmul ----------------------------------------------------------------------------------

    @Test
    void matmul() {
        for (DType t : FLOATING) {
            for (boolean accumulate : new boolean[] {false, true}) {
                Operand out = output(t, Form.CONTIGUOUS, 2, 5, 19), a = input(t, Form.CONTIGUOUS, 2, 5, 21), b = input(t, Form.CONTIGUOUS, 2, 21, 19);
                check("matmul " + t + " acc=" + accumulate, new Kernel.MatMul(out, a, b, accumulate), out);
                // a transposed per batch, b shared by the batch (batch stride 0), out strided
                Storage as = storage(t, 2 * 21 * 5);
                Operand at = new Operand(as, new int[] {2, 5, 21}, new long[] {105, 1, 5}, 0);
                Storage bs = storage(t, 21 * 19 + 3);
                Operand shared = new Operand(bs, new int[] {2, 21, 19}, new long[] {0, 19, 1}, 3);
                Storage os = storage(t, 2 * 5 * 19);
                Operand ot = new Operand(os, new int[] {2, 5, 19}, new long[] {1, 38, 2}, 0);
                check("matmul strided " + t + " acc=" + accumulate, new Kernel.MatMul(ot, at, shared, accumulate), ot);
            }
            Operand out = output(t, Form.CONTIGUOUS, 1, 4, 3);
            check("matmul k=0 " + t, new Kernel.MatMul(out, input(t, Form.CONTIGUOUS, 1, 4, 0), input(t, Form.CONTIGUOUS, 1, 0, 3), false), out);
            Operand empty = output(t, Form.CONTIGUOUS, 2, 0, 3);
            check("matmul m=0 " + t, new Kernel.MatMul(empty, input(t, Form.CONTIGUOUS, 2, 0, 4), input(t, Form.CONTIGUOUS, 2, 4, 3), false), empty);
        }
        done();
    }

    // ---- indexing --------------------------------------------------------------------------------

    @Test
    void indexSelectAndAdd() {
        for (DType t : ALL) {
            for (DType ix : new DType[] {DType.I32, DType.I64}) {
                for (int axis = 0; axis < 2; axis++) {
                    for (Form f : new Form[] {Form.CONTIGUOUS, Form.TRANSPOSED}) {
                        int[] inShape = {5, 4};
                        int[] outShape = {5, 4};
                        outShape[axis] = 7;
                        Operand index = output(ix, Form.CONTIGUOUS, 7);
                        int extent = inShape[axis];
                        fillValues(index, i -> (i * 3) % extent); // repeats
                        Operand in = input(t, f, inShape);
                        Operand out = output(t, f, outShape);
                        check("index select " + t + " " + ix + " axis " + axis + " " + f, new Kernel.IndexSelect(out, in, index, axis), out);
                        Operand target = input(t, f, inShape);
                        Operand src = input(t, Form.CONTIGUOUS, outShape);
                        index = output(ix, Form.CONTIGUOUS, 7);
                        fillValues(index, i -> (i * 3) % extent);
                        check("index add " + t + " " + ix + " axis " + axis + " " + f, new Kernel.IndexAdd(target, index, src, axis), target);
                    }
                }
                Operand none = output(ix, Form.CONTIGUOUS, 0);
                Operand target = input(t, Form.CONTIGUOUS, 3, 4);
                check("index add of nothing " + t + " " + ix, new Kernel.IndexAdd(target, none, input(t, Form.CONTIGUOUS, 0, 4), 0), target);
                Operand selected = output(t, Form.CONTIGUOUS, 0, 4);
                none = output(ix, Form.CONTIGUOUS, 0);
                check("index select of nothing " + t + " " + ix, new Kernel.IndexSelect(selected, input(t, Form.CONTIGUOUS, 3, 4), none, 0), selected);
            }
        }
        done();
    }

    // ---- cross-entropy ---------------------------------------------------------------------------

    @Test
    void crossEntropy() {
        for (DType t : FLOATING) {
            for (DType labelsType : new DType[] {DType.I32, DType.I64}) {
                for (Form f : new Form[] {Form.CONTIGUOUS, Form.TRANSPOSED}) {
                    for (boolean withGrad : new boolean[] {true, false}) {
                        Operand logits = input(t, f, 300, 5);
                        Operand labels = output(labelsType, Form.CONTIGUOUS, 300);
                        fillValues(labels, i -> (i * 7) % 5);
                        Operand loss = output(t, Form.CONTIGUOUS);
                        Operand grad = withGrad ? output(t, f, 300, 5) : null;
                        Kernel k = new Kernel.CrossEntropy(loss, grad, logits, labels);
                        if (withGrad) check("cross entropy " + t + " " + labelsType + " " + f, k, loss, grad);
                        else check("cross entropy " + t + " " + labelsType + " " + f + " no grad", k, loss);
                    }
                }
            }
        }
        done();
    }

    @Test
    void rankFourPermutedOperandsTakeTheStridedPath() {
        for (DType t : new DType[] {DType.F32, DType.I64}) {
            Storage as = storage(t, 2 * 3 * 4 * 5);
            Operand a = new Operand(as, new int[] {5, 2, 4, 3}, new long[] {1, 60, 5, 20}, 0); // a permutation of (2, 3, 4, 5)
            Operand b = input(t, Form.BROADCAST, 5, 2, 4, 3);
            Operand out = output(t, Form.CONTIGUOUS, 5, 2, 4, 3);
            check("rank 4 add " + t, new Kernel.Binary(BinaryOp.ADD, out, a, b), out);
        }
        done();
    }

    @Test
    void aProgramThatDoesNotCompileIsNamedWithItsDeviceAndLog() {
        try (KernelCache broken = new KernelCache(device, key -> "__kernel void fill_dense(__global float *p) { p[0] = undefined_name; }")) {
            KernelEncoder encoder = new KernelEncoder(broken, indexErrors);
            Operand out = output(DType.F16, Form.CONTIGUOUS, 4);
            KernelBuildException e = org.junit.jupiter.api.Assertions.assertThrows(KernelBuildException.class, () -> {
                CommandBuffer commands = queue.commandBuffer();
                try (ComputeEncoder ce = commands.computeEncoder()) {
                    encoder.encode(new Kernel.Fill(out, 1), ce, s -> null);
                }
            });
            assertTrue(e.getMessage().contains("'fill f16'") && e.getMessage().contains("fill_dense")
                    && e.getMessage().contains(device.info().name()), e.getMessage());
            assertTrue(e.log().contains("undefined_name"), e.log());
        }
        freeMade();
    }

    @Test
    void anOpADtypeDoesNotTakeIsRefusedNamingIt() {
        Operand out = output(DType.I32, Form.CONTIGUOUS, 2), in = input(DType.I32, Form.CONTIGUOUS, 2);
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> {
            CommandBuffer commands = queue.commandBuffer();
            try (ComputeEncoder encoder = commands.computeEncoder()) {
                kernels.encode(new Kernel.Unary(UnaryOp.EXP, out, in), encoder, s -> null);
            }
        });
        assertTrue(e.getMessage().contains("unary EXP does not take i32"), e.getMessage());
        freeMade();
    }

    // ---- the harness -----------------------------------------------------------------------------

    /**
     * Runs {@code kernel} on the device over copies of its storages and with the reference on the
     * storages themselves, then compares every output.
     */
    private void check(String name, Kernel kernel, Operand... outputs) {
        Map<Storage, Buffer> buffers = new IdentityHashMap<>();
        try {
            for (Storage s : made) {
                Buffer b = cache.device().newBuffer(Math.max(16, s.byteSize()), StorageMode.SHARED);
                buffers.put(s, b);
                MemorySegment.copy(HostStorage.of(s).segment(), 0, b.contents(), 0, s.byteSize());
            }
            CommandBuffer commands = queue.commandBuffer();
            try (ComputeEncoder encoder = commands.computeEncoder()) {
                kernels.encode(kernel, encoder, buffers::get);
            }
            commands.commit();
            if (commands.waitUntilCompleted() != CommandBufferStatus.COMPLETED) {
                failures.add(name + ": " + commands.error().map(Throwable::toString).orElse("failed"));
                return;
            }
            new ReferenceBackend().execute(kernel);
            for (Operand o : outputs) compare(name, o, buffers.get(o.storage()).contents());
        } catch (RuntimeException e) {
            failures.add(name + ": " + e);
        } finally {
            buffers.values().forEach(Buffer::close);
            freeMade();
        }
    }

    private void compare(String name, Operand o, MemorySegment device) {
        MemorySegment expected = HostStorage.of(o.storage()).segment();
        DType t = o.dtype();
        for (long i = 0; i < o.storage().length(); i++) {
            switch (t) {
                case I32, I64 -> {
                    long want = t == DType.I32 ? expected.getAtIndex(ValueLayout.JAVA_INT, i) : expected.getAtIndex(ValueLayout.JAVA_LONG, i);
                    long got = t == DType.I32 ? device.getAtIndex(ValueLayout.JAVA_INT, i) : device.getAtIndex(ValueLayout.JAVA_LONG, i);
                    if (want != got) {
                        failures.add(name + ": element " + i + " of " + o + " is " + got + ", reference " + want);
                        return;
                    }
                }
                case F32, F16 -> {
                    double want = t == DType.F32 ? expected.getAtIndex(ValueLayout.JAVA_FLOAT, i) : Fp16.toFloat(expected.getAtIndex(ValueLayout.JAVA_SHORT, i));
                    double got = t == DType.F32 ? device.getAtIndex(ValueLayout.JAVA_FLOAT, i) : Fp16.toFloat(device.getAtIndex(ValueLayout.JAVA_SHORT, i));
                    double tolerance = (t == DType.F32 ? 2e-5 : 2e-3) * Math.max(1, Math.abs(want));
                    boolean same = Double.isNaN(want) ? Double.isNaN(got) : want == got || Math.abs(want - got) <= tolerance;
                    if (!same) {
                        failures.add(name + ": element " + i + " of " + o + " is " + got + ", reference " + want);
                        return;
                    }
                }
            }
        }
    }

    private void done() {
        assertEquals(List.of(), failures, failures.size() + " cases differ from the reference");
    }

    private void freeMade() {
        made.forEach(Storage::close);
        made.clear();
    }

    private Storage storage(DType t, long length) {
        HostStorage s = HostStorage.allocate(t, length);
        made.add(s);
        Operand all = new Operand(s, new int[] {(int) length}, new long[] {1}, 0);
        fillValues(all, i -> t.isFloating() ? random.nextDouble(-3, 3) : random.nextInt(-50, 51));
        return s;
    }

    /** An operand of {@code shape} in {@code form} (BROADCAST is an input's form: its first dimension has stride 0). */
    private Operand input(DType t, Form form, int... shape) {
        int[] s = shape.clone();
        if (form == Form.EMPTY && s.length > 0) s[0] = 0;
        int rank = s.length;
        long n = 1;
        for (int d : s) n *= d;
        return switch (form) {
            case CONTIGUOUS, EMPTY -> new Operand(storage(t, n + 1), s, rowMajor(s), 1);
            case TRANSPOSED -> {
                // the same elements stored column-major (the last two dimensions swapped), one element in
                long[] strides = rowMajor(s);
                if (rank >= 2) {
                    long inner = s[rank - 2];
                    strides[rank - 2] = 1;
                    strides[rank - 1] = inner;
                }
                yield new Operand(storage(t, n + 1), s, strides, 1);
            }
            case BROADCAST -> {
                long[] strides = rowMajor(s);
                long stored = n;
                if (rank > 0) {
                    stored = n / Math.max(1, s[0]);
                    strides[0] = 0;
                }
                yield new Operand(storage(t, stored), s, strides, 0);
            }
        };
    }

    /** An output: contiguous or transposed (an output never broadcasts). */
    private Operand output(DType t, Form form, int... shape) {
        return input(t, form == Form.BROADCAST ? Form.CONTIGUOUS : form, shape);
    }

    private static long[] rowMajor(int[] shape) {
        long[] strides = new long[shape.length];
        long s = 1;
        for (int d = shape.length - 1; d >= 0; d--) {
            strides[d] = s;
            s *= Math.max(1, shape[d]);
        }
        return strides;
    }

    /** Sets every element of {@code o}'s storage to {@code value(i)} as the reference stores it. */
    private static void fillValues(Operand o, java.util.function.LongToDoubleFunction value) {
        Storage s = o.storage();
        MemorySegment m = HostStorage.of(s).segment();
        for (long i = 0; i < s.length(); i++) {
            double v = value.applyAsDouble(i);
            switch (s.dtype()) {
                case F32 -> m.setAtIndex(ValueLayout.JAVA_FLOAT, i, (float) v);
                case F16 -> m.setAtIndex(ValueLayout.JAVA_SHORT, i, Fp16.toHalf((float) v));
                case I32 -> m.setAtIndex(ValueLayout.JAVA_INT, i, (int) v);
                case I64 -> m.setAtIndex(ValueLayout.JAVA_LONG, i, (long) v);
            }
        }
    }

    /** Extremes for conversions: NaN, infinities, beyond i32, negative fractions; integer bounds. */
    private void special(Operand o, DType t) {
        MemorySegment m = HostStorage.of(o.storage()).segment();
        long n = o.storage().length();
        double[] floats = {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 3e9, -2.7, -3e9, 1e20, 16_777_217};
        long[] longs = {Integer.MIN_VALUE, Integer.MAX_VALUE, Long.MIN_VALUE, Long.MAX_VALUE, (1L << 32) + 5, 16_777_217, -1, (1L << 53) + 1};
        for (int i = 0; i < Math.min(n, 8); i++) {
            switch (t) {
                case F32 -> m.setAtIndex(ValueLayout.JAVA_FLOAT, i, (float) floats[i]);
                case F16 -> m.setAtIndex(ValueLayout.JAVA_SHORT, i, Fp16.toHalf((float) floats[i]));
                case I32 -> m.setAtIndex(ValueLayout.JAVA_INT, i, (int) longs[i]);
                case I64 -> m.setAtIndex(ValueLayout.JAVA_LONG, i, longs[i]);
            }
        }
    }

    /** Integer divisors: every zero becomes 3 (the reference refuses division by zero). */
    private static void nonZero(Operand o) {
        MemorySegment m = HostStorage.of(o.storage()).segment();
        for (long i = 0; i < o.storage().length(); i++) {
            if (o.dtype() == DType.I32 && m.getAtIndex(ValueLayout.JAVA_INT, i) == 0) m.setAtIndex(ValueLayout.JAVA_INT, i, 3);
            if (o.dtype() == DType.I64 && m.getAtIndex(ValueLayout.JAVA_LONG, i) == 0) m.setAtIndex(ValueLayout.JAVA_LONG, i, 3);
        }
    }
}
