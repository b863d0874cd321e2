package dev.panamax.cli;

import dev.panamax.core.Settings;
import dev.panamax.tensor.Backends;
import dev.panamax.tensor.spi.BackendProvider;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;

/**
 * A tensor backend as {@code panamax info} and {@code panamax demo} show it, found without making
 * it (nothing is allocated, no device is opened).
 *
 * <pre>{@code
 * TensorBackendStatus.describe(TensorBackendStatus.all())
 * // "cpu (default), reference, opencl (unavailable: no OpenCL device found ...)"
 * }</pre>
 *
 * @param name              the name {@code --backend} and {@code -Dpanamax.tensor.backend} take
 * @param unavailableReason null when the backend can run here, otherwise why not
 * @param isDefault         whether tensors are made on it when nothing else is chosen
 */
public record TensorBackendStatus(String name, String unavailableReason, boolean isDefault) {
    /** Whether the backend can run here. */
    public boolean available() {
        return unavailableReason == null;
    }

    /**
     * Every backend on the class path, highest priority first ({@link Backends#names()}); the default
     * is the one {@code -Dpanamax.tensor.backend} names, else the first available, as
     * {@link Backends#current()} picks it.
     */
    public static List<TensorBackendStatus> all() {
        Map<String, BackendProvider> providers = new HashMap<>();
        ServiceLoader.load(BackendProvider.class, Backends.class.getClassLoader()).forEach(p -> providers.putIfAbsent(p.name(), p));
        Map<String, String> reasons = new HashMap<>();
        for (String name : Backends.names()) {
            BackendProvider p = providers.get(name);
            String why = p == null ? "its provider cannot be loaded" : p.unavailableReason();
            if (why != null) reasons.put(name, why);
        }
        String chosen = Settings.value(Backends.PROPERTY);
        String defaultName = chosen != null ? chosen
                : Backends.names().stream().filter(n -> !reasons.containsKey(n)).findFirst().orElse(null);
        List<TensorBackendStatus> all = new ArrayList<>();
        for (String name : Backends.names()) all.add(new TensorBackendStatus(name, reasons.get(name), name.equals(defaultName)));
        return List.copyOf(all);
    }

    /** {@code cpu (default), reference, opencl (unavailable: why)}; "none" when the list is empty. */
    public static String describe(List<TensorBackendStatus> backends) {
        if (backends.isEmpty()) return "none (no dev.panamax.tensor.spi.BackendProvider on the class path)";
        StringBuilder b = new StringBuilder();
        for (TensorBackendStatus s : backends) {
            if (!b.isEmpty()) b.append(", ");
            b.append(s.name());
            if (s.isDefault()) b.append(" (default)");
            if (!s.available()) b.append(" (unavailable: ").append(s.unavailableReason()).append(')');
        }
        return b.toString();
    }
}
