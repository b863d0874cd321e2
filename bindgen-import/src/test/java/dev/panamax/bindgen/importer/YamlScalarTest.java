package dev.panamax.bindgen.importer;

import org.junit.jupiter.api.Test;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.schema.CoreSchema;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The writer's scalars read back as the strings written, whatever YAML would otherwise make of them. */
class YamlScalarTest {
    private static final Load CORE = new Load(LoadSettings.builder().setSchema(new CoreSchema()).build());

    @Test
    void wordsAndNumbersYamlWouldReadAsSomethingElseAreQuotedAndReadBackAsStrings() {
        List<String> strings = List.of("null", "Null", "NULL", "~", "true", "True", "FALSE", "yes", "Yes", "no", "on", "On",
                "OFF", "1e3", "0x10", "0o17", "+1", "-2", "1_000", ".inf", "-.inf", ".nan", "", " lead", "trail ", "a b",
                "x: y", "#c", "[a]", "{b}", "*alias", "&anchor", "!tag", "'q'", "\"d\"", "%x", "@x", "`x`", "-", "- x", "? x",
                "caf\u00e9", "tab\there", "new\nline", "back\\slash", "a,b", "plain", "f32*", "odd_node", "Yes_");
        for (String s : strings) {
            String written = DeclarationsWriter.scalar(s);
            Object read = CORE.loadFromString("key: " + written + "\nlist: [" + written + "]\n");
            assertEquals(Map.of("key", s, "list", List.of(s)), read, "written as " + written);
        }
    }

    @Test
    void theBooleansOfYaml11AreQuotedForTheReadersThatStillFollowIt() {
        for (String s : List.of("yes", "YES", "no", "No", "on", "ON", "off", "Off")) {
            assertEquals("\"" + s + "\"", DeclarationsWriter.scalar(s));
        }
        for (String s : List.of("n", "N", "y", "Y", "x", "odd_yes", "f32[4]")) assertEquals(s, DeclarationsWriter.scalar(s));
    }
}
