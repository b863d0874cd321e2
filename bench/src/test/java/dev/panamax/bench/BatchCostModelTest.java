package dev.panamax.bench;

import dev.panamax.bench.batch.BatchCostModel;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

class BatchCostModelTest {
    @Test
    void derivesPerCallSpeedupsAndTheLinearFit() throws Exception {
        List<Result> jmh = new ArrayList<>();
        for (int n : new int[] {1, 2, 5, 10, 20, 50, 100, 1000}) {
            jmh.add(Result.single("batch." + n + ".perBatch", "ns/op", 68 + 2.0 * n));
            jmh.add(Result.single("standard." + n + ".perBatch", "ns/op", 8.0 * n));
            jmh.add(Result.single("cloop." + n + ".perBatch", "ns/op", 3 + 1.0 * n));
        }
        List<Result> derived = new BatchCostModel().run(true, jmh);
        Result perCall = find(derived, "batch.100.perCall");
        assertEquals(2.68, perCall.median(), 1e-9);
        assertEquals("standard.100.perCall", perCall.baseline());
        assertEquals(68, find(derived, "batch.fit.a").median(), 1e-6);
        assertEquals(2, find(derived, "batch.fit.b").median(), 1e-9);
        assertEquals(800 / 268.0, find(derived, "batch.100.speedupVsStandard").median(), 1e-9);
        assertEquals(268 / 103.0, find(derived, "batch.100.vsCloop").median(), 1e-9);
        assertEquals(1.0, find(derived, "cloop.fit.b").median(), 1e-9);
    }

    private static Result find(List<Result> rs, String name) {
        return rs.stream().filter(r -> r.name().equals(name)).findFirst().orElseThrow(() -> new AssertionError(name));
    }
}
