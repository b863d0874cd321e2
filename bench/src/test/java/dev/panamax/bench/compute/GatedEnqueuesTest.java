package dev.panamax.bench.compute;

import dev.panamax.bench.opencl.TinyKernel;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class GatedEnqueuesTest {
    @Test
    void gatedAndUngatedEachRunEveryDispatch() {
        try (GatedEnqueues raw = new GatedEnqueues()) {
            int total = 0;
            for (int n : new int[] {1, 5, 64}) {
                for (boolean gated : new boolean[] {true, false}) {
                    double micros = raw.run(n, gated);
                    assertTrue(micros > 0, n + (gated ? " gated" : " ungated") + ": " + micros + " us");
                    total += n;
                    assertEquals(total * TinyKernel.ADDEND, raw.firstElement(), n + (gated ? " gated" : " ungated"));
                }
            }
        }
    }
}
