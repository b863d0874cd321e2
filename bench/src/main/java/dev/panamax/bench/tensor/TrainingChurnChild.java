package dev.panamax.bench.tensor;

import dev.panamax.core.memory.MemoryStats;
import dev.panamax.core.memory.NativeMemory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The training churn, run in a child JVM by {@link TrainingChurn}: {@code steps} spiral training
 * steps (2->256->256->3, batch 256, Adam) with no {@code TensorScope} and no {@code close()}, so
 * every intermediate, gradient graph and loss is left to the GC. Prints progress lines and then one
 * result line: {@code result completed=1 seconds=12.3 peakRssKiB=234567 peakNativeKiB=... nativeLimitKiB=... error=}
 * (the native budget, {@code panamax.memory.limit}, bounds what the tensors hold at once).
 *
 * <p>Usage: {@code TrainingChurnChild STEPS}
 */
public final class TrainingChurnChild {
    private TrainingChurnChild() {}

    public static void main(String[] args) throws IOException {
        int steps = Integer.parseInt(args[0]);
        int completed = 1;
        String error = "";
        long start = System.nanoTime();
        try {
            MlpStep spiral = new MlpStep(256, 2, 256, 256, 3);
            for (int i = 1; i <= steps; i++) {
                spiral.unscopedStep();
                if (i % (steps / 10) == 0) System.out.println("progress " + i + "/" + steps);
            }
        } catch (OutOfMemoryError | RuntimeException e) {
            completed = 0;
            error = (e.getClass().getSimpleName() + ": " + e.getMessage()).replace('\n', ' ');
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        MemoryStats memory = NativeMemory.stats();
        System.out.printf(Locale.ROOT, "result completed=%d seconds=%.3f peakRssKiB=%d peakNativeKiB=%d nativeLimitKiB=%d error=%s%n",
                completed, seconds, peakRssKiB(), memory.peakBytes() >> 10, memory.limitBytes() >> 10, error);
    }

    /** VmHWM: the most resident memory this process ever had. */
    static long peakRssKiB() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("VmHWM:")) return Long.parseLong(line.replaceAll("[^0-9]", ""));
        }
        return -1;
    }
}
