package dev.panamax.spark;

import dev.panamax.compute.ComputeDevice;
import dev.panamax.tensor.opencl.OpenClTensorBackend;
import dev.panamax.tensor.spi.Backend;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One opencl tensor backend per GPU address, for the life of the executor. Spark's GPU addresses
 * are the ordinals its discovery script reports ({@code nvidia-smi}'s 0, 1, ...); they are taken as
 * the index among the OpenCL devices that are GPUs, in the order the driver lists them.
 * Touched only when the opencl backend is present (an optional dependency).
 */
final class OpenClGpus {
    private static final ConcurrentHashMap<String, Backend> BY_ADDRESS = new ConcurrentHashMap<>();

    private OpenClGpus() {}

    static Backend backendFor(String address) {
        return BY_ADDRESS.computeIfAbsent(address, a -> {
            List<ComputeDevice> openCl = ComputeDevice.all().stream().filter(d -> d.info().backend().equalsIgnoreCase("opencl")).toList();
            List<String> names = new ArrayList<>();
            for (ComputeDevice d : openCl) names.add(d.info().name() + " " + d.info().vendor());
            int index = pick(names, a);
            return new OpenClTensorBackend(openCl.get(index), index);
        });
    }

    /**
     * The index, among OpenCL devices named {@code names} (name and vendor), of the GPU Spark calls
     * {@code address}: the address-th device that is not a CPU device.
     *
     * @throws IllegalStateException naming the address and the devices when there is no such GPU
     */
    static int pick(List<String> names, String address) {
        int wanted;
        try {
            wanted = Integer.parseInt(address.strip());
        } catch (NumberFormatException e) {
            throw new IllegalStateException("Spark GPU address='" + address + "' is not a number; expected a GPU ordinal such as 0");
        }
        int seen = 0;
        for (int i = 0; i < names.size(); i++) {
            if (isGpu(names.get(i)) && seen++ == wanted) return i;
        }
        throw new IllegalStateException("Spark assigned GPU address=" + address + ", but the OpenCL devices here have " + seen
                + " GPU(s): " + names + "; expected an OpenCL driver for every GPU Spark's discovery script reports");
    }

    private static boolean isGpu(String nameAndVendor) {
        String n = nameAndVendor.toLowerCase(Locale.ROOT);
        return !n.contains("pthread") && !n.contains("cpu") && !n.contains("pocl");
    }
}
