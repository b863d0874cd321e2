package dev.panamax.core.call;

/** A library was loaded but does not export the symbol asked for. */
public final class SymbolNotFoundException extends NativeLinkException {
    private final String library;
    private final String symbol;

    SymbolNotFoundException(String library, String symbol) {
        super("symbol not found: library=" + library + " symbol=" + symbol);
        this.library = library;
        this.symbol = symbol;
    }

    /** The library searched (the path or soname it was loaded from). */
    public String library() {
        return library;
    }

    /** The symbol that is missing. */
    public String symbol() {
        return symbol;
    }
}
