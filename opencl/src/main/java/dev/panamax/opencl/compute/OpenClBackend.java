package dev.panamax.opencl.compute;

import dev.panamax.compute.ComputeDevice;
import dev.panamax.compute.spi.ComputeBackend;
import dev.panamax.opencl.OpenCl;
import dev.panamax.opencl.binding.CL;
import dev.panamax.opencl.binding.ClDeviceId;
import dev.panamax.opencl.binding.ClPlatformId;

import java.util.ArrayList;
import java.util.List;

/**
 * The OpenCL backend of the compute API: every device of every platform the ICD loader finds
 * (PoCL's CPU device on a machine without a GPU). Found by ServiceLoader.
 */
public final class OpenClBackend implements ComputeBackend {
    /** For {@link java.util.ServiceLoader}. */
    public OpenClBackend() {}

    private static final class Found {
        static final List<ComputeDevice> DEVICES;
        static final String WHY;

        static {
            List<ComputeDevice> out = new ArrayList<>();
            WHY = find(out);
            DEVICES = List.copyOf(out);
        }

        /** Adds every device to {@code out}; returns why there are none, or "". */
        private static String find(List<ComputeDevice> out) {
            try {
                OpenClDevice.memoryLimit(1); // a bad setting is named as such, not taken for OpenCL missing
            } catch (IllegalArgumentException badSetting) {
                return "a setting is wrong (OpenCL itself was not looked at): " + badSetting.getMessage();
            }
            List<ClPlatformId> platforms;
            try {
                platforms = OpenCl.platforms();
            } catch (RuntimeException | LinkageError e) {
                return "OpenCL is not available: " + e.getMessage() + " (./panamax installs ocl-icd-libopencl1 and pocl-opencl-icd)";
            }
            String failed = "";
            for (ClPlatformId p : platforms) {
                String platform = "?";
                try {
                    platform = OpenCl.platformInfo(p, CL.CL_PLATFORM_NAME);
                    for (ClDeviceId d : OpenCl.devices(p, CL.CL_DEVICE_TYPE_ALL)) out.add(new OpenClDevice(d.handle(), platform));
                } catch (RuntimeException e) {
                    failed += "platform '" + platform + "' could not be opened: " + e.getMessage() + "; ";
                }
            }
            if (!out.isEmpty()) return "";
            return failed.isEmpty() ? "the OpenCL loader found no device (./panamax installs PoCL: pocl-opencl-icd)" : failed.strip();
        }
    }

    @Override
    public String name() {
        return "opencl";
    }

    @Override
    public List<ComputeDevice> devices() {
        return Found.DEVICES;
    }

    @Override
    public String unavailableReason() {
        return Found.WHY;
    }
}
