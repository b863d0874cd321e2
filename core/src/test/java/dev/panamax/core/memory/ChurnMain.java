package dev.panamax.core.memory;

/**
 * Allocates {@code totalMiB} as {@code eachMiB} buffers, touches every page once and drops each
 * at once without closing it: only the GC can give the memory back. Prints the stats.
 */
public final class ChurnMain {
    private ChurnMain() {}

    public static void main(String[] args) {
        long total = Long.parseLong(args[0]) << 20;
        long each = Long.parseLong(args[1]) << 20;
        for (long done = 0; done < total; done += each) {
            NativeBuffer b = NativeBuffer.allocateUninitialized(each);
            b.segment().fill((byte) 1);
        }
        System.out.println("completed " + NativeMemory.stats());
    }
}
