package dev.panamax.cli;

import dev.panamax.core.Setting;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code panamax info --settings}: every declared setting with its current value, its default, what
 * it accepts and what it does, wrapped to a width.
 *
 * <pre>
 * panamax.blas.chunkElements
 *     value    4096 (set)
 *     default  1048576
 *     accepts  a whole number from 1 to 2147483647
 *     Elements per critical call when ...
 * </pre>
 */
final class SettingsReport {
    /** The width lines are wrapped to. */
    static final int WIDTH = 96;
    private static final String INDENT = "    ";

    private SettingsReport() {}

    /** The report's lines for {@code settings}, none longer than {@code width} (unless one word is). */
    static List<String> lines(List<Setting<?>> settings, int width) {
        List<String> out = new ArrayList<>();
        for (Setting<?> s : settings) {
            out.add(s.name());
            out.addAll(wrap("value    ", current(s), width));
            out.addAll(wrap("default  ", s.defaultText(), width));
            out.addAll(wrap("accepts  ", s.type().accepts(), width));
            out.addAll(wrap("", s.description(), width));
        }
        return out;
    }

    /** The value as set, checked; "default" when unset. */
    private static String current(Setting<?> s) {
        String v = System.getProperty(s.name());
        if (v == null || v.isBlank()) return "default";
        try {
            s.type().parse(s.name(), v.trim());
            return v + " (set)";
        } catch (IllegalArgumentException e) {
            return v + " (invalid: " + e.getMessage() + ")";
        }
    }

    /** {@code text} after {@code label}, indented, wrapped at spaces to {@code width}. */
    static List<String> wrap(String label, String text, int width) {
        String first = INDENT + label;
        String rest = " ".repeat(first.length());
        List<String> lines = new ArrayList<>();
        StringBuilder line = new StringBuilder(first);
        boolean empty = true;
        for (String word : text.split(" +")) {
            if (!empty && line.length() + 1 + word.length() > width) {
                lines.add(line.toString());
                line = new StringBuilder(rest);
                empty = true;
            }
            if (!empty) line.append(' ');
            line.append(word);
            empty = false;
        }
        lines.add(line.toString());
        return lines;
    }
}
