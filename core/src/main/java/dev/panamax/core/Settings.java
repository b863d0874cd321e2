package dev.panamax.core;

import java.util.Locale;
import java.util.function.DoublePredicate;

/**
 * Panamax's settings: the {@code panamax.*} system properties, read strictly. A value that does not
 * parse, or lies outside its range, is an {@link IllegalArgumentException} naming the setting, the
 * value and what was expected; never a bare {@link NumberFormatException}, never a default used in
 * silence. An unset or blank property takes its default. Each setting is declared once as a
 * {@link Setting}; these are the parsers its {@link SettingType} uses.
 *
 * <pre>{@code
 * long limit = Settings.bytes(CoreSettings.MEMORY_LIMIT.name(), 1L << 30);   // or CoreSettings.MEMORY_LIMIT.get()
 * // -Dpanamax.memory.limit=12x:
 * // IllegalArgumentException: setting -Dpanamax.memory.limit=12x: expected a byte count with an optional
 * //   k/m/g/t suffix (e.g. 512m, 4g)
 * }</pre>
 */
public final class Settings {
    private Settings() {}

    /** The property's value, trimmed; null when unset or blank. */
    public static String value(String property) {
        String v = System.getProperty(property);
        return v == null || v.isBlank() ? null : v.trim();
    }

    /** A whole number from {@code min} to {@code max}. */
    public static long longValue(String property, long fallback, long min, long max) {
        String v = value(property);
        return v == null ? fallback : parseLong(property, v, min, max);
    }

    /** {@code v} as a whole number from {@code min} to {@code max}; {@code property} names it in the error. */
    public static long parseLong(String property, String v, long min, long max) {
        String expected = wholeNumber(min, max);
        try {
            long n = Long.parseLong(v.replace("_", ""));
            if (n < min || n > max) throw bad(property, v, expected);
            return n;
        } catch (NumberFormatException e) {
            throw bad(property, v, expected);
        }
    }

    static String wholeNumber(long min, long max) {
        return "a whole number from " + min + " to " + max;
    }

    /** A whole number from {@code min} to {@code max}. */
    public static int intValue(String property, int fallback, int min, int max) {
        return (int) longValue(property, fallback, min, max);
    }

    /** A number for which {@code valid} holds; {@code expected} says which (e.g. "a fraction in (0, 1]"). */
    public static double number(String property, double fallback, DoublePredicate valid, String expected) {
        String v = value(property);
        return v == null ? fallback : parseNumber(property, v, valid, expected);
    }

    /** {@code v} as a number for which {@code valid} holds; {@code property} names it in the error. */
    public static double parseNumber(String property, String v, DoublePredicate valid, String expected) {
        double d;
        try {
            d = Double.parseDouble(v);
        } catch (NumberFormatException e) {
            throw bad(property, v, expected);
        }
        if (!valid.test(d)) throw bad(property, v, expected);
        return d;
    }

    /** {@code true} or {@code false}, in any case. */
    public static boolean bool(String property, boolean fallback) {
        String v = value(property);
        return v == null ? fallback : parseBool(property, v);
    }

    /** {@code v} as {@code true} or {@code false}, in any case; {@code property} names it in the error. */
    public static boolean parseBool(String property, String v) {
        v = v.trim();
        if (v.equalsIgnoreCase("true")) return true;
        if (v.equalsIgnoreCase("false")) return false;
        throw bad(property, v, "true or false");
    }

    /** A byte count such as {@code 4096}, {@code 64k}, {@code 512m}, {@code 1g}, {@code 2GiB}. */
    public static long bytes(String property, long fallback) {
        String v = value(property);
        return v == null ? fallback : parseBytes(property, v);
    }

    /** {@code text} as a byte count; {@code property} names it in the error. */
    public static long parseBytes(String property, String text) {
        String s = text.trim().toLowerCase(Locale.ROOT);
        if (s.endsWith("ib")) s = s.substring(0, s.length() - 2);
        else if (s.endsWith("b")) s = s.substring(0, s.length() - 1);
        long unit = 1;
        if (!s.isEmpty()) {
            unit = switch (s.charAt(s.length() - 1)) {
                case 'k' -> 1L << 10;
                case 'm' -> 1L << 20;
                case 'g' -> 1L << 30;
                case 't' -> 1L << 40;
                default -> 1;
            };
            if (unit != 1) s = s.substring(0, s.length() - 1);
        }
        try {
            long n = Long.parseLong(s.trim());
            if (n < 0) throw bad(property, text, BYTES);
            return Math.multiplyExact(n, unit);
        } catch (NumberFormatException | ArithmeticException e) {
            throw bad(property, text, BYTES);
        }
    }

    static final String BYTES = "a byte count with an optional k/m/g/t suffix (e.g. 512m, 4g)";

    /** One of {@code type}'s constants, in any case. */
    public static <E extends Enum<E>> E choice(String property, E fallback, Class<E> type) {
        String v = value(property);
        return v == null ? fallback : parseChoice(property, v, type);
    }

    /** {@code text} as one of {@code type}'s constants, in any case; {@code property} names it in the error. */
    public static <E extends Enum<E>> E parseChoice(String property, String text, Class<E> type) {
        for (E e : type.getEnumConstants()) {
            if (e.name().equalsIgnoreCase(text.trim())) return e;
        }
        throw bad(property, text, "one of " + java.util.Arrays.toString(type.getEnumConstants()).replaceAll("[\\[\\]]", ""));
    }

    /** The error for a setting: its name, its value and what was expected. */
    public static IllegalArgumentException bad(String property, String value, String expected) {
        return new IllegalArgumentException("setting -D" + property + "=" + value + ": expected " + expected);
    }
}
