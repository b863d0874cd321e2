package dev.panamax.tensor;

import dev.panamax.tensor.spi.Backend;
import dev.panamax.tensor.spi.BackendProvider;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Finds backends ({@link java.util.ServiceLoader} over {@link BackendProvider}) and selects the one
 * new tensors are made on: the system property {@code panamax.tensor.backend} if set, otherwise the available
 * backend of highest priority; {@link #use} changes it for the process and {@link #using} for a
 * block on the current thread.
 *
 * <pre>{@code
 * Backends.use("cpu");                                  // like --backend cpu
 * try (var b = Backends.using("reference")) {           // this thread, this block
 *     Tensor t = Tensor.ones(3);                        // lives on the reference backend
 * }
 * }</pre>
 */
public final class Backends {
    /** System property naming the default backend. */
    public static final String PROPERTY = TensorSettings.BACKEND.name();

    private static final Map<String, BackendProvider> PROVIDERS = discover();
    private static final Map<String, Backend> CREATED = new ConcurrentHashMap<>();
    /** Backends selected by instance ({@link #using(Backend)}) rather than by name. */
    private static final java.util.Set<Backend> ADOPTED = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private static final ThreadLocal<Backend> OVERRIDE = new ThreadLocal<>();
    private static volatile Backend defaultBackend;

    private Backends() {}

    private static Map<String, BackendProvider> discover() {
        List<BackendProvider> found = new ArrayList<>();
        ServiceLoader.load(BackendProvider.class, Backends.class.getClassLoader()).forEach(found::add);
        found.sort(Comparator.comparingInt(BackendProvider::priority).reversed());
        Map<String, BackendProvider> byName = new LinkedHashMap<>();
        for (BackendProvider p : found) byName.putIfAbsent(p.name(), p);
        return byName;
    }

    /** Names of every backend found, highest priority first (available or not). */
    public static List<String> names() {
        return List.copyOf(PROVIDERS.keySet());
    }

    /** Names of the backends that can run here. */
    public static List<String> available() {
        return PROVIDERS.values().stream().filter(p -> p.unavailableReason() == null).map(BackendProvider::name).toList();
    }

    /**
     * The backend called {@code name}, made on first use.
     *
     * @throws IllegalArgumentException when there is none by that name or it cannot run here (the
     *                                  message lists the backends and why each is unavailable)
     */
    public static Backend get(String name) {
        Backend b = CREATED.get(name);
        if (b != null) return b;
        BackendProvider p = PROVIDERS.get(name);
        if (p == null) throw new IllegalArgumentException("no tensor backend named '" + name + "'; found: " + describe());
        String why = p.unavailableReason();
        if (why != null) throw new IllegalArgumentException("tensor backend '" + name + "' cannot run here: " + why);
        return CREATED.computeIfAbsent(name, n -> p.create());
    }

    /** The backend new tensors are made on, on this thread. */
    public static Backend current() {
        Backend o = OVERRIDE.get();
        if (o != null) return o;
        Backend d = defaultBackend;
        if (d != null) return d;
        synchronized (Backends.class) {
            if (defaultBackend == null) defaultBackend = get(initialName());
            return defaultBackend;
        }
    }

    private static String initialName() {
        String chosen = TensorSettings.BACKEND.value();
        if (chosen != null) {
            if (!PROVIDERS.containsKey(chosen)) throw dev.panamax.core.Settings.bad(PROPERTY, chosen, "a tensor backend: " + describe());
            return chosen;
        }
        List<String> ok = available();
        if (ok.isEmpty()) throw new IllegalStateException("no tensor backend can run here: " + describe());
        return ok.getFirst();
    }

    /** Makes {@code name} the default backend of the process; returns it. */
    public static Backend use(String name) {
        Backend b = get(name);
        defaultBackend = b;
        return b;
    }

    /** Selection for the current thread until the returned handle is closed. */
    public static Selection using(String name) {
        return using(get(name));
    }

    /** Selection of {@code backend} for the current thread until the returned handle is closed. */
    public static Selection using(Backend backend) {
        if (!CREATED.containsValue(backend)) ADOPTED.add(backend);
        Backend previous = OVERRIDE.get();
        OVERRIDE.set(backend);
        return () -> {
            if (previous == null) OVERRIDE.remove();
            else OVERRIDE.set(previous);
        };
    }

    /** Ends a {@link #using} block. */
    public interface Selection extends AutoCloseable {
        @Override
        void close();
    }

    /**
     * Hands what every backend made so far (or selected with {@link #using(Backend)}) has recorded to
     * its device ({@link Backend#flush()}): afterwards their storage may be freed.
     */
    public static void flushAll() {
        for (Backend b : CREATED.values()) b.flush();
        for (Backend b : ADOPTED) b.flush();
    }

    /** Runs what every backend made so far (or selected with {@link #using(Backend)}) has recorded. */
    public static void syncAll() {
        for (Backend b : CREATED.values()) b.sync();
        for (Backend b : ADOPTED) b.sync();
    }

    private static String describe() {
        if (PROVIDERS.isEmpty()) return "none (no dev.panamax.tensor.spi.BackendProvider on the class path)";
        StringBuilder sb = new StringBuilder();
        for (BackendProvider p : PROVIDERS.values()) {
            if (!sb.isEmpty()) sb.append(", ");
            String why = p.unavailableReason();
            sb.append(p.name()).append(why == null ? "" : " (unavailable: " + why + ")");
        }
        return sb.toString();
    }
}
