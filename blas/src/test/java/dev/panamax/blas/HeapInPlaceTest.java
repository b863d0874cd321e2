package dev.panamax.blas;

import dev.panamax.blas.binding.CBLAS;
import dev.panamax.blas.binding.CBLASApi;
import dev.panamax.blas.binding.CBLASThunks;
import dev.panamax.core.batch.Batch;
import dev.panamax.core.batch.BatchMode;
import dev.panamax.core.call.HeapMemoryException;
import dev.panamax.core.call.NativeLibrary;
import dev.panamax.core.call.Tier;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Heap arrays reach OpenBLAS in place: every CBLAS routine is declared critical_heap, so the raw
 * layer takes heap segments (FFM passes them by address, never copying), where the same symbol
 * linked on the standard tier refuses them.
 */
class HeapInPlaceTest {
    @Test
    void theRawLayerTakesHeapSegmentsTheStandardTierRefuses() throws Throwable {
        float[] x = {1, 2, 3};
        float[] y = {4, 5, 6};
        assertEquals(32f, CBLAS.cblas_sdot(3, MemorySegment.ofArray(x), 1, MemorySegment.ofArray(y), 1));
        // the typed layer's array variant passes the same segments
        assertEquals(32f, CBLASApi.cblas_sdot(3, x, 1, y, 1));

        MethodHandle standard = NativeLibrary.loadFirst(java.util.List.of("libopenblas.so.0", "openblas"))
                .function("cblas_sdot").returns(ValueLayout.JAVA_FLOAT)
                .params(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_INT)
                .tier(Tier.STANDARD).link();
        assertThrows(HeapMemoryException.class,
                () -> { float r = (float) standard.invokeExact(3, MemorySegment.ofArray(x), 1, MemorySegment.ofArray(y), 1); });
    }

    @Test
    void writesLandInTheJavaArrayItself() {
        float[] y = new float[8];
        float[] x = {1, 1, 1, 1, 1, 1, 1, 1};
        MemorySegment view = MemorySegment.ofArray(y).asSlice(4 * Float.BYTES);   // the upper half of y
        CBLAS.cblas_saxpy(4, 3f, MemorySegment.ofArray(x), 1, view, 1);
        assertArrayEquals(new float[] {0, 0, 0, 0, 3, 3, 3, 3}, y);
    }

    @Test
    void severalRoutinesInOneCrossingThroughTheGeneratedThunks() {
        try (Arena arena = Arena.ofConfined(); Batch batch = Batch.create(BatchMode.CRITICAL)) {
            MemorySegment x = arena.allocateFrom(ValueLayout.JAVA_FLOAT, 1, 2, 3, 4);
            MemorySegment y = arena.allocateFrom(ValueLayout.JAVA_FLOAT, 0, 0, 0, 0);
            for (int i = 0; i < 10; i++) CBLASThunks.cblas_saxpy.record(batch, 4, 1f, x, 1, y, 1);
            var dot = CBLASThunks.cblas_sdot.record(batch, 4, x, 1, y, 1);
            batch.run();
            assertArrayEquals(new float[] {10, 20, 30, 40}, y.toArray(ValueLayout.JAVA_FLOAT));
            assertEquals(10f * (1 + 4 + 9 + 16), dot.params().returnFloat());
        }
    }
}
