package dev.panamax.core;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Every {@link Setting} of the Panamax modules on the class path, collected from their
 * {@link SettingDeclarations}. The first read of any setting also checks the JVM's system
 * properties once: a {@code panamax.*} property that no module declares (a typo such as
 * {@code panamax.tensor.backnd}) is logged at WARNING through {@link System.Logger}
 * {@code dev.panamax.core.settings}, with the closest declared name.
 */
public final class SettingCatalogue {
    /** The logger the unknown-property warning goes to. */
    public static final String LOGGER = "dev.panamax.core.settings";

    private static final AtomicBoolean CHECKED = new AtomicBoolean();

    private SettingCatalogue() {}

    private static final class Loaded {
        static final List<Setting<?>> ALL = load();

        private Loaded() {}
    }

    /** Every declared setting, sorted by name. */
    public static List<Setting<?>> all() {
        return Loaded.ALL;
    }

    /** The setting called {@code name}, if a module on the class path declares it. */
    public static Optional<Setting<?>> find(String name) {
        return all().stream().filter(s -> s.name().equals(name)).findFirst();
    }

    private static List<Setting<?>> load() {
        Map<String, Setting<?>> byName = new TreeMap<>();
        for (SettingDeclarations d : ServiceLoader.load(SettingDeclarations.class, SettingCatalogue.class.getClassLoader())) {
            for (Setting<?> s : d.settings()) {
                Setting<?> before = byName.putIfAbsent(s.name(), s);
                if (before != null && before != s) {
                    throw new IllegalStateException("setting " + s.name() + " is declared twice (again by "
                            + d.getClass().getName() + "): expected one declaration per setting");
                }
            }
        }
        return List.copyOf(byName.values());
    }

    /**
     * Warns once per process about each {@code panamax.*} system property that no setting declares.
     * Called by every read of a setting; a failure to list the settings never fails the read.
     */
    static void warnUnknownOnce() {
        if (!CHECKED.compareAndSet(false, true)) return;
        List<String> warnings;
        try {
            warnings = unknownProperties(System.getProperties().stringPropertyNames(), all().stream().map(Setting::name).toList());
        } catch (ServiceConfigurationError | RuntimeException e) {
            return;
        }
        if (warnings.isEmpty()) return;
        System.Logger log = System.getLogger(LOGGER);
        for (String w : warnings) log.log(System.Logger.Level.WARNING, w);
    }

    /**
     * A warning for each name in {@code properties} that starts with {@code panamax.} and is not in
     * {@code known}, naming the closest known name; sorted by property name.
     */
    public static List<String> unknownProperties(Iterable<String> properties, List<String> known) {
        List<String> unknown = new ArrayList<>();
        for (String p : properties) {
            if (p.startsWith(Setting.PREFIX) && !known.contains(p)) unknown.add(p);
        }
        unknown.sort(Comparator.naturalOrder());
        List<String> warnings = new ArrayList<>();
        for (String p : unknown) {
            String closest = closest(p, known);
            warnings.add("unknown setting -D" + p + ": no Panamax module on the class path declares it"
                    + (closest == null ? "" : "; did you mean " + closest + "?")
                    + " (panamax info --settings lists them all)");
        }
        return warnings;
    }

    /** The name in {@code known} fewest single-character edits away from {@code name}; null when none. */
    static String closest(String name, List<String> known) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String k : known) {
            int d = editDistance(name.toLowerCase(java.util.Locale.ROOT), k.toLowerCase(java.util.Locale.ROOT));
            if (d < bestDistance) {
                best = k;
                bestDistance = d;
            }
        }
        return best;
    }

    /** Levenshtein distance. */
    static int editDistance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) previous[j] = j;
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitute = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitute, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] t = previous;
            previous = current;
            current = t;
        }
        return previous[b.length()];
    }
}
