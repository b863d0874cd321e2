package dev.panamax.cli.demo;

import java.io.Serial;
import java.nio.file.Path;

/** A {@code --data} file the demo cannot train on: which file, what is wrong, what was expected. */
public final class DataFileException extends Exception {
    @Serial
    private static final long serialVersionUID = 1L;
    static final String EXPECTED = "expected a NumPy .npz archive with a float array x of shape (n, d) and an integer "
            + "array y of n class labels, as written by np.savez(FILE, x=x, y=y)";

    private final transient Path file;

    public DataFileException(Path file, String problem) {
        super(file + ": " + problem);
        this.file = file;
    }

    /** The file at fault. */
    public Path file() {
        return file;
    }
}
