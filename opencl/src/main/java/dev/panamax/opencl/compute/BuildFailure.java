package dev.panamax.opencl.compute;

import dev.panamax.compute.LibraryBuildException;
import dev.panamax.opencl.binding.CL;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@link LibraryBuildException} for kernel source that did not compile: the compiler's log, and
 * the first line it names as an error. The log is read defensively: a line number that does not fit
 * (a {@code #line 99999999999} directive) or that a {@code #line} directive renumbered is reported
 * as the log gives it, never quoted from the wrong line of the source, and never fails the report.
 */
final class BuildFailure {
    /** {@code file.cl:3:12: error: ...} or {@code error: file.cl:3:12: ...}: clang's places, as drivers print them. */
    private static final Pattern ERROR_LINE = Pattern.compile("(?m)^(?:.*error.*?:(\\d+):\\d+:|.*?:(\\d+):\\d+:\\s*(?:fatal )?error)");
    private static final Pattern LINE_DIRECTIVE = Pattern.compile("(?m)^\\s*#\\s*line\\b");

    private BuildFailure() {}

    static LibraryBuildException of(String source, String options, String log, int status) {
        String place = firstErrorLine(log);
        long line = parse(place);
        boolean renumbered = LINE_DIRECTIVE.matcher(source).find();
        StringBuilder b = new StringBuilder("kernel source did not compile");
        if (status == CL.CL_INVALID_BUILD_OPTIONS) b.append(" (invalid build options '").append(options).append("')");
        if (place != null) {
            b.append(" at line ").append(place);
            String[] lines = source.split("\n", -1);
            if (renumbered) b.append(" (as the source's #line directive numbers it)");
            else if (line >= 1 && line <= lines.length) b.append(": ").append(lines[(int) line - 1].strip());
        }
        b.append("\n").append(log.isEmpty() ? "(the compiler gave no log)" : log);
        return new LibraryBuildException(b.toString(), log, line >= 1 && line <= Integer.MAX_VALUE ? (int) line : -1);
    }

    /** The digits of the first error's line in {@code log}, or null when it names none. */
    static String firstErrorLine(String log) {
        Matcher m = ERROR_LINE.matcher(log);
        if (!m.find()) return null;
        return m.group(1) != null ? m.group(1) : m.group(2);
    }

    /** The line number, or -1 when there is none or it does not fit a long. */
    private static long parse(String digits) {
        if (digits == null) return -1;
        try {
            return Long.parseLong(digits);
        } catch (NumberFormatException tooLong) {
            return -1;
        }
    }
}
