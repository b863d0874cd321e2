package dev.panamax.tensor.cpu;

/**
 * What the cpu backend knows about one storage across threads (kept in
 * {@link dev.panamax.tensor.spi.Storage#backendState()}): the recorder of the thread that made it, the
 * last recording that writes it, and whether a thread other than the maker's reads it. Written by
 * a thread while it holds its recorder's lock; read by others, who see what was written before the
 * tensor reached them (the same hand-over that gave them the tensor).
 */
final class Track {
    /** The recorder of the thread that made the storage (the first to touch it, for storage made elsewhere). */
    final Recorder owner;
    /** The last recording with a kernel that writes the storage, run or not; null before any. */
    Recording writer;
    /** Whether a kernel recorded by a thread other than the owner's reads the storage. */
    boolean readElsewhere;
    /**
     * The last recording that pinned the storage (a recording pins a storage once, until it ran, or
     * again when another thread's recording pinned it in between: a pin too many, never one too few).
     */
    Recording pinnedIn;

    Track(Recorder owner) {
        this.owner = owner;
    }
}
