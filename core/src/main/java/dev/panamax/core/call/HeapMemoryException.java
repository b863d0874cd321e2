package dev.panamax.core.call;

/**
 * Heap memory (a segment over a Java array) was passed to a pointer parameter of a function linked
 * at a tier that cannot take it. Either declare the parameter as an array ({@link Param#in}) so it
 * is staged, link at {@link Tier#CRITICAL_HEAP}, or copy the data to native memory.
 */
public final class HeapMemoryException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;
    HeapMemoryException(String symbol, int parameter, Tier tier, Object segment) {
        super("heap memory passed where the tier cannot take it: symbol=" + symbol + " parameter=" + parameter
                + " tier=" + tier + " segment=" + segment
                + " (declare the parameter as a Java array to have it staged, link at tier=CRITICAL_HEAP"
                + " to pass it in place, or copy it to native memory)");
    }
}
