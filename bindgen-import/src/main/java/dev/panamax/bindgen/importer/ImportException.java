package dev.panamax.bindgen.importer;

/**
 * A header that cannot be imported: a file or include directory that does not exist, code libclang
 * reports errors in (each as {@code file:line:column: error: message}), a filter that matches nothing,
 * or an existing declarations file that cannot be re-imported into.
 */
public final class ImportException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    public ImportException(String message) {
        super(message);
    }
}
