package dev.panamax.bench.tensor;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ModelWorkloadsTest {
    @Test
    void theTransformerStepLearnsItsFixedBatch() {
        try (var gpt = new GptWorkload(2)) {
            double first = gpt.step();
            assertTrue(Math.abs(first - Math.log(GptWorkload.CONFIG.vocabSize())) < 0.5,
                    "a fresh model's loss is near ln(vocab): " + first);
            double last = first;
            for (int i = 0; i < 4; i++) last = gpt.step();
            assertTrue(last < first, "loss " + first + " -> " + last);
        }
    }

    @Test
    void generationGivesATokenOfTheVocabulary() {
        try (var gpt = new GptWorkload(1)) {
            long token = gpt.generate(3);
            assertTrue(token >= 0 && token < GptWorkload.CONFIG.vocabSize(), "token " + token);
            assertEquals(token, gpt.generate(3), "greedy generation from the same prompt repeats itself");
        }
    }

    @Test
    void generationWithTheCacheGivesTheTokensOfTheWholeWindowRunAgain() {
        try (var gpt = new GptWorkload(1)) {
            assertEquals(gpt.generateWithoutCache(4), gpt.generate(4), "within the context");
            // 96 + 40 tokens pass the context of 128: the cache restarts from the sliding window
            assertEquals(gpt.generateWithoutCache(40), gpt.generate(40), "past the context");
        }
    }

    @Test
    void theCnnStepLearnsItsFixedBatch() {
        try (var cnn = new CnnStep(8)) {
            double first = cnn.step(), last = first;
            for (int i = 0; i < 10; i++) last = cnn.step();
            assertTrue(Double.isFinite(first) && last < first, "loss " + first + " -> " + last);
        }
    }

    @Test
    void emptyBatchesAndNoTokensAreRefusedNamingTheValue() {
        var e = assertThrows(IllegalArgumentException.class, () -> new GptWorkload(0));
        assertTrue(e.getMessage().contains("batch=0"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new CnnStep(-1));
        assertTrue(e.getMessage().contains("batch=-1"), e.getMessage());
        try (var gpt = new GptWorkload(1)) {
            e = assertThrows(IllegalArgumentException.class, () -> gpt.generate(0));
            assertTrue(e.getMessage().contains("count=0"), e.getMessage());
        }
    }
}
