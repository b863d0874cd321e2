package dev.panamax.cli;

import dev.panamax.core.Setting;
import dev.panamax.core.SettingCatalogue;
import dev.panamax.testsupport.ChildJvm;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The settings registry against the code: every {@code panamax.*} property the production sources
 * name is declared once, in a module's {@code *Settings} declarations, and the catalogue holds them all;
 * {@code panamax info --settings} lists them; an unknown {@code panamax.*} property is warned about once.
 */
class SettingsRegistryTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    /**
     * Modules left out: whose {@code "panamax.…"} strings are not JVM settings (benchmark figure names,
     * Maven parameters), or that the CLI does not carry (spark needs a Spark cluster's class path; its
     * own tests check its settings against the catalogue there).
     */
    private static final Set<String> NOT_SETTINGS_MODULES = Set.of("bench", "bindgen-maven-plugin", "spark");
    /** Strings that look like settings but name something else: a checkpoint's metadata key. */
    private static final Set<String> NOT_SETTINGS = Set.of("panamax.checkpoint");
    private static final Pattern LITERAL = Pattern.compile("\"(panamax\\.[A-Za-z0-9_.]+)\"");
    private static final Pattern DECLARED = Pattern.compile("Setting\\.(?:of|text)\\(\\s*\"(panamax\\.[A-Za-z0-9_.]+)\"");

    @Test
    void everySettingNamedInTheSourcesIsDeclaredOnceAndCatalogued() throws IOException {
        Set<String> catalogued = new TreeSet<>(SettingCatalogue.all().stream().map(Setting::name).toList());
        Set<String> declared = new TreeSet<>();
        List<String> stray = new ArrayList<>();
        for (Path file : productionSources()) {
            String text = Files.readString(file).replaceAll("(?m)^\\s*(\\*|//).*$", "");   // code, not comments
            boolean declarations = text.contains("implements SettingDeclarations");
            Matcher d = DECLARED.matcher(text);
            while (d.find()) {
                assertTrue(declarations, file + " declares " + d.group(1) + " outside a SettingDeclarations class");
                assertTrue(declared.add(d.group(1)), d.group(1) + " is declared twice (again in " + file + ")");
            }
            if (declarations) continue;
            Matcher m = LITERAL.matcher(text);
            while (m.find()) {
                if (!NOT_SETTINGS.contains(m.group(1))) stray.add(ROOT.relativize(file) + ": \"" + m.group(1) + "\"");
            }
        }
        assertEquals(List.of(), stray, "property names written out instead of read through their declared Setting");
        assertFalse(declared.isEmpty());
        assertEquals(declared, catalogued, "the settings declared in the sources against those the catalogue loads");
    }

    @Test
    void infoSettingsListsEverySettingWithItsValueDefaultAndDescription() throws Exception {
        ChildJvm c = ChildJvm.run(Main.class, List.of("-Dpanamax.blas.chunkElements=4096", "-Dpanamax.tensor.pool=maybe"),
                "info", "--settings");
        assertEquals(0, c.exitCode(), c.output());
        List<String> lines = c.output().lines().toList();
        for (Setting<?> s : SettingCatalogue.all()) {
            int at = lines.indexOf(s.name());
            assertTrue(at >= 0, s.name() + " listed: " + c.output());
            assertTrue(lines.get(at + 1).startsWith("    value    "), lines.get(at + 1));
            assertTrue(lines.get(at + 2).startsWith("    default  "), lines.get(at + 2));
        }
        int chunk = lines.indexOf("panamax.blas.chunkElements");
        assertEquals("    value    4096 (set)", lines.get(chunk + 1));
        assertEquals("    default  1048576", lines.get(chunk + 2));
        assertEquals("    accepts  a whole number from 1 to 2147483647", lines.get(chunk + 3));
        int pool = lines.indexOf("panamax.tensor.pool");
        assertEquals("    value    maybe (invalid: setting -Dpanamax.tensor.pool=maybe: expected true or false)", lines.get(pool + 1));
        assertTrue(lines.contains("    default  1/8 of panamax.memory.limit"), c.output());
        for (String line : lines) assertTrue(line.length() <= SettingsReport.WIDTH, "wrapped to " + SettingsReport.WIDTH + ": " + line);
    }

    @Test
    void wrapsAtSpacesUnderItsLabel() {
        assertEquals(List.of("    accepts  one two", "             three"), SettingsReport.wrap("accepts  ", "one two three", 20));
    }

    @Test
    void anUnknownPropertyIsWarnedAboutOnceWithTheClosestName() throws Exception {
        ChildJvm c = ChildJvm.run(ReadsSettings.class, List.of("-Dpanamax.tensor.backnd=cpu", "-Dpanamax.tensor.lazy=false"));
        assertEquals(0, c.exitCode(), c.output());
        assertTrue(c.output().contains("lazy=false recording=1024 chunk=1048576"), c.output());
        String warning = "unknown setting -Dpanamax.tensor.backnd: no Panamax module on the class path declares it;"
                + " did you mean panamax.tensor.backend?";
        assertEquals(1, c.output().split(Pattern.quote(warning), -1).length - 1, c.output());
    }

    @Test
    void knownPropertiesAloneWarnNothing() throws Exception {
        ChildJvm c = ChildJvm.run(ReadsSettings.class, List.of("-Dpanamax.tensor.lazy=false"));
        assertEquals(0, c.exitCode(), c.output());
        assertFalse(c.output().contains("unknown setting"), c.output());
    }

    /** Reads a few settings of different modules, twice. */
    public static final class ReadsSettings {
        public static void main(String[] args) {
            for (int i = 0; i < 2; i++) {
                System.out.println("lazy=" + dev.panamax.tensor.TensorSettings.LAZY.get()
                        + " recording=" + dev.panamax.tensor.TensorSettings.RECORDING.get()
                        + " chunk=" + dev.panamax.blas.BlasSettings.CHUNK_ELEMENTS.get());
            }
        }
    }

    private static List<Path> productionSources() throws IOException {
        List<Path> out = new ArrayList<>();
        try (Stream<Path> modules = Files.list(ROOT)) {
            for (Path m : modules.filter(p -> Files.isDirectory(p.resolve("src/main/java"))).toList()) {
                if (NOT_SETTINGS_MODULES.contains(m.getFileName().toString())) continue;
                try (Stream<Path> files = Files.walk(m.resolve("src/main/java"))) {
                    files.filter(f -> f.toString().endsWith(".java")).forEach(out::add);
                }
            }
        }
        assertTrue(out.size() > 100, "found the production sources under " + ROOT);
        return out;
    }
}
