package dev.panamax.core;

import java.util.Objects;
import java.util.function.Supplier;

/**
 * One {@code panamax.*} system property: its name, what it accepts, its default and what it does.
 * Every setting is declared once, as a constant of its module's {@link SettingDeclarations}, and
 * every read goes through that constant, so {@link SettingCatalogue} knows them all (for
 * {@code panamax info --settings} and to name a mistyped property).
 *
 * <pre>{@code
 * public static final Setting<Long> STAGING_CACHE = Setting.of("panamax.blas.stagingCacheBytes",
 *         SettingType.bytes(), 64L << 20, "Native staging memory kept for reuse between calls.");
 * long cache = STAGING_CACHE.get();   // -Dpanamax.blas.stagingCacheBytes=12x:
 * // IllegalArgumentException: setting -Dpanamax.blas.stagingCacheBytes=12x: expected a byte count ...
 * }</pre>
 *
 * @param name        the system property, starting with {@code panamax.}
 * @param type        what values it accepts and how they parse
 * @param defaultText the default in words (a value, or how it is computed)
 * @param defaults    the default's value; may be null where the reader works it out itself
 * @param description what the setting does, in a sentence or two
 * @param <T>         the value's type
 */
public record Setting<T>(String name, SettingType<T> type, String defaultText, Supplier<T> defaults, String description) {
    /** The prefix every setting's name starts with. */
    public static final String PREFIX = "panamax.";

    public Setting {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(defaultText, "defaultText");
        Objects.requireNonNull(defaults, "defaults");
        Objects.requireNonNull(description, "description");
        if (!name.startsWith(PREFIX) || name.length() == PREFIX.length()) {
            throw new IllegalArgumentException("setting name=" + name + ": expected a name starting with " + PREFIX);
        }
    }

    /** A setting with a fixed default. */
    public static <T> Setting<T> of(String name, SettingType<T> type, T defaultValue, String description) {
        return new Setting<>(name, type, type.format(defaultValue), () -> defaultValue, description);
    }

    /** A setting whose default is computed when read; {@code defaultText} says how. */
    public static <T> Setting<T> of(String name, SettingType<T> type, String defaultText, Supplier<T> defaults, String description) {
        return new Setting<>(name, type, defaultText, defaults, description);
    }

    /** A setting its reader parses itself from {@link #raw()}; {@code defaultText} says what unset means. */
    public static Setting<String> text(String name, String accepts, String defaultText, String description) {
        return new Setting<>(name, SettingType.text(accepts), defaultText, () -> null, description);
    }

    /**
     * The value: the property parsed by {@link #type()}, or the default when unset or blank.
     *
     * @throws IllegalArgumentException naming the setting, its value and what was expected
     */
    public T get() {
        String v = value();
        return v == null ? defaults.get() : type.parse(name, v);
    }

    /** The property's value, trimmed; null when unset or blank. */
    public String value() {
        SettingCatalogue.warnUnknownOnce();
        return Settings.value(name);
    }

    /** The property's value exactly as set, null when unset (for readers with their own parsing). */
    public String raw() {
        SettingCatalogue.warnUnknownOnce();
        return System.getProperty(name);
    }

    /** The error for a bad value of this setting: its name, the value and what was expected. */
    public IllegalArgumentException bad(String value, String expected) {
        return Settings.bad(name, value, expected);
    }
}
