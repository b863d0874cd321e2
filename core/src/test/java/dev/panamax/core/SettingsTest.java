package dev.panamax.core;

import dev.panamax.core.internal.memory.MemoryConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import static org.junit.jupiter.api.Assertions.*;

/** A bad setting names itself, its value and what was expected: never a bare NumberFormatException, never ignored. */
class SettingsTest {
    static void withProperty(String property, String value, Runnable body) {
        String before = System.getProperty(property);
        System.setProperty(property, value);
        try {
            body.run();
        } finally {
            if (before == null) System.clearProperty(property);
            else System.setProperty(property, before);
        }
    }

    static void refused(String property, String value, String message, Executable read) {
        withProperty(property, value, () -> assertEquals(message, assertThrows(IllegalArgumentException.class, read).getMessage()));
    }

    @Test
    void theMemorySettings() {
        refused("panamax.memory.limit", "12x", "setting -Dpanamax.memory.limit=12x: expected a byte count with an optional"
                + " k/m/g/t suffix (e.g. 512m, 4g)", MemoryConfig::fromSystemProperties);
        refused("panamax.memory.limit", "0", "setting -Dpanamax.memory.limit=0: expected a positive byte count (e.g. 512m, 4g)",
                MemoryConfig::fromSystemProperties);
        refused("panamax.memory.limit", "99999999999t", "setting -Dpanamax.memory.limit=99999999999t: expected a byte count with"
                + " an optional k/m/g/t suffix (e.g. 512m, 4g)", MemoryConfig::fromSystemProperties);
        refused("panamax.memory.softLimit", "1.5", "setting -Dpanamax.memory.softLimit=1.5: expected a fraction in (0, 1], e.g. 0.5",
                MemoryConfig::fromSystemProperties);
        refused("panamax.memory.shadowFraction", "half", "setting -Dpanamax.memory.shadowFraction=half: expected a fraction in"
                + " [0, 0.9], e.g. 0.5", MemoryConfig::fromSystemProperties);
        refused("panamax.memory.maxWaitMillis", "2s", "setting -Dpanamax.memory.maxWaitMillis=2s: expected a whole number from 0 to "
                + Long.MAX_VALUE, MemoryConfig::fromSystemProperties);
        withProperty("panamax.memory.limit", "512m", () -> assertEquals(512L << 20, MemoryConfig.fromSystemProperties().limitBytes()));
    }

    @Test
    void eachKindOfSetting() {
        String p = "panamax.test.setting";
        assertEquals(7, Settings.intValue(p, 7, 1, 64), "unset: the default");
        withProperty(p, " ", () -> assertEquals(7, Settings.intValue(p, 7, 1, 64)));
        withProperty(p, "65", () -> assertThrows(IllegalArgumentException.class, () -> Settings.intValue(p, 7, 1, 64)));
        refused(p, "2.5", "setting -Dpanamax.test.setting=2.5: expected a whole number from 1 to 64", () -> Settings.intValue(p, 7, 1, 64));
        withProperty(p, "64k", () -> assertEquals(65_536, Settings.bytes(p, 0)));
        withProperty(p, "2GiB", () -> assertEquals(2L << 30, Settings.bytes(p, 0)));
        refused(p, "-1", "setting -Dpanamax.test.setting=-1: expected a byte count with an optional k/m/g/t suffix (e.g. 512m, 4g)",
                () -> Settings.bytes(p, 0));
        withProperty(p, "paranoid", () -> assertEquals(dev.panamax.core.memory.LeakLevel.PARANOID,
                Settings.choice(p, dev.panamax.core.memory.LeakLevel.SAMPLED, dev.panamax.core.memory.LeakLevel.class)));
        refused(p, "loud", "setting -Dpanamax.test.setting=loud: expected one of DISABLED, SAMPLED, PARANOID",
                () -> Settings.choice(p, dev.panamax.core.memory.LeakLevel.SAMPLED, dev.panamax.core.memory.LeakLevel.class));
        refused(p, "NaN", "setting -Dpanamax.test.setting=NaN: expected a fraction", () -> Settings.number(p, 0.5, f -> f >= 0 && f <= 1, "a fraction"));
    }
}
