package dev.panamax.core.batch;

/** How a {@link Batch} crosses into native code. */
public enum BatchMode {
    /** A plain downcall: entries may block and may call back into Java. */
    STANDARD,
    /**
     * A {@code Linker.Option.critical(false)} downcall: cheaper, but every entry must be declared
     * critical (short, never blocking, never calling back); adding another is refused.
     */
    CRITICAL
}
