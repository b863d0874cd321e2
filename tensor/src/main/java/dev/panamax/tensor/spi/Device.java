package dev.panamax.tensor.spi;

import java.util.Objects;

/**
 * Where a tensor's elements live: host memory ({@link #HOST}, the {@code cpu} and {@code reference}
 * backends) or one device of a compute API ({@code opencl:0 (NVIDIA H200)}). An op whose operands
 * live on different backends is refused with both backends and devices named; {@code Tensor.to}
 * moves a tensor.
 *
 * @param api   what drives the memory: {@code host}, or a compute API such as {@code opencl}
 * @param index the device's index among that API's devices (0 for host memory)
 * @param name  the device's name as its driver reports it
 */
public record Device(String api, int index, String name) {
    /** Native host memory, which Java reads directly once the backend synced. */
    public static final Device HOST = new Device("host", 0, "host memory");

    public Device {
        Objects.requireNonNull(api, "api");
        Objects.requireNonNull(name, "name");
        if (index < 0) throw new IllegalArgumentException("negative device index: " + index);
    }

    /** Whether this is host memory. */
    public boolean isHost() {
        return api.equals("host");
    }

    @Override
    public String toString() {
        return isHost() ? name : api + ":" + index + " (" + name + ")";
    }
}
