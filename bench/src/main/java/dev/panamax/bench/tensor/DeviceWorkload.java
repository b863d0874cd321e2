package dev.panamax.bench.tensor;

import dev.panamax.tensor.Backends;
import dev.panamax.tensor.Tensor;
import dev.panamax.tensor.TensorScope;
import dev.panamax.tensor.spi.Backend;

import java.util.SplittableRandom;

/**
 * One workload of {@link DeviceFigures}, run the same way on a Panamax backend and, through
 * {@code peers.py}, on PyTorch's device: a training step, an elementwise add measured as bandwidth, or
 * a matrix product measured in TFLOPS. Each round gives one value in {@link #unit()}.
 *
 * <pre>{@code
 * var add = new DeviceWorkload.Add(16L << 20, "16m", 4);
 * try (DeviceWorkload.Rounds r = add.prepare(Backends.get("opencl"))) { double gbps = r.measure(); }
 * }</pre>
 */
sealed interface DeviceWorkload permits DeviceWorkload.Step, DeviceWorkload.Add, DeviceWorkload.Matmul {
    /** The figure's name after its side's prefix: {@code spiral.step.ms}, {@code add16m.GBps}, {@code matmul1024.TFLOPS}. */
    String figure();

    /** The unit of one round's value. */
    String unit();

    /** The {@code peers.py} command that measures one round of this workload on the peer device. */
    String peerCommand();

    /** A short description for progress lines. */
    String describe();

    /** Makes the operands (or model) on {@code backend} and runs one warm-up round. */
    Rounds prepare(Backend backend);

    /** Rounds of a workload on one backend; {@link #close()} frees what {@link #prepare} made. */
    interface Rounds extends AutoCloseable {
        /** One timed round: the work, then a sync, so the time covers what the device did. */
        double measure();

        @Override
        void close();
    }

    /**
     * {@code steps} training steps of an MLP ({@code sizes}, batch {@code batch}, Adam), each in a
     * scope of its own with its loss read (one host round trip per step, as on the peer's side);
     * ms per step.
     */
    record Step(String kind, int batch, int[] sizes, int steps) implements DeviceWorkload {
        public Step {
            if (steps < 1) throw new IllegalArgumentException(kind + " step: steps=" + steps + ", expected at least 1");
            sizes = sizes.clone();
        }

        @Override
        public String figure() {
            return kind + ".step.ms";
        }

        @Override
        public String unit() {
            return "ms";
        }

        @Override
        public String peerCommand() {
            return "d" + kind + " " + steps;
        }

        @Override
        public String describe() {
            StringBuilder b = new StringBuilder(kind + " step (batch " + batch + ", ");
            for (int i = 0; i < sizes.length; i++) b.append(i == 0 ? "" : "-").append(sizes[i]);
            return b.append(", Adam; ").append(steps).append(" steps a round)").toString();
        }

        @Override
        public Rounds prepare(Backend backend) {
            MlpStep step;
            try (var _ = Backends.using(backend)) {
                step = new MlpStep(batch, sizes);
                step.step();
            }
            return new Rounds() {
                @Override
                public double measure() {
                    try (var _ = Backends.using(backend)) {
                        long t = System.nanoTime();
                        for (int i = 0; i < steps; i++) step.step();
                        return (System.nanoTime() - t) / 1e6 / steps;
                    }
                }

                @Override
                public void close() {
                    try (var _ = Backends.using(backend)) {
                        step.close();
                    }
                }
            };
        }
    }

    /**
     * {@code reps} adds of two f32 tensors of {@code elements} into a new result each, in one scope
     * (its end runs them and frees the results); GB/s, counting 12 bytes per element (two reads, one
     * write).
     */
    record Add(long elements, String label, int reps) implements DeviceWorkload {
        public Add {
            if (elements < 1 || reps < 1) {
                throw new IllegalArgumentException("add: elements=" + elements + " reps=" + reps + ", expected both at least 1");
            }
        }

        @Override
        public String figure() {
            return "add" + label + ".GBps";
        }

        @Override
        public String unit() {
            return "GB/s";
        }

        @Override
        public String peerCommand() {
            return "dadd " + elements + " " + reps + " " + label;
        }

        @Override
        public String describe() {
            return "add of " + elements + " floats (" + reps + " a round)";
        }

        @Override
        public Rounds prepare(Backend backend) {
            return new Operands(backend, new int[]{Math.toIntExact(elements)}, 12.0 * elements * reps / 1e9, reps, (a, b) -> a.add(b));
        }
    }

    /** {@code reps} f32 products of {@code n x n} matrices in one scope; TFLOPS ({@code 2 n^3} a product). */
    record Matmul(int n, int reps) implements DeviceWorkload {
        public Matmul {
            if (n < 1 || reps < 1) throw new IllegalArgumentException("matmul: n=" + n + " reps=" + reps + ", expected both at least 1");
        }

        @Override
        public String figure() {
            return "matmul" + n + ".TFLOPS";
        }

        @Override
        public String unit() {
            return "TFLOPS";
        }

        @Override
        public String peerCommand() {
            return "dmatmul " + n + " " + reps;
        }

        @Override
        public String describe() {
            return "matmul " + n + "x" + n + " f32 (" + reps + " a round)";
        }

        @Override
        public Rounds prepare(Backend backend) {
            return new Operands(backend, new int[]{n, n}, 2.0 * n * n * n * reps / 1e12, reps, (a, b) -> a.matmul(b));
        }
    }

    /** Two seeded random operands on a backend and an op repeated on them; work units per second. */
    final class Operands implements Rounds {
        private final Backend backend;
        private final Tensor a;
        private final Tensor b;
        private final double workPerRound;
        private final int reps;
        private final java.util.function.BinaryOperator<Tensor> op;

        Operands(Backend backend, int[] shape, double workPerRound, int reps, java.util.function.BinaryOperator<Tensor> op) {
            this.backend = backend;
            this.workPerRound = workPerRound;
            this.reps = reps;
            this.op = op;
            var rng = new SplittableRandom(2);
            try (var _ = Backends.using(backend)) {
                a = TensorScope.unscoped(() -> Tensor.uniform(rng, 0, 1, shape));
                b = TensorScope.unscoped(() -> Tensor.uniform(rng, 0, 1, shape));
            }
            measure(); // warm-up: kernels compiled, pools filled
        }

        @Override
        public double measure() {
            try (var _ = Backends.using(backend)) {
                backend.sync();
                long t = System.nanoTime();
                try (var _ = TensorScope.open()) {
                    for (int i = 0; i < reps; i++) op.apply(a, b);
                    backend.sync(); // the time covers what the device did (a scope's end only hands work over)
                }
                return workPerRound / ((System.nanoTime() - t) / 1e9);
            }
        }

        @Override
        public void close() {
            a.close();
            b.close();
        }
    }
}
