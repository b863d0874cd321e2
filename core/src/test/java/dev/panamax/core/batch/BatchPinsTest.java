package dev.panamax.core.batch;

import dev.panamax.core.memory.NativeBuffer;
import dev.panamax.core.memory.NativeMemory;
import dev.panamax.testsupport.AllowNativeLeaks;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

/** What a batch keeps pinned is let go by clear(), by close(), and by the GC for a batch dropped unclosed. */
class BatchPinsTest {
    @Test
    void clearLetsGoOfTheHandlesItsEntriesKept() {
        long checkpoint = NativeMemory.checkpoint();
        try (Batch batch = Batch.create(BatchMode.STANDARD)) {
            NativeBuffer argument = NativeBuffer.allocate(4096);
            long address = batch.keep(argument);
            argument.close();
            assertTrue(argument.isReleased());
            assertEquals(address, heldAddresses(checkpoint, batch), "the batch's replays may still use it");
            batch.clear();
            assertEquals(0, heldAddresses(checkpoint, batch), "cleared: the closed argument is freed now");
            NativeBuffer next = NativeBuffer.allocate(64);
            batch.keep(next);
            next.close();
        }
        assertTrue(NativeMemory.outstandingSince(checkpoint).isEmpty(), "close frees what the second recording kept");
    }

    @Test
    @AllowNativeLeaks("the batch is dropped unclosed on purpose: the GC frees it and reports it")
    void aBatchDroppedUnclosedLetsGoOfItsPinsWhenTheGcFindsIt() throws InterruptedException {
        long checkpoint = NativeMemory.checkpoint();
        NativeBuffer argument = NativeBuffer.allocate(1 << 16);
        keepInADroppedBatch(argument);
        argument.close();
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (NativeMemory.outstandingSince(checkpoint).stream().anyMatch(o -> o.bytes() == 1 << 16) && System.nanoTime() < deadline) {
            System.gc();
            Thread.sleep(20);
        }
        assertTrue(NativeMemory.outstandingSince(checkpoint).stream().noneMatch(o -> o.bytes() == 1 << 16),
                "the pinned, closed argument is freed once its batch is gone: " + NativeMemory.outstandingSince(checkpoint));
    }

    private static void keepInADroppedBatch(NativeBuffer argument) {
        Batch batch = Batch.create(BatchMode.STANDARD);
        batch.keep(argument);
    }

    /** The address of the one handle made since {@code checkpoint} that is not the batch's own memory, or 0. */
    private static long heldAddresses(long checkpoint, Batch batch) {
        return NativeMemory.outstandingSince(checkpoint).stream().filter(o -> o.bytes() == 4096).mapToLong(o -> o.address()).findFirst().orElse(0);
    }
}
