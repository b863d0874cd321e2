package dev.panamax.cli;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;

/** The paths a user gives a command, checked and resolved against the directory the command was run from. */
final class UserPaths {
    private UserPaths() {}

    /** picocli's converter for every {@code Path} option and parameter: {@link #resolve}, refusals as picocli's. */
    static Path converted(String value) {
        try {
            return resolve("the path", value, "a file or directory");
        } catch (IllegalArgumentException e) {
            throw new picocli.CommandLine.TypeConversionException(e.getMessage());
        }
    }

    /**
     * {@code value} of the argument {@code label} as a path: an empty one, or one the file system cannot
     * name (a NUL in it), is an {@link IllegalArgumentException} saying which argument and what was expected.
     */
    static Path resolve(String label, String value, String expected) {
        if (value.isBlank()) throw new IllegalArgumentException(label + " is empty; expected " + expected);
        try {
            return WorkingDirectory.resolve(Path.of(value));
        } catch (InvalidPathException e) {
            throw new IllegalArgumentException(label + " '" + value.replace("\0", "\\0") + "' is not a path (" + e.getReason()
                    + "); expected " + expected);
        }
    }
}
