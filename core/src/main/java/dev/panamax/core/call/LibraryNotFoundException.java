package dev.panamax.core.call;

import java.util.List;

/** No candidate for a library could be loaded; the message lists every candidate tried and why it failed. */
public final class LibraryNotFoundException extends NativeLinkException {
    private static final long serialVersionUID = 1L;
    private final String name;
    private final transient List<String> tried;   // never serialized: a List is not Serializable

    LibraryNotFoundException(String name, List<String> tried, List<?> searchedDirectories) {
        super("library not found: name=" + name + " tried=" + tried.size() + "\n  "
                + String.join("\n  ", tried)
                + "\nsearched directories for versioned sonames: " + searchedDirectories);
        this.name = name;
        this.tried = List.copyOf(tried);
    }

    /** The name or path that was asked for. */
    public String name() {
        return name;
    }

    /** Every candidate tried, in order, each with the reason it failed. */
    public List<String> tried() {
        return tried;
    }
}
