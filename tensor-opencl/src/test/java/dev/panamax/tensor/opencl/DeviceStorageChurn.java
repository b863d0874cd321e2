package dev.panamax.tensor.opencl;

import dev.panamax.compute.DeviceMemoryStats;
import dev.panamax.tensor.Backends;
import dev.panamax.tensor.Tensor;
import dev.panamax.tensor.TensorScope;

/**
 * A child JVM's run (see {@link DeviceStorageChurnTest}): device storage freed by close, by scope
 * ends and by the GC alone, many times the device budget over, printing the device's memory
 * accounting after each phase. Arguments: rounds of the GC phase.
 */
public final class DeviceStorageChurn {
    private DeviceStorageChurn() {}

    public static void main(String[] args) {
        int rounds = Integer.parseInt(args[0]);
        OpenClTensorBackend b = (OpenClTensorBackend) Backends.use(OpenClTensorBackend.NAME);
        report("start", b);
        for (int i = 0; i < 200; i++) { // closed by the caller
            Tensor t = Tensor.ones(256 * 256);
            Tensor y = t.mul(2);
            Tensor z = y.add(1);
            Tensor sum = z.sum();
            if (sum.item() != 3.0 * 256 * 256) throw new AssertionError("wrong sum at " + i);
            for (Tensor each : new Tensor[] {sum, z, y, t}) each.close();
            t.close(); // a second close frees nothing twice
        }
        b.sync();
        report("closed", b);
        for (int i = 0; i < 200; i++) { // freed by their scope
            try (var _ = TensorScope.open()) {
                Tensor t = Tensor.ones(256 * 256).mul(3);
                if (t.sum().item() != 3.0 * 256 * 256) throw new AssertionError("wrong sum at " + i);
            }
        }
        report("scoped", b);
        System.out.println("leaks=" + dev.panamax.core.memory.LeakDetection.leaksReported()); // none: all freed by code
        double total = 0;
        for (int i = 0; i < rounds; i++) { // left to the GC: 1 MiB each, far past the budget
            Tensor t = Tensor.full(1, 512, 512).add(i % 7);
            if (i % 50 == 0) total += t.slice(0, 0, 1).sum().item();
        }
        b.sync();
        report("collected", b);
        System.out.println("done total=" + total);
    }

    private static void report(String phase, OpenClTensorBackend b) {
        DeviceMemoryStats s = b.computeDevice().memoryStats();
        System.out.println(phase + " live=" + s.liveBuffers() + " reserved=" + s.reservedBytes() + " limit=" + s.limitBytes());
    }
}
