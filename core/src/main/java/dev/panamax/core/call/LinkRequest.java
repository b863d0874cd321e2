package dev.panamax.core.call;

/**
 * What one linked downcall is cached under: the symbol, its declared signature, its tier and its
 * errno convention. Two equal requests to the same library share one method handle.
 */
record LinkRequest(String symbol, Signature signature, Tier tier, ErrnoCheck errnoCheck) {
}
