package dev.panamax.core.call;

/**
 * A native function could not be declared, found or linked: the library is missing, the symbol is
 * missing, or the declaration is not one the linker can honour. Raised before any native code runs.
 */
public sealed class NativeLinkException extends RuntimeException
        permits LibraryNotFoundException, SymbolNotFoundException {
    private static final long serialVersionUID = 1L;
    NativeLinkException(String message) {
        super(message);
    }

    NativeLinkException(String message, Throwable cause) {
        super(message, cause);
    }

    static NativeLinkException invalidDeclaration(String symbol, String problem) {
        return new NativeLinkException("invalid declaration: symbol=" + symbol + " problem=" + problem);
    }

    /** A BATCHED function asked for as a direct call ({@code link()}, {@code downcall(..., Tier.BATCHED)}). */
    static NativeLinkException recordedNotCalled(String library, String symbol, Tier tier) {
        return new NativeLinkException("not a direct call: library=" + library + " symbol=" + symbol + " tier=" + tier
                + " (a " + tier + " function is recorded into a Batch, not called: declare its C type with"
                + " type(CFunctionType) and bind it with recorder(), then record(batch, args...); to call it"
                + " directly, pick " + directTiers() + ")");
    }

    /** {@code recorder()} on a declaration that cannot be recorded. */
    static NativeLinkException cannotRecord(String library, String symbol, Tier tier, String problem) {
        return new NativeLinkException("cannot bind for recording: library=" + library + " symbol=" + symbol
                + " tier=" + tier + " problem=" + problem);
    }

    private static String directTiers() {
        return java.util.Arrays.stream(Tier.values()).filter(Tier::callsDirectly).map(Tier::name)
                .collect(java.util.stream.Collectors.joining(", "));
    }

    static NativeLinkException linkFailed(String library, String symbol, Object descriptor, Tier tier, Throwable cause) {
        return new NativeLinkException("cannot link downcall: library=" + library + " symbol=" + symbol
                + " descriptor=" + descriptor + " tier=" + tier + " reason=" + cause.getMessage(), cause);
    }
}
