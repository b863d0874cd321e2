package dev.panamax.core.call;

/**
 * A native function could not be declared, found or linked: the library is missing, the symbol is
 * missing, or the declaration is not one the linker can honour. Raised before any native code runs.
 */
public sealed class NativeLinkException extends RuntimeException
        permits LibraryNotFoundException, SymbolNotFoundException {
    NativeLinkException(String message) {
        super(message);
    }

    NativeLinkException(String message, Throwable cause) {
        super(message, cause);
    }

    static NativeLinkException invalidDeclaration(String symbol, String problem) {
        return new NativeLinkException("invalid declaration: symbol=" + symbol + " problem=" + problem);
    }

    static NativeLinkException linkFailed(String library, String symbol, Object descriptor, Tier tier, Throwable cause) {
        return new NativeLinkException("cannot link downcall: library=" + library + " symbol=" + symbol
                + " descriptor=" + descriptor + " tier=" + tier + " reason=" + cause.getMessage(), cause);
    }
}
