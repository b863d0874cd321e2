package dev.panamax.tensor.opencl;

import dev.panamax.compute.ComputeDevice;
import dev.panamax.core.Settings;

import java.util.List;

/**
 * Which OpenCL device tensors use: {@code panamax.tensor.device} names it by index among the OpenCL devices
 * ({@code 1}) or by a case-insensitive substring of its name ({@code H200}, {@code pthread}); unset,
 * the first GPU, else the first device.
 *
 * @param device the device chosen
 * @param index  its index among the OpenCL devices
 */
record DeviceChoice(ComputeDevice device, int index) {
    static final String PROPERTY = OpenClTensorSettings.DEVICE.name();

    /** Every OpenCL device the compute API finds, in its order. */
    static List<ComputeDevice> openClDevices() {
        return ComputeDevice.all().stream().filter(d -> d.info().backend().equalsIgnoreCase("opencl")).toList();
    }

    /**
     * The device the setting asks for.
     *
     * @throws IllegalStateException when there is no OpenCL device, or none matches the setting
     *                               (the message lists the devices)
     */
    static DeviceChoice fromSettings() {
        List<ComputeDevice> devices = openClDevices();
        if (devices.isEmpty()) {
            throw new IllegalStateException("no OpenCL device found (install a driver: PoCL for the CPU, "
                    + "sudo apt-get install -y pocl-opencl-icd, or your GPU vendor's OpenCL driver)");
        }
        String wanted = OpenClTensorSettings.DEVICE.value();
        if (wanted == null || wanted.isBlank()) {
            for (int i = 0; i < devices.size(); i++) if (isGpu(devices.get(i))) return new DeviceChoice(devices.get(i), i);
            return new DeviceChoice(devices.getFirst(), 0);
        }
        String w = wanted.strip();
        if (w.chars().allMatch(Character::isDigit)) {
            int i;
            try {
                i = Integer.parseInt(w);
            } catch (NumberFormatException e) {
                i = -1;
            }
            if (i >= 0 && i < devices.size()) return new DeviceChoice(devices.get(i), i);
        } else {
            for (int i = 0; i < devices.size(); i++) {
                if (devices.get(i).info().name().toLowerCase(java.util.Locale.ROOT).contains(w.toLowerCase(java.util.Locale.ROOT))) {
                    return new DeviceChoice(devices.get(i), i);
                }
            }
        }
        throw Settings.bad(PROPERTY, wanted, "an index or a part of the name of an OpenCL device: " + describe(devices));
    }

    private static boolean isGpu(ComputeDevice d) {
        String n = (d.info().name() + " " + d.info().vendor()).toLowerCase(java.util.Locale.ROOT);
        return !n.contains("pthread") && !n.contains("cpu") && !n.contains("pocl");
    }

    /** {@code 0: pthread-AMD EPYC (The pocl project), 1: ...}. */
    static String describe(List<ComputeDevice> devices) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < devices.size(); i++) {
            if (i > 0) sb.append(", ");
            sb.append(i).append(": ").append(devices.get(i).info().name()).append(" (").append(devices.get(i).info().vendor()).append(')');
        }
        return sb.toString();
    }
}
