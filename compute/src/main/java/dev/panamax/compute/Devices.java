package dev.panamax.compute;

import dev.panamax.compute.spi.ComputeBackend;

import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;

/** The backends found with ServiceLoader, loaded once. */
final class Devices {
    private static final class Loaded {
        static final List<ComputeBackend> BACKENDS = load();
    }

    private Devices() {}

    private static List<ComputeBackend> load() {
        List<ComputeBackend> list = new ArrayList<>();
        ServiceLoader.load(ComputeBackend.class, Devices.class.getClassLoader()).forEach(list::add);
        if (list.isEmpty()) {
            ServiceLoader.load(ComputeBackend.class).forEach(list::add);
        }
        return List.copyOf(list);
    }

    static List<ComputeBackend> backends() {
        return Loaded.BACKENDS;
    }

    static List<ComputeDevice> all() {
        List<ComputeDevice> out = new ArrayList<>();
        for (ComputeBackend b : backends()) out.addAll(b.devices());
        return List.copyOf(out);
    }

    static ComputeDevice systemDefault() {
        for (ComputeBackend b : backends()) {
            List<ComputeDevice> d = b.devices();
            if (!d.isEmpty()) return d.getFirst();
        }
        StringBuilder why = new StringBuilder("no compute device: ");
        if (backends().isEmpty()) {
            why.append("no backend found (add panamax-opencl to the class or module path)");
        } else {
            for (ComputeBackend b : backends()) {
                why.append(b.name()).append(": ").append(b.unavailableReason().isEmpty() ? "no devices" : b.unavailableReason()).append("; ");
            }
        }
        throw new IllegalStateException(why.toString().strip());
    }
}
