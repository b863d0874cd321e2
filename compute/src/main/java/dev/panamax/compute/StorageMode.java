package dev.panamax.compute;

/** Where a {@link Buffer}'s memory lives and who may touch it. */
public enum StorageMode {
    /** Host-visible: {@link Buffer#contents()} is a segment the CPU reads and writes, zero-copy where the device allows. */
    SHARED,
    /** Device-only: no CPU access; data moves through a {@link BlitEncoder}. */
    PRIVATE
}
