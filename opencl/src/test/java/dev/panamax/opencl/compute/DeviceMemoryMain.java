package dev.panamax.opencl.compute;

import dev.panamax.compute.Buffer;
import dev.panamax.compute.ComputeDevice;
import dev.panamax.compute.DeviceMemoryException;
import dev.panamax.compute.StorageMode;

import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

/**
 * Child JVM of {@link DeviceMemoryTest}, run with a small device budget:
 * {@code churn BYTES SIZE}: makes BYTES of SIZE-byte buffers, writes each, drops it unclosed;
 * {@code hold SIZE}: keeps SIZE-byte buffers until the budget refuses one, then prints the refusal.
 */
public final class DeviceMemoryMain {
    private DeviceMemoryMain() {}

    public static void main(String[] args) {
        ComputeDevice device = ComputeDevice.systemDefault();
        switch (args[0]) {
            case "churn" -> {
                long total = Long.parseLong(args[1]);
                long size = Long.parseLong(args[2]);
                for (long made = 0; made < total; made += size) {
                    Buffer b = device.newBuffer(size, StorageMode.SHARED);
                    b.contents().set(ValueLayout.JAVA_LONG, 0, made); // used once, then dropped unclosed
                }
                System.out.println("churned " + total + " peak=" + device.memoryStats().peakBytes()
                        + " limit=" + device.memoryStats().limitBytes() + " hits=" + device.memoryStats().pool().hits());
            }
            case "hold" -> {
                long size = Long.parseLong(args[1]);
                List<Buffer> held = new ArrayList<>();
                try {
                    while (true) held.add(device.newBuffer(size, StorageMode.PRIVATE));
                } catch (DeviceMemoryException e) {
                    System.out.println("held=" + held.size());
                    System.out.println(e.getMessage());
                }
                held.forEach(Buffer::close);
            }
            default -> throw new IllegalArgumentException(args[0]);
        }
    }
}
