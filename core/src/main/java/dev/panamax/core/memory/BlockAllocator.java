package dev.panamax.core.memory;

/**
 * How a {@link SizeClassPool} gets and gives back its blocks: the memory kind of a pool (host memory
 * from the C allocator, a device's {@code cl_mem}), as Netty's {@code PoolArena} takes
 * {@code newChunk}/{@code destroyChunk} from its subclass. The pool calls {@link #allocate} on a miss
 * and {@link #free} when a block leaves it (trim, caps, close); accounting against a budget belongs
 * here too, reserved in {@code allocate} and unreserved in {@code free}.
 *
 * <pre>{@code
 * BlockAllocator<Long> host = new BlockAllocator<>() {
 *     public Long allocate(long classSize, int variant) { return malloc(classSize); }
 *     public void free(Long block, long classSize, int variant) { free(block); }
 * };
 * }</pre>
 *
 * @param <B> a block: whatever the memory kind needs to use and free it
 */
public interface BlockAllocator<B> {
    /**
     * A new block of {@code classSize} bytes of the given variant; throws (never returns null) when
     * it cannot, with a message that names the size.
     */
    B allocate(long classSize, int variant);

    /** Frees a block this allocator made with the same {@code classSize} and {@code variant}. */
    void free(B block, long classSize, int variant);

    /** Told each change of the pool's idle bytes (positive: blocks went idle); for a budget that counts idle memory apart. */
    default void idleChanged(long deltaBytes) {
    }
}
