package dev.panamax.tensor.cpu;

import dev.panamax.tensor.DType;
import dev.panamax.tensor.reference.ReferenceBackend;
import dev.panamax.tensor.spi.Backend;
import dev.panamax.tensor.spi.BinaryOp;
import dev.panamax.tensor.spi.HostStorage;
import dev.panamax.tensor.spi.Kernel;
import dev.panamax.tensor.spi.Operand;
import dev.panamax.tensor.spi.ReduceOp;
import dev.panamax.tensor.spi.Storage;
import dev.panamax.tensor.spi.UnaryOp;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The native kernels at the SPI level, each against the reference backend on the same random inputs:
 * strided, broadcast and transposed operands, in eager and lazy mode (a whole test recorded and run
 * at its sync).
 */
class CpuKernelsTest {
    private final Random rnd = new Random(7);
    private final List<HostStorage> storages = new ArrayList<>();
    private final ReferenceBackend reference = new ReferenceBackend();

    @AfterEach
    void free() {
        storages.forEach(Storage::close);
    }

    private Operand random(DType t, int... shape) {
        Operand o = contiguous(t, shape);
        long n = o.elements();
        for (long i = 0; i < n; i++) {
            switch (t) {
                case F32 -> HostStorage.of(o.storage()).segment().setAtIndex(ValueLayout.JAVA_FLOAT, i, (float) (rnd.nextGaussian()));
                case I32 -> HostStorage.of(o.storage()).segment().setAtIndex(ValueLayout.JAVA_INT, i, rnd.nextInt(5));
                case I64 -> HostStorage.of(o.storage()).segment().setAtIndex(ValueLayout.JAVA_LONG, i, rnd.nextInt(5));
                case F16 -> HostStorage.of(o.storage()).segment().setAtIndex(ValueLayout.JAVA_SHORT, i, Float.floatToFloat16((float) rnd.nextGaussian()));
            }
        }
        return o;
    }

    private Operand contiguous(DType t, int... shape) {
        long n = 1;
        for (int d : shape) n *= d;
        HostStorage s = HostStorage.allocate(t, Math.max(n, 1));
        storages.add(s);
        long[] strides = new long[shape.length];
        long step = 1;
        for (int i = shape.length - 1; i >= 0; i--) {
            strides[i] = step;
            step *= shape[i];
        }
        return new Operand(s, shape, strides, 0);
    }

    private static Operand view(Operand o, int[] shape, long[] strides, long offset) {
        return new Operand(o.storage(), shape, strides, offset);
    }

    /** Runs the kernel that {@code make} builds for an output on both backends, and compares the outputs. */
    private void check(Backend cpu, DType outType, int[] outShape, Function<Operand, Kernel> make, double tolerance) {
        Operand expected = contiguous(outType, outShape);
        Operand actual = contiguous(outType, outShape);
        reference.execute(make.apply(expected));
        cpu.execute(make.apply(actual));
        cpu.sync();
        long n = expected.elements();
        for (long i = 0; i < n; i++) {
            double e = get(expected, i), a = get(actual, i);
            if (Double.isNaN(e)) {
                assertTrue(Double.isNaN(a), "element " + i + ": expected NaN, got " + a);
            } else {
                long at = i;
                assertEquals(e, a, tolerance * Math.max(1, Math.abs(e)), () -> "element " + at + " of " + make.apply(actual));
            }
        }
    }

    private static double get(Operand o, long i) {
        return switch (o.dtype()) {
            case F32 -> HostStorage.of(o.storage()).segment().getAtIndex(ValueLayout.JAVA_FLOAT, i);
            case I32 -> HostStorage.of(o.storage()).segment().getAtIndex(ValueLayout.JAVA_INT, i);
            case I64 -> HostStorage.of(o.storage()).segment().getAtIndex(ValueLayout.JAVA_LONG, i);
            case F16 -> Float.float16ToFloat(HostStorage.of(o.storage()).segment().getAtIndex(ValueLayout.JAVA_SHORT, i));
        };
    }

    private static CpuBackend backend(boolean lazy) {
        return new CpuBackend(lazy, 1024);
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void unaryOpsOnContiguousAndTransposedInputs(boolean lazy) {
        CpuBackend cpu = backend(lazy);
        Operand x = random(DType.F32, 5, 7);
        Operand xt = view(x, new int[] {7, 5}, new long[] {1, 7}, 0);
        for (UnaryOp op : UnaryOp.values()) {
            Operand in = op == UnaryOp.LOG || op == UnaryOp.SQRT ? absOf(x) : x;
            check(cpu, DType.F32, new int[] {5, 7}, out -> new Kernel.Unary(op, out, in), 1e-5);
            Operand inT = view(in, new int[] {7, 5}, new long[] {1, 7}, 0);
            check(cpu, DType.F32, new int[] {7, 5}, out -> new Kernel.Unary(op, out, inT), 1e-5);
        }
        assertNotNull(xt);
    }

    private Operand absOf(Operand x) {
        Operand y = contiguous(DType.F32, x.shape());
        reference.execute(new Kernel.Unary(UnaryOp.ABS, y, x));
        return y;
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void binaryOpsWithBroadcastsAndScalars(boolean lazy) {
        CpuBackend cpu = backend(lazy);
        Operand a = random(DType.F32, 3, 4, 5);
        Operand row = random(DType.F32, 5);
        Operand rowB = view(row, new int[] {3, 4, 5}, new long[] {0, 0, 1}, 0);
        Operand col = random(DType.F32, 3, 1, 1);
        Operand colB = view(col, new int[] {3, 4, 5}, new long[] {1, 0, 0}, 0);
        for (BinaryOp op : BinaryOp.values()) {
            Operand base = op == BinaryOp.POW ? absOf(a) : a;
            check(cpu, DType.F32, new int[] {3, 4, 5}, out -> new Kernel.Binary(op, out, base, rowB), 1e-5);
            check(cpu, DType.F32, new int[] {3, 4, 5}, out -> new Kernel.Binary(op, out, colB, base), 1e-5);
            check(cpu, DType.F32, new int[] {3, 4, 5}, out -> new Kernel.BinaryScalar(op, out, base, 1.5), 1e-5);
        }
    }

    @Test
    void integerDivisionRunsOnTheReferenceImplementation() {
        CpuBackend cpu = backend(true);
        Operand a = random(DType.I64, 6), b = random(DType.I64, 6);
        for (long i = 0; i < 6; i++) HostStorage.of(b.storage()).segment().setAtIndex(ValueLayout.JAVA_LONG, i, 1 + i);
        long before = cpu.counters().get("fallbacks");
        check(cpu, DType.I64, new int[] {6}, out -> new Kernel.Binary(BinaryOp.DIV, out, a, b), 0);
        assertEquals(before + 1, cpu.counters().get("fallbacks"));
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void integerArithmeticAndComparisonsRunNativelyAndWrapAsJava(boolean lazy) {
        CpuBackend cpu = backend(lazy);
        for (DType t : new DType[] {DType.I32, DType.I64}) {
            Operand a = random(t, 3, 4);
            Operand row = random(t, 4);
            Operand rowB = view(row, new int[] {3, 4}, new long[] {0, 1}, 0);
            // the extremes of the dtype: add, subtract and multiply wrap in two's complement
            Operand edges = contiguous(t, 3, 4);
            for (long i = 0; i < 12; i++) {
                long v = i % 3 == 0 ? (t == DType.I32 ? Integer.MAX_VALUE : Long.MAX_VALUE)
                        : i % 3 == 1 ? (t == DType.I32 ? Integer.MIN_VALUE : Long.MIN_VALUE) : i - 6;
                if (t == DType.I32) HostStorage.of(edges.storage()).segment().setAtIndex(ValueLayout.JAVA_INT, i, (int) v);
                else HostStorage.of(edges.storage()).segment().setAtIndex(ValueLayout.JAVA_LONG, i, v);
            }
            long before = cpu.counters().get("fallbacks");
            for (BinaryOp op : BinaryOp.values()) {
                if (op == BinaryOp.DIV || op == BinaryOp.POW || op == BinaryOp.RELU_BACKWARD) continue;
                check(cpu, t, new int[] {3, 4}, out -> new Kernel.Binary(op, out, a, rowB), 0);
                check(cpu, t, new int[] {3, 4}, out -> new Kernel.Binary(op, out, edges, a), 0);
                check(cpu, t, new int[] {3, 4}, out -> new Kernel.Binary(op, out, edges, edges), 0);
                check(cpu, t, new int[] {3, 4}, out -> new Kernel.BinaryScalar(op, out, edges, 3), 0);
                check(cpu, t, new int[] {3, 4}, out -> new Kernel.BinaryScalar(op, out, a, -2.75), 0);
            }
            assertEquals(before, cpu.counters().get("fallbacks"), t + ": every op native");
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void fillCopyAndCastsBetweenEveryDtype(boolean lazy) {
        CpuBackend cpu = backend(lazy);
        for (DType t : DType.values()) {
            check(cpu, t, new int[] {3, 3}, out -> new Kernel.Fill(out, 2.5), 0);
            Operand src = random(t, 4, 3);
            Operand srcT = view(src, new int[] {3, 4}, new long[] {1, 3}, 0);
            for (DType to : DType.values()) {
                double tol = to == DType.F16 || t == DType.F16 ? 1e-3 : 0;
                check(cpu, to, new int[] {3, 4}, out -> new Kernel.Unary(UnaryOp.COPY, out, srcT), tol);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void whereWithEveryConditionDtype(boolean lazy) {
        CpuBackend cpu = backend(lazy);
        Operand a = random(DType.F32, 4, 6), b = random(DType.F32, 4, 6);
        for (DType t : DType.values()) {
            Operand c = random(t, 6);
            Operand cb = view(c, new int[] {4, 6}, new long[] {0, 1}, 0);
            check(cpu, DType.F32, new int[] {4, 6}, out -> new Kernel.Where(out, cb, a, b), 0);
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void reductionsAlongEveryAxisOfAStridedInput(boolean lazy) {
        CpuBackend cpu = backend(lazy);
        Operand x = random(DType.F32, 4, 5, 6);
        Operand xp = view(x, new int[] {6, 4, 5}, new long[] {1, 30, 6}, 0); // permuted
        for (Operand in : List.of(x, xp)) {
            for (int axis = 0; axis < 3; axis++) {
                int[] outShape = in.shape().clone();
                outShape[axis] = 1;
                int ax = axis;
                for (ReduceOp op : ReduceOp.values()) {
                    DType t = op == ReduceOp.ARGMAX ? DType.I64 : DType.F32;
                    check(cpu, t, outShape, out -> new Kernel.Reduce(op, out, in, ax), 1e-5);
                }
            }
        }
        Operand big = random(DType.F32, 300, 700);
        check(cpu, DType.F32, new int[] {1, 700}, out -> new Kernel.Reduce(ReduceOp.SUM, out, big, 0), 1e-4);
        check(cpu, DType.F32, new int[] {300, 1}, out -> new Kernel.Reduce(ReduceOp.SUM, out, big, 1), 1e-4);
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void matmulPlainTransposedBroadcastAndAccumulating(boolean lazy) {
        CpuBackend cpu = backend(lazy);
        Operand a = random(DType.F32, 2, 3, 4), b = random(DType.F32, 2, 4, 5);
        check(cpu, DType.F32, new int[] {2, 3, 5}, out -> new Kernel.MatMul(out, a, b, false), 1e-5);
        Operand at = view(random(DType.F32, 2, 4, 3), new int[] {2, 3, 4}, new long[] {12, 1, 3}, 0);
        Operand bt = view(random(DType.F32, 2, 5, 4), new int[] {2, 4, 5}, new long[] {20, 1, 4}, 0);
        check(cpu, DType.F32, new int[] {2, 3, 5}, out -> new Kernel.MatMul(out, at, bt, false), 1e-5);
        Operand shared = view(random(DType.F32, 4, 5), new int[] {2, 4, 5}, new long[] {0, 5, 1}, 0);
        check(cpu, DType.F32, new int[] {2, 3, 5}, out -> new Kernel.MatMul(out, a, shared, false), 1e-5);
        Operand odd = view(random(DType.F32, 4, 4, 6), new int[] {2, 3, 4}, new long[] {48, 2, 12}, 1); // neither layout
        check(cpu, DType.F32, new int[] {2, 3, 5}, out -> new Kernel.MatMul(out, odd, b, false), 1e-5);
        // accumulate: both outputs start from the same values
        Operand expected = random(DType.F32, 2, 3, 5);
        Operand actual = contiguous(DType.F32, 2, 3, 5);
        HostStorage.of(actual.storage()).segment().copyFrom(HostStorage.of(expected.storage()).segment());
        reference.execute(new Kernel.MatMul(expected, a, b, true));
        cpu.execute(new Kernel.MatMul(actual, a, b, true));
        cpu.sync();
        for (int i = 0; i < 30; i++) assertEquals(get(expected, i), get(actual, i), 1e-5);
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void indexSelectAndIndexAdd(boolean lazy) {
        CpuBackend cpu = backend(lazy);
        Operand table = random(DType.F32, 5, 3);
        for (DType it : List.of(DType.I32, DType.I64)) {
            Operand idx = random(it, 7); // values 0..4, repeats included
            check(cpu, DType.F32, new int[] {7, 3}, out -> new Kernel.IndexSelect(out, table, idx, 0), 0);
            Operand t2 = random(DType.F32, 3, 5);
            check(cpu, DType.F32, new int[] {3, 7}, out -> new Kernel.IndexSelect(out, t2, idx, 1), 0);
            Operand src = random(DType.F32, 7, 3);
            Operand expected = random(DType.F32, 5, 3);
            Operand actual = contiguous(DType.F32, 5, 3);
            HostStorage.of(actual.storage()).segment().copyFrom(HostStorage.of(expected.storage()).segment());
            reference.execute(new Kernel.IndexAdd(expected, idx, src, 0));
            cpu.execute(new Kernel.IndexAdd(actual, idx, src, 0));
            cpu.sync();
            for (int i = 0; i < 15; i++) assertEquals(get(expected, i), get(actual, i), 1e-6);
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void layerNormAndItsGradientRunNativelyOnRowsAtAnyDistance(boolean lazy) {
        CpuBackend cpu = backend(lazy);
        long before = cpu.counters().get("fallbacks");
        for (int d : new int[] {1, 3, 8, 129}) layerNormAgainstReference(cpu, 5, d, true);
        layerNormAgainstReference(cpu, 1, 19, true);
        layerNormAgainstReference(cpu, 4, 17, false);
        assertEquals(before, cpu.counters().get("fallbacks"), "no layer norm ran on the reference");
    }

    /**
     * LayerNorm then LayerNormGrad of an (n, d) slice of a wider matrix on the reference and on
     * {@code cpu}, every output compared; the gradients' outputs start as noise (they are written
     * whole, not added to).
     */
    private void layerNormAgainstReference(Backend cpu, int n, int d, boolean affine) {
        Operand x = view(random(DType.F32, n, d + 3), new int[] {n, d}, new long[] {d + 3, 1}, 2);
        Operand w = affine ? random(DType.F32, d) : null, b = affine ? random(DType.F32, d) : null;
        Operand dy = random(DType.F32, n, d);
        Backend[] backends = {reference, cpu};
        Operand[][] results = new Operand[2][];
        for (int k = 0; k < 2; k++) {
            Operand out = random(DType.F32, n, d), mean = random(DType.F32, n), rstd = random(DType.F32, n), dx = random(DType.F32, n, d);
            Operand dw = affine ? random(DType.F32, d) : null, db = affine ? random(DType.F32, d) : null;
            backends[k].execute(new Kernel.LayerNorm(out, mean, rstd, x, w, b, 1e-5));
            backends[k].execute(new Kernel.LayerNormGrad(dx, dw, db, dy, x, mean, rstd, w));
            backends[k].sync();
            results[k] = new Operand[] {out, mean, rstd, dx, dw, db};
        }
        String[] names = {"out", "mean", "rstd", "dx", "dweight", "dbias"};
        for (int r = 0; r < names.length; r++) {
            if (results[0][r] == null) continue;
            for (long i = 0; i < results[0][r].elements(); i++) {
                double e = get(results[0][r], i), a = get(results[1][r], i);
                assertEquals(e, a, 1e-4 * Math.max(1, Math.abs(e)), "layer norm (" + n + ", " + d + ") " + names[r] + " element " + i);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void batchNormAndItsGradientRunNatively(boolean lazy) {
        CpuBackend cpu = backend(lazy);
        long before = cpu.counters().get("fallbacks");
        batchNormAgainstReference(cpu, new int[] {4, 3, 17}, true);
        batchNormAgainstReference(cpu, new int[] {5, 2, 1}, true);
        batchNormAgainstReference(cpu, new int[] {3, 4, 64}, false);
        assertEquals(before, cpu.counters().get("fallbacks"), "no batch norm ran on the reference");
    }

    /**
     * BatchNorm then BatchNormGrad of an (n, c, s) input on the reference and on {@code cpu}, every
     * output compared; the outputs start as noise (the gradients are written whole, not added to).
     */
    private void batchNormAgainstReference(Backend cpu, int[] in, boolean affine) {
        int c = in[1];
        Operand x = random(DType.F32, in), dy = random(DType.F32, in);
        Operand w = affine ? random(DType.F32, c) : null, b = affine ? random(DType.F32, c) : null;
        Backend[] backends = {reference, cpu};
        Operand[][] results = new Operand[2][];
        for (int k = 0; k < 2; k++) {
            Operand out = random(DType.F32, in), mean = random(DType.F32, c), var = random(DType.F32, c), dx = random(DType.F32, in);
            Operand dw = affine ? random(DType.F32, c) : null, db = affine ? random(DType.F32, c) : null;
            backends[k].execute(new Kernel.BatchNorm(out, mean, var, x, w, b, 1e-5));
            backends[k].execute(new Kernel.BatchNormGrad(dx, dw, db, dy, x, mean, var, w, 1e-5));
            backends[k].sync();
            results[k] = new Operand[] {out, mean, var, dx, dw, db};
        }
        String[] names = {"out", "mean", "var", "dx", "dweight", "dbias"};
        for (int r = 0; r < names.length; r++) {
            if (results[0][r] == null) continue;
            for (long i = 0; i < results[0][r].elements(); i++) {
                double e = get(results[0][r], i), a = get(results[1][r], i);
                assertEquals(e, a, 1e-4 * Math.max(1, Math.abs(e)), "batch norm " + java.util.Arrays.toString(in) + " " + names[r] + " element " + i);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void maxPoolAndItsGradientRunNatively(boolean lazy) {
        CpuBackend cpu = backend(lazy);
        long before = cpu.counters().get("fallbacks");
        maxPoolAgainstReference(cpu, new int[] {2, 3, 8, 8}, 2, 2, 2, 2, 0, 0, 1, 1, false);
        maxPoolAgainstReference(cpu, new int[] {1, 2, 9, 11}, 3, 3, 2, 2, 1, 1, 1, 1, false);
        maxPoolAgainstReference(cpu, new int[] {2, 2, 7, 10}, 3, 2, 1, 3, 1, 1, 2, 3, false);
        maxPoolAgainstReference(cpu, new int[] {1, 3, 5, 6}, 3, 3, 1, 1, 1, 1, 1, 1, true);
        maxPoolAgainstReference(cpu, new int[] {1, 40, 2, 2}, 2, 2, 2, 2, 0, 0, 1, 1, true); // planes with and without NaN
        maxPoolAgainstReference(cpu, new int[] {2, 3, 5, 7}, 2, 2, 1, 2, 0, 0, 1, 1, true);
        assertEquals(before, cpu.counters().get("fallbacks"), "no max pool ran on the reference");
    }

    /**
     * MaxPool2d then MaxPool2dGrad on the reference and on {@code cpu}, the values, indices and the
     * input's gradient compared exactly (each is a pick or a sum in a fixed order); the outputs start
     * as noise, as the gradient is written whole. With {@code ties}, the input holds few distinct
     * values, NaN and -inf.
     */
    private void maxPoolAgainstReference(Backend cpu, int[] in, int kh, int kw, int sh, int sw, int ph, int pw, int dh, int dw,
            boolean ties) {
        Operand x = random(DType.F32, in);
        if (ties) {
            float[] values = {1, 2, 2, Float.NaN, Float.NEGATIVE_INFINITY};
            for (long i = 0; i < x.elements(); i++) {
                HostStorage.of(x.storage()).segment().setAtIndex(ValueLayout.JAVA_FLOAT, i, values[rnd.nextInt(values.length)]);
            }
        }
        int oh = (in[2] + 2 * ph - dh * (kh - 1) - 1) / sh + 1, ow = (in[3] + 2 * pw - dw * (kw - 1) - 1) / sw + 1;
        Operand dy = random(DType.F32, in[0], in[1], oh, ow);
        Backend[] backends = {reference, cpu};
        Operand[][] results = new Operand[2][];
        for (int k = 0; k < 2; k++) {
            Operand out = random(DType.F32, in[0], in[1], oh, ow), indices = random(DType.I64, in[0], in[1], oh, ow);
            Operand dx = random(DType.F32, in);
            backends[k].execute(new Kernel.MaxPool2d(out, indices, x, kh, kw, sh, sw, ph, pw, dh, dw));
            backends[k].execute(new Kernel.MaxPool2dGrad(dx, dy, indices));
            backends[k].sync();
            results[k] = new Operand[] {out, indices, dx};
        }
        String[] names = {"out", "indices", "dx"};
        for (int r = 0; r < names.length; r++) {
            for (long i = 0; i < results[0][r].elements(); i++) {
                double e = get(results[0][r], i), a = get(results[1][r], i);
                String what = "max pool " + java.util.Arrays.toString(in) + " " + names[r] + " element " + i;
                if (Double.isNaN(e)) assertTrue(Double.isNaN(a), what + ": expected NaN, got " + a);
                else assertEquals(e, a, 0, what);
            }
        }
    }

    @Test
    void aLongRecordingRunsInFewCrossings() {
        CpuBackend cpu = new CpuBackend(true, 100);
        Operand a = random(DType.F32, 16), b = random(DType.F32, 16);
        Operand acc = contiguous(DType.F32, 16);
        Operand expected = contiguous(DType.F32, 16);
        cpu.execute(new Kernel.Fill(acc, 0));
        reference.execute(new Kernel.Fill(expected, 0));
        long crossings = cpu.counters().get("crossings");
        for (int i = 0; i < 1000; i++) {
            Operand x = i % 2 == 0 ? a : b;
            cpu.execute(new Kernel.Binary(BinaryOp.ADD, acc, acc, x));
            reference.execute(new Kernel.Binary(BinaryOp.ADD, expected, expected, x));
        }
        cpu.sync();
        assertEquals(crossings + 11, cpu.counters().get("crossings"), "1001 kernels, 100 per crossing");
        for (int i = 0; i < 16; i++) assertEquals(get(expected, i), get(acc, i), 1e-3);
    }

    @Test
    void largeKernelsSplitAcrossThreadsGiveTheSameResults() {
        CpuBackend cpu = backend(true);
        // at least two grains of work (PMX_GRAIN_* in pmx_tensor.h) each, so every kernel here splits across both threads
        Operand x = random(DType.F32, 512, 520), y = random(DType.F32, 512, 520);
        Operand row = view(random(DType.F32, 520), new int[] {512, 520}, new long[] {0, 1}, 0);
        Operand xt = view(x, new int[] {520, 512}, new long[] {1, 520}, 0);
        Operand idx = random(DType.I64, 600);
        ThreadBudget.withThreads(2, () -> {
            assertEquals(2, ThreadBudget.openMpTeamSize());
            check(cpu, DType.F32, new int[] {512, 520}, out -> new Kernel.Binary(BinaryOp.ADD, out, x, row), 1e-6);
            check(cpu, DType.F32, new int[] {512, 520}, out -> new Kernel.Unary(UnaryOp.TANH, out, x), 1e-5);
            check(cpu, DType.F32, new int[] {520, 512}, out -> new Kernel.Unary(UnaryOp.COPY, out, xt), 0);
            check(cpu, DType.F32, new int[] {1, 520}, out -> new Kernel.Reduce(ReduceOp.SUM, out, x, 0), 1e-4);
            check(cpu, DType.I64, new int[] {512, 1}, out -> new Kernel.Reduce(ReduceOp.ARGMAX, out, y, 1), 0);
            check(cpu, DType.F32, new int[] {600, 520}, out -> new Kernel.IndexSelect(out, x, idx, 0), 0);
            Operand a = view(x, new int[] {1, 256, 520}, new long[] {0, 520, 1}, 0);
            Operand b = view(y, new int[] {1, 520, 256}, new long[] {0, 1, 520}, 0);
            check(cpu, DType.F32, new int[] {1, 256, 256}, out -> new Kernel.MatMul(out, a, b, false), 1e-4);
            Operand batched = view(x, new int[] {4, 64, 520}, new long[] {64 * 520, 520, 1}, 0);
            Operand shared = view(y, new int[] {4, 520, 256}, new long[] {0, 1, 520}, 0);
            check(cpu, DType.F32, new int[] {4, 64, 256}, out -> new Kernel.MatMul(out, batched, shared, false), 1e-4);
            Operand thin = random(DType.F32, 1, 700, 3);
            Operand wide = view(random(DType.F32, 520, 3), new int[] {1, 3, 520}, new long[] {0, 1, 3}, 0);
            check(cpu, DType.F32, new int[] {1, 700, 520}, out -> new Kernel.MatMul(out, thin, wide, false), 1e-5);
            Operand logits = random(DType.F32, 5000, 8), labels = random(DType.I64, 5000), loss = contiguous(DType.F32);
            check(cpu, DType.F32, new int[] {}, out -> new Kernel.CrossEntropy(out, null, logits, labels), 1e-5);
            check(cpu, DType.F32, new int[] {5000, 8}, out -> new Kernel.CrossEntropy(loss, out, logits, labels), 1e-5);
            Operand grad = random(DType.F32, 256, 520);
            Operand[] start = {random(DType.F32, 256, 520), random(DType.F32, 256, 520), absOf(random(DType.F32, 256, 520))};
            Operand[][] state = new Operand[2][3];
            for (int k = 0; k < 2; k++) {
                for (int j = 0; j < 3; j++) {
                    state[k][j] = contiguous(DType.F32, 256, 520);
                    HostStorage.of(state[k][j].storage()).segment().copyFrom(HostStorage.of(start[j].storage()).segment());
                }
            }
            reference.execute(new Kernel.AdamStep(state[0][0], grad, state[0][1], state[0][2], 0.01, 0.9, 0.999, 1e-8, 0.1, true, 3));
            cpu.execute(new Kernel.AdamStep(state[1][0], grad, state[1][1], state[1][2], 0.01, 0.9, 0.999, 1e-8, 0.1, true, 3));
            cpu.sync();
            for (int j = 0; j < 3; j++) {
                for (int i = 0; i < 256 * 520; i++) assertEquals(get(state[0][j], i), get(state[1][j], i), 1e-5, "adam operand " + j);
            }
            layerNormAgainstReference(cpu, 600, 256, true); // rows, then the weight's and bias's columns, split
            maxPoolAgainstReference(cpu, new int[] {16, 16, 32, 32}, 2, 2, 2, 2, 0, 0, 1, 1, false); // planes split
            batchNormAgainstReference(cpu, new int[] {32, 16, 256}, true); // channels split
            Operand src = random(DType.F32, 600, 520);
            Operand expected = random(DType.F32, 256, 520);
            Operand actual = contiguous(DType.F32, 256, 520);
            HostStorage.of(actual.storage()).segment().copyFrom(HostStorage.of(expected.storage()).segment());
            reference.execute(new Kernel.IndexAdd(expected, idx, src, 0));
            cpu.execute(new Kernel.IndexAdd(actual, idx, src, 0));
            cpu.sync();
            for (int i = 0; i < 256 * 520; i++) assertEquals(get(expected, i), get(actual, i), 1e-5);
        });
        assertEquals(ThreadBudget.threads(), ThreadBudget.openMpTeamSize(), "the budget is back");
    }

    @Test
    void theThreadBudgetIsASettingWithASmallDefault() {
        assertEquals(1, ThreadBudget.resolve(null, 2));
        assertEquals(4, ThreadBudget.resolve(null, 8));
        assertEquals(1, ThreadBudget.resolve("", 1));
        assertEquals(3, ThreadBudget.resolve(" 3 ", 2));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ThreadBudget.resolve("two", 2));
        assertTrue(e.getMessage().contains("panamax.threads='two': expected a whole number of threads from 1 to 8"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ThreadBudget.resolve("0", 2));
        assertEquals(ThreadBudget.threads(), ThreadBudget.openMpTeamSize(), "OpenMP regions use the budget");
    }
}
