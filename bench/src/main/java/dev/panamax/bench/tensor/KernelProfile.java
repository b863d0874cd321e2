package dev.panamax.bench.tensor;

import dev.panamax.tensor.Backends;
import dev.panamax.tensor.DType;
import dev.panamax.tensor.cpu.CpuBackend;
import dev.panamax.tensor.spi.Backend;
import dev.panamax.tensor.spi.Kernel;
import dev.panamax.tensor.spi.Operand;
import dev.panamax.tensor.spi.Storage;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Where a training step's time goes, kernel by kernel: the spiral step, the big step, the transformer
 * demo's step ({@code gpt}) and generation ({@code gptgen}) and the CNN demo's step ({@code cnn}) run on a
 * backend that hands each kernel to an eager {@code cpu} backend (one crossing per kernel) and times
 * it in the thread's CPU time, grouped by kernel kind, op and output shape. A diagnostic, not a
 * figure of the suite: the per-kernel crossing is included in every row.
 *
 * <pre>{@code
 * java -cp bench/target/panamax-bench.jar dev.panamax.bench.tensor.KernelProfile [spiral|big|gpt|gptgen|cnn] [steps]
 * }</pre>
 */
public final class KernelProfile {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private KernelProfile() {}

    /** Times every kernel it runs, by description. */
    private static final class Timing implements Backend {
        final CpuBackend cpu = new CpuBackend(false, 1);
        final Map<String, long[]> rows = new HashMap<>();
        boolean on;

        @Override
        public String name() {
            return "cpu";
        }

        @Override
        public Storage allocate(DType dtype, long length) {
            return cpu.allocate(dtype, length);
        }

        @Override
        public void execute(Kernel kernel) {
            if (!on) {
                cpu.execute(kernel);
                return;
            }
            long t = THREADS.getCurrentThreadCpuTime();
            cpu.execute(kernel);
            long dt = THREADS.getCurrentThreadCpuTime() - t;
            long[] row = rows.computeIfAbsent(describe(kernel), k -> new long[2]);
            row[0]++;
            row[1] += dt;
        }

        @Override
        public void sync() {
            cpu.sync();
        }
    }

    static String describe(Kernel k) {
        return switch (k) {
            case Kernel.Fill f -> "fill " + shape(f.out());
            case Kernel.Unary u -> "unary " + u.op() + " " + shape(u.out()) + (u.in().dtype() != u.out().dtype() ? " " + u.in().dtype() : "");
            case Kernel.Binary b -> "binary " + b.op() + " " + shape(b.out()) + " <- " + shape(b.a()) + "," + shape(b.b());
            case Kernel.BinaryScalar b -> "scalar " + b.op() + " " + shape(b.out());
            case Kernel.Where w -> "where " + shape(w.out());
            case Kernel.Reduce r -> "reduce " + r.op() + " " + shape(r.in()) + " axis " + r.axis();
            case Kernel.MatMul m -> "matmul " + shape(m.a()) + "x" + shape(m.b()) + (m.accumulate() ? " +=" : "");
            case Kernel.IndexSelect i -> "indexSelect " + shape(i.out());
            case Kernel.IndexAdd i -> "indexAdd " + shape(i.out());
            case Kernel.AdamStep a -> "adam " + shape(a.param());
            case Kernel.CrossEntropy c -> "crossEntropy " + shape(c.logits()) + (c.grad() == null ? "" : " with gradient");
            case Kernel.Softmax s -> "softmax " + shape(s.in());
            case Kernel.SoftmaxGrad s -> "softmaxGrad " + shape(s.y());
            case Kernel.LayerNorm l -> "layerNorm " + shape(l.in());
            case Kernel.LayerNormGrad l -> "layerNormGrad " + shape(l.in());
            case Kernel.MaxPool2d m -> "maxPool2d " + shape(m.in()) + " kernel " + m.kernelH() + "x" + m.kernelW();
            case Kernel.MaxPool2dGrad m -> "maxPool2dGrad " + shape(m.dx());
            case Kernel.BatchNorm b -> "batchNorm " + shape(b.in());
            case Kernel.BatchNormGrad b -> "batchNormGrad " + shape(b.in());
        };
    }

    private static String shape(Operand o) {
        return Arrays.toString(o.shape()) + (o.isContiguous() ? "" : "s" + Arrays.toString(o.strides()));
    }

    /** Steps on a lazy cpu backend, for a sampling profiler: {@code KernelProfile spiral 20000 lazy}. */
    private static void lazy(String which, int steps) {
        try (var _ = Backends.using(new CpuBackend(true, 1024)); var step = workload(which)) {
            for (int i = 0; i < steps / 10; i++) step.step();
            long t = THREADS.getCurrentThreadCpuTime();
            for (int i = 0; i < steps; i++) step.step();
            System.out.printf("%s step: %.3f ms CPU per step (lazy)%n", which, (THREADS.getCurrentThreadCpuTime() - t) / 1e6 / steps);
        }
    }

    /** One step of the named workload: the spiral or big MLP step, the transformer demo's step, its KV-cache generation, or the CNN demo's step. */
    private interface Workload extends AutoCloseable {
        void step();

        @Override
        void close();
    }

    private static Workload workload(String which) {
        return switch (which) {
            case "big" -> wrap(new MlpStep(1024, 784, 1024, 1024, 10), MlpStep::step, MlpStep::close);
            case "gpt" -> wrap(new GptWorkload(ModelFigures.GPT_BATCH), GptWorkload::step, GptWorkload::close);
            case "gptgen" -> wrap(new GptWorkload(1), g -> g.generate(16), GptWorkload::close);
            case "cnn" -> wrap(new CnnStep(ModelFigures.CNN_BATCH), CnnStep::step, CnnStep::close);
            default -> wrap(new MlpStep(256, 2, 256, 256, 3), MlpStep::step, MlpStep::close);
        };
    }

    private static <T> Workload wrap(T t, java.util.function.Consumer<T> step, java.util.function.Consumer<T> close) {
        return new Workload() {
            @Override
            public void step() {
                step.accept(t);
            }

            @Override
            public void close() {
                close.accept(t);
            }
        };
    }

    public static void main(String[] args) {
        String which = args.length > 0 ? args[0] : "spiral";
        int steps = args.length > 1 ? Integer.parseInt(args[1]) : (which.equals("big") ? 10 : 200);
        if (args.length > 2 && args[2].equals("lazy")) {
            lazy(which, steps);
            return;
        }
        Timing timing = new Timing();
        try (var _ = Backends.using(timing); var step = workload(which)) {
            for (int i = 0; i < Math.max(3, steps / 10); i++) step.step();
            timing.on = true;
            long t = THREADS.getCurrentThreadCpuTime();
            for (int i = 0; i < steps; i++) step.step();
            double total = (THREADS.getCurrentThreadCpuTime() - t) / 1e6 / steps;
            timing.on = false;
            double kernels = 0;
            long count = 0;
            for (long[] r : timing.rows.values()) {
                kernels += r[1] / 1e6 / steps;
                count += r[0];
            }
            System.out.printf("%s step: %.3f ms CPU per step (one crossing per kernel), %d kernels per step taking %.3f ms%n",
                    which, total, count / steps, kernels);
            timing.rows.entrySet().stream().sorted((x, y) -> Long.compare(y.getValue()[1], x.getValue()[1])).forEach(e ->
                    System.out.printf("  %8.4f ms  %5.1f%%  x%-3d %s%n", e.getValue()[1] / 1e6 / steps,
                            100 * e.getValue()[1] / 1e6 / steps / total, e.getValue()[0] / steps, e.getKey()));
        }
    }
}
