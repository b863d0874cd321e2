package dev.panamax.core.call;

/** A library was loaded but does not export the symbol asked for. */
public final class SymbolNotFoundException extends NativeLinkException {
    private static final long serialVersionUID = 1L;
    private final String library;
    private final String symbol;

    SymbolNotFoundException(String library, String symbol) {
        this(library, symbol, "symbol not found: library=" + library + " symbol=" + symbol);
    }

    private SymbolNotFoundException(String library, String symbol, String message) {
        super(message);
        this.library = library;
        this.symbol = symbol;
    }

    /** The MetaABI thunk of {@code function}, which a {@link Tier#BATCHED} binding records, is missing. */
    static SymbolNotFoundException thunk(String library, String thunkSymbol, String function) {
        return new SymbolNotFoundException(library, thunkSymbol, "thunk not found: library=" + library
                + " symbol=" + thunkSymbol + " function=" + function + " tier=" + Tier.BATCHED
                + " expected=the MetaABI thunk void *" + thunkSymbol + "(void *param) exported by this library"
                + " (mark the function batchable in its declarations file, generate its thunks and link them"
                + " into the library)");
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
