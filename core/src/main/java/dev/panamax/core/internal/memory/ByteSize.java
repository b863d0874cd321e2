package dev.panamax.core.internal.memory;

import java.util.Locale;

/** Byte counts for messages; {@link dev.panamax.core.Settings#bytes} reads them from settings. */
public final class ByteSize {
    private ByteSize() {}

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
