package dev.panamax.cli;

import java.util.List;

/**
 * What {@link OpenClProbe} found: no ICD loader, a loader that lists no platform, or the platforms
 * and their devices.
 */
sealed interface OpenClReport {
    /** The loader library could not be opened. */
    record NoLoader(String library, String reason) implements OpenClReport {}

    /** The loader is there but lists no platform ({@code status} is what clGetPlatformIDs returned). */
    record NoPlatform(String library, int status) implements OpenClReport {}

    /** One or more platforms. */
    record Found(String library, List<Platform> platforms) implements OpenClReport {
        public Found {
            platforms = List.copyOf(platforms);
        }
    }

    /** A platform; {@code problem} is empty unless its devices could not be listed. */
    record Platform(String name, String vendor, String version, List<Device> devices, String problem) {
        public Platform {
            devices = List.copyOf(devices);
        }
    }

    /** A device: {@code type} is the cl_device_type bit set, {@code globalMemBytes} CL_DEVICE_GLOBAL_MEM_SIZE. */
    record Device(String name, String vendor, String version, long type, int computeUnits, long globalMemBytes) {
        /** "cpu", "gpu", "accelerator", "custom", or several joined with '+'. */
        String typeName() {
            StringBuilder b = new StringBuilder();
            String[] names = {"default", "cpu", "gpu", "accelerator", "custom"};
            for (int bit = 1; bit < names.length; bit++) {
                if ((type & (1L << bit)) != 0) b.append(b.isEmpty() ? "" : "+").append(names[bit]);
            }
            return b.isEmpty() ? "type=0x" + Long.toHexString(type) : b.toString();
        }
    }
}
