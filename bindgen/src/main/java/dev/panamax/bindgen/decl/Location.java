package dev.panamax.bindgen.decl;

/** A place in a declarations file, 1-based, for error messages: {@code zlib.yaml:12:7}. */
public record Location(String file, int line, int column) {
    @Override
    public String toString() {
        return file + ":" + line + ":" + column;
    }
}
