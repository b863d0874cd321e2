package dev.panamax.tensor.opencl;

import dev.panamax.core.Setting;
import dev.panamax.core.SettingDeclarations;
import dev.panamax.core.SettingType;

import java.util.List;

/** The settings of {@code panamax-tensor-opencl}: the device, CLBlast, and how often kernels are committed. */
public final class OpenClTensorSettings implements SettingDeclarations {
    /** Which OpenCL device tensors use. */
    public static final Setting<String> DEVICE = Setting.text("panamax.tensor.device",
            "an index among the OpenCL devices or a part of a device's name", "the first GPU, else the first device",
            "The OpenCL device the opencl tensor backend runs on (panamax info lists them by index).");

    /** Whether matrix products run on CLBlast when it is installed. */
    public static final Setting<Boolean> CLBLAST = Setting.of("panamax.tensor.opencl.clblast", SettingType.flag(), true,
            "Whether matrix products run on CLBlast when it is installed (else on the backend's own tiled kernel).");

    /** Kernels encoded before the open command buffer is committed. */
    public static final Setting<Integer> KERNELS_PER_COMMIT = Setting.of("panamax.tensor.opencl.kernelsPerCommit",
            SettingType.count(1, 1 << 20), OpenClTensorBackend.DEFAULT_KERNELS_PER_COMMIT,
            "Kernels encoded before the open command buffer is committed without a sync.");

    /** For {@link java.util.ServiceLoader}. */
    public OpenClTensorSettings() {}

    @Override
    public List<Setting<?>> settings() {
        return List.of(DEVICE, CLBLAST, KERNELS_PER_COMMIT);
    }
}
