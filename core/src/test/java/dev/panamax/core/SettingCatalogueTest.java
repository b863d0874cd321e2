package dev.panamax.core;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

/** The core half of the settings registry: typed settings, the catalogue, and naming an unknown property. */
class SettingCatalogueTest {
    @Test
    void coreSettingsAreCatalogued() {
        for (Setting<?> s : new CoreSettings().settings()) {
            assertSame(s, SettingCatalogue.find(s.name()).orElseThrow(), s.name());
        }
    }

    @Test
    void aSettingReadsItsPropertyAndKeepsItsClearError() {
        Setting<Integer> s = Setting.of("panamax.test.setting", SettingType.count(1, 8), 3, "For the test.");
        assertEquals(3, s.get());
        System.setProperty(s.name(), " 5 ");
        try {
            assertEquals(5, s.get());
            System.setProperty(s.name(), "9");
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, s::get);
            assertEquals("setting -Dpanamax.test.setting=9: expected a whole number from 1 to 8", e.getMessage());
        } finally {
            System.clearProperty(s.name());
        }
    }

    @Test
    void byteDefaultsAreWrittenWithTheirUnit() {
        assertEquals("64m", SettingType.bytes().format(64L << 20));
        assertEquals("65536", Setting.of("panamax.x", SettingType.count(0, 1 << 20), 65536, "x").defaultText());
        assertEquals("64k", CoreSettings.SCRATCH_STACK_SIZE.defaultText());
    }

    @Test
    void aNameWithoutThePrefixIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Setting.of("tensor.lazy", SettingType.flag(), true, "x"));
        assertTrue(e.getMessage().contains("name=tensor.lazy"), e.getMessage());
    }

    @Test
    void anUnknownPanamaxPropertyIsNamedWithTheClosestKnownOne() {
        List<String> known = List.of("panamax.tensor.backend", "panamax.tensor.device", "panamax.threads");
        assertEquals(List.of("unknown setting -Dpanamax.tensor.backnd: no Panamax module on the class path declares it;"
                        + " did you mean panamax.tensor.backend? (panamax info --settings lists them all)"),
                SettingCatalogue.unknownProperties(List.of("java.home", "panamax.tensor.backnd", "panamax.threads"), known));
        assertEquals(List.of(), SettingCatalogue.unknownProperties(List.of("panamaxy", "panamax.threads"), known));
        assertEquals("panamax.threads", SettingCatalogue.closest("panamax.thread", known));
        assertEquals(3, SettingCatalogue.editDistance("kitten", "sitting"));
    }
}
