package dev.panamax.bindgen.importer;

/**
 * A declaration of the headers left out of the import, with why: {@code sqlite3_mprintf (function,
 * sqlite3.h:412:19): variadic}.
 *
 * @param name  the C name
 * @param kind  function, type or constant
 * @param place where the header declares it
 */
public record Skipped(String name, String kind, String place, String reason) {
    @Override
    public String toString() {
        return name + " (" + kind + ", " + place + "): " + reason;
    }
}
