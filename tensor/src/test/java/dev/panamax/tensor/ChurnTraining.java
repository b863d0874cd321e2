package dev.panamax.tensor;

import dev.panamax.core.memory.NativeMemory;
import dev.panamax.tensor.nn.GELU;
import dev.panamax.tensor.nn.Linear;
import dev.panamax.tensor.nn.Loss;
import dev.panamax.tensor.nn.Sequential;
import dev.panamax.tensor.optim.Adam;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;

/**
 * A child JVM's main: trains a spiral MLP for {@code args[0]} steps with no scope and no close
 * (every tensor, graph and gradient is dropped and left to the GC), then prints one line:
 * {@code backend=B steps=N loss=L peakRssKiB=K releasedByGc=G nativePeakBytes=P waits=W limit=L}.
 */
public final class ChurnTraining {
    private ChurnTraining() {}

    public static void main(String[] args) throws Exception {
        int steps = Integer.parseInt(args[0]);
        var spirals = new Spirals(128, 3, 3);
        Tensor x = Tensor.of(spirals.x, 384, 2);
        Tensor y = Tensor.of(spirals.y);
        var rng = new SplittableRandom(11);
        var model = new Sequential(new Linear(2, 16, rng), new GELU(), new Linear(16, 3, rng));
        var adam = new Adam(model.parameters(), 0.01);
        double loss = Double.NaN;
        for (int step = 0; step < steps; step++) {
            int start = (step * 32) % 384;
            Tensor rows = Tensor.arange(DType.I64, start, start + 32, 1);
            Tensor l = Loss.crossEntropy(model.forward(x.indexSelect(0, rows)), y.indexSelect(0, rows));
            adam.zeroGrad();
            l.backward();
            adam.step();
            if (step % 1000 == 999 || step == steps - 1) {
                loss = l.item();
                System.err.printf("step %d loss %.4f%n", step + 1, loss);
            }
        }
        long peakKiB = 0;
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("VmHWM:")) peakKiB = Long.parseLong(line.replaceAll("[^0-9]", ""));
        }
        var stats = NativeMemory.stats();
        System.out.printf("backend=%s steps=%d loss=%.4f peakRssKiB=%d releasedByGc=%d nativePeakBytes=%d waits=%d limit=%d%n", Backends.current().name(), steps, loss, peakKiB,
                stats.releasedByGc(), stats.peakBytes(), stats.waits(), stats.limitBytes());
    }
}
