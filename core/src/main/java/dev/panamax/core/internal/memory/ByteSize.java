package dev.panamax.core.internal.memory;

import java.util.Locale;

/** Byte counts as people write them in system properties ({@code 1g}, {@code 512m}, {@code 64k}, {@code 4096}). */
public final class ByteSize {
    private ByteSize() {}

    /** Parses {@code text}; {@code property} names the source for the error message. */
    public static long parse(String property, String text) {
        String s = text.trim().toLowerCase(Locale.ROOT);
        if (s.endsWith("ib")) s = s.substring(0, s.length() - 2);
        else if (s.endsWith("b")) s = s.substring(0, s.length() - 1);
        long unit = 1;
        if (!s.isEmpty()) {
            switch (s.charAt(s.length() - 1)) {
                case 'k' -> unit = 1L << 10;
                case 'm' -> unit = 1L << 20;
                case 'g' -> unit = 1L << 30;
                case 't' -> unit = 1L << 40;
                default -> unit = 1;
            }
            if (unit != 1) s = s.substring(0, s.length() - 1);
        }
        try {
            long n = Long.parseLong(s.trim());
            if (n < 0) throw new NumberFormatException("negative");
            return Math.multiplyExact(n, unit);
        } catch (NumberFormatException | ArithmeticException e) {
            throw new IllegalArgumentException("bad byte size: property=" + property + " value=" + text
                    + " expected=a non-negative count with an optional k/m/g/t suffix (e.g. 1g)", e);
        }
    }

    /** {@code 1073741824} as {@code 1.0 GiB} for messages. */
    public static String format(long bytes) {
        if (bytes < 1024) return bytes + " B";
        String[] units = {"KiB", "MiB", "GiB", "TiB"};
        double v = bytes;
        int i = -1;
        while (v >= 1024 && i < units.length - 1) {
            v /= 1024;
            i++;
        }
        return String.format(Locale.ROOT, "%.1f %s", v, units[i]);
    }
}
