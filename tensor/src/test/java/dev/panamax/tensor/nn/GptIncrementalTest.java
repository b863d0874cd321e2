package dev.panamax.tensor.nn;

import dev.panamax.tensor.Autograd;
import dev.panamax.tensor.Backends;
import dev.panamax.tensor.ScopedTest;
import dev.panamax.tensor.Shape;
import dev.panamax.tensor.Tensor;
import dev.panamax.tensor.TensorException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Gpt.forwardIncremental with a KvCache: the full forward's logits, one position (or a few) at a time. */
class GptIncrementalTest extends ScopedTest {
    private static final GptConfig CONFIG = new GptConfig(11, 9, 12, 3, 2);
    private static final double TOLERANCE = 2e-5;

    /** A random small model with random (nonzero) biases and norms, so every parameter matters. */
    private static Gpt randomModel(long seed) {
        var rng = new SplittableRandom(seed);
        Gpt gpt = new Gpt(CONFIG, rng);
        try (var _ = Autograd.noGrad()) {
            for (Tensor p : gpt.namedParameters().values()) p.copyFrom(Tensor.uniform(rng, -0.5, 0.5, p.dims()));
        }
        return gpt;
    }

    private static long[] randomIds(long seed, int n, int t) {
        var rng = new SplittableRandom(seed);
        long[] ids = new long[n * t];
        for (int i = 0; i < ids.length; i++) ids[i] = rng.nextInt(CONFIG.vocabSize());
        return ids;
    }

    /** Columns {@code from..to-1} of {@code ids (n, t)}. */
    private static Tensor columns(long[] ids, int n, int t, int from, int to) {
        long[] part = new long[n * (to - from)];
        for (int b = 0; b < n; b++) System.arraycopy(ids, b * t + from, part, b * (to - from), to - from);
        return Tensor.of(part, n, to - from);
    }

    @ParameterizedTest
    @ValueSource(strings = {"cpu", "reference"})
    void onePositionAtATimeGivesTheFullForwardsLogits(String backend) {
        try (var _ = Backends.using(backend)) {
            Gpt gpt = randomModel(1);
            int n = 2, t = CONFIG.contextLength();
            long[] ids = randomIds(2, n, t);
            Tensor full = gpt.forward(Tensor.of(ids, n, t));
            try (KvCache cache = gpt.newCache(n)) {
                for (int p = 0; p < t; p++) {
                    assertEquals(p, cache.length());
                    Tensor step = gpt.forwardIncremental(columns(ids, n, t, p, p + 1), cache);
                    assertEquals(Shape.of(n, 1, CONFIG.vocabSize()), step.shape());
                    assertArrayEquals(full.slice(1, p, p + 1).toFloatArray(), step.toFloatArray(), (float) TOLERANCE, "position " + p);
                }
                assertEquals(t, cache.length());
            }
            gpt.close();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"cpu", "reference"})
    void severalPositionsAtOnceAttendCausallyFromWhereTheCacheEnds(String backend) {
        try (var _ = Backends.using(backend)) {
            Gpt gpt = randomModel(3);
            int n = 1, t = CONFIG.contextLength();
            long[] ids = randomIds(4, n, t);
            Tensor full = gpt.forward(Tensor.of(ids, n, t));
            int[] cuts = {0, 4, 5, t};       // a prompt of 4, one position, then the rest
            try (KvCache cache = gpt.newCache(n)) {
                for (int c = 0; c + 1 < cuts.length; c++) {
                    Tensor part = gpt.forwardIncremental(columns(ids, n, t, cuts[c], cuts[c + 1]), cache);
                    assertArrayEquals(full.slice(1, cuts[c], cuts[c + 1]).toFloatArray(), part.toFloatArray(), (float) TOLERANCE,
                            "positions " + cuts[c] + ".." + (cuts[c + 1] - 1));
                }
                // cleared, the cache decodes a new sequence from position 0
                cache.clear();
                long[] other = randomIds(5, n, 3);
                assertArrayEquals(gpt.forward(Tensor.of(other, n, 3)).toFloatArray(),
                        gpt.forwardIncremental(Tensor.of(other, n, 3), cache).toFloatArray(), (float) TOLERANCE);
            }
            gpt.close();
        }
    }

    @Test
    void recordsNoGradient() {
        Gpt gpt = randomModel(6);
        try (KvCache cache = gpt.newCache(1)) {
            Tensor logits = gpt.forwardIncremental(Tensor.of(new long[] {1, 2}, 1, 2), cache);
            assertFalse(logits.requiresGrad());
            assertTrue(Autograd.isEnabled());
        }
        gpt.close();
    }

    @Test
    void refusesPositionsPastTheContextAndIdsThatDoNotFitTheCache() {
        Gpt gpt = randomModel(7);
        try (KvCache cache = gpt.newCache(1)) {
            gpt.forwardIncremental(Tensor.of(new long[CONFIG.contextLength() - 1], 1, CONFIG.contextLength() - 1), cache);
            var full = assertThrows(TensorException.class, () -> gpt.forwardIncremental(Tensor.of(new long[2], 1, 2), cache));
            assertTrue(full.getMessage().contains("cache holds 8 of 9 positions; 2 more do not fit"), full.getMessage());
            assertEquals(8, cache.length(), "a refused call leaves the cache as it was");
            var batch = assertThrows(TensorException.class, () -> gpt.forwardIncremental(Tensor.of(new long[2], 2, 1), cache));
            assertTrue(batch.getMessage().contains("expected integer token ids (1, T)"), batch.getMessage());
            var floats = assertThrows(TensorException.class, () -> gpt.forwardIncremental(Tensor.of(new float[] {1}, 1, 1), cache));
            assertTrue(floats.getMessage().contains("f32"), floats.getMessage());
            Gpt other = new Gpt(new GptConfig(11, 9, 12, 3, 1), new SplittableRandom(8));
            var foreign = assertThrows(TensorException.class, () -> other.forwardIncremental(Tensor.of(new long[1], 1, 1), cache));
            assertTrue(foreign.getMessage().contains("expected one from newCache"), foreign.getMessage());
            other.close();
        }
        assertThrows(IllegalArgumentException.class, () -> gpt.newCache(0));
        gpt.close();
    }
}
