package dev.panamax.bench.compute;

import dev.panamax.compute.Buffer;
import dev.panamax.compute.CommandBuffer;
import dev.panamax.compute.CommandBufferStatus;
import dev.panamax.compute.CommandQueue;
import dev.panamax.compute.ComputeDevice;
import dev.panamax.compute.ComputeEncoder;
import dev.panamax.compute.ComputePipeline;
import dev.panamax.compute.DeviceMemoryStats;
import dev.panamax.compute.Library;
import dev.panamax.compute.Size;
import dev.panamax.compute.StorageMode;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The churn child JVM ({@link ComputeFigures} starts it with {@code -Xmx256m} and a 1 GiB device
 * budget): {@code TOTAL} bytes of {@code SIZE}-byte PRIVATE buffers, each filled once by a kernel
 * and dropped unclosed. Prints {@code completed=1 seconds=.. peakRssMiB=.. ...} when done.
 */
public final class ComputeChurnMain {
    public static void main(String[] args) throws Exception {
        long total = Long.parseLong(args[0]);
        long size = Long.parseLong(args[1]);
        long start = System.nanoTime();
        ComputeDevice device = ComputeDevice.systemDefault();
        try (Library library = device.newLibrary(InferenceKernels.SOURCE);
             ComputePipeline fill = library.newPipeline("fill");
             CommandQueue queue = device.newCommandQueue(2)) {
            long floats = size / Float.BYTES;
            long made = 0;
            int n = 0;
            while (made < total) {
                Buffer b = device.newBuffer(size, StorageMode.PRIVATE);
                CommandBuffer cb = queue.commandBuffer();
                try (ComputeEncoder e = cb.computeEncoder()) {
                    e.setPipeline(fill).setBuffer(0, b).setFloat(1, n).dispatchThreads(Size.of(floats), Size.of(256));
                }
                cb.commit();
                if (cb.waitUntilCompleted() != CommandBufferStatus.COMPLETED) throw new IllegalStateException("fill failed: " + cb.error());
                made += size;
                if (++n % 128 == 0) System.err.printf("churn: %d GiB%n", made >> 30);
            }
        }
        DeviceMemoryStats s = device.memoryStats();
        System.out.printf("completed=1 seconds=%.1f peakRssMiB=%d budgetPeakMiB=%d waits=%d poolHits=%d allocations=%d%n",
                (System.nanoTime() - start) / 1e9, peakRssKib() / 1024, s.peakBytes() >> 20, s.waits(), s.pool().hits(), s.pool().allocations());
    }

    /** VmHWM: the process's peak resident set. */
    static long peakRssKib() throws Exception {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("VmHWM:")) return Long.parseLong(line.replaceAll("[^0-9]", ""));
        }
        return -1;
    }
}
