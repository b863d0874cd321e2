package dev.panamax.bench.memory;

import dev.panamax.core.memory.NativeBuffer;
import org.bytedeco.javacpp.BytePointer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The churn workload, run in a child JVM by {@link ChurnMeasurement}: allocate {@code totalMiB} as
 * {@code eachMiB} buffers, fill each once (its pages become resident) and drop it at once without
 * freeing it, so only the runtime's GC integration can give the memory back. Prints one line:
 * {@code result completed=1 seconds=2.345 peakRssKiB=987654 error=}.
 *
 * <p>Usage: {@code ChurnChild panamax|javacpp totalMiB eachMiB}
 */
public final class ChurnChild {
    private ChurnChild() {}

    public static void main(String[] args) throws IOException {
        String mode = args[0];
        long total = Long.parseLong(args[1]) << 20;
        long each = Long.parseLong(args[2]) << 20;
        int completed = 1;
        String error = "";
        long start = System.nanoTime();
        try {
            for (long done = 0; done < total; done += each) {
                switch (mode) {
                    case "panamax" -> NativeBuffer.allocateUninitialized(each).segment().fill((byte) 1);
                    case "javacpp" -> new BytePointer(each).fill(1);
                    default -> throw new IllegalArgumentException("unknown mode: mode=" + mode + " expected=panamax|javacpp");
                }
            }
        } catch (OutOfMemoryError e) {
            completed = 0;
            error = String.valueOf(e.getMessage()).replace('\n', ' ');
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        System.out.printf(Locale.ROOT, "result completed=%d seconds=%.3f peakRssKiB=%d error=%s%n",
                completed, seconds, peakRssKiB(), error);
    }

    /** VmHWM: the most resident memory this process ever had. */
    static long peakRssKiB() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("VmHWM:")) return Long.parseLong(line.replaceAll("[^0-9]", ""));
        }
        return -1;
    }
}
