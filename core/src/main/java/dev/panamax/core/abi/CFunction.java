package dev.panamax.core.abi;

/** A named C function: the symbol and its type. */
public record CFunction(String symbol, CFunctionType type) {
    public CFunction {
        if (symbol == null || !symbol.matches("[A-Za-z_][A-Za-z0-9_]*")) {
            throw new IllegalArgumentException("not a C identifier: symbol=" + symbol);
        }
        if (type == null) throw AbiErrors.missing("type of function " + symbol);
    }
}
