package dev.panamax.opencl.compute;

import dev.panamax.core.Setting;
import dev.panamax.core.SettingDeclarations;

import java.util.List;

/** The settings of {@code panamax-opencl}: the memory budget of an OpenCL compute device. */
public final class OpenClSettings implements SettingDeclarations {
    /** The memory budget of each OpenCL compute device. */
    public static final Setting<String> MEMORY_LIMIT = Setting.text("panamax.compute.memoryLimit",
            "a positive byte count with an optional k/m/g/t suffix (e.g. 512m, 4g)", "the device's global memory",
            "Device memory an OpenCL compute device lets its buffers hold before allocations fail.");

    /** For {@link java.util.ServiceLoader}. */
    public OpenClSettings() {}

    @Override
    public List<Setting<?>> settings() {
        return List.of(MEMORY_LIMIT);
    }
}
