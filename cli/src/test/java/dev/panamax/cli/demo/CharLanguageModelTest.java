package dev.panamax.cli.demo;

import dev.panamax.tensor.Backends;
import dev.panamax.tensor.TensorScope;
import dev.panamax.tensor.nn.GptConfig;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** CharLanguageModel.generate: the key/value cache draws the tokens that re-running each window draws. */
class CharLanguageModelTest {

    @ParameterizedTest
    @ValueSource(strings = {"cpu", "reference"})
    void cachedGenerationDrawsWhatRerunningTheWindowDraws(String backend) {
        int[] vocabulary = new int[13];
        for (int i = 0; i < vocabulary.length; i++) vocabulary[i] = 'a' + i;
        try (var _ = Backends.using(backend); var _ = TensorScope.open()) {
            var model = new CharLanguageModel(new GptConfig(vocabulary.length, 8, 16, 2, 2), vocabulary, new SplittableRandom(1));
            int[] shortPrompt = {3};
            int[] longPrompt = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};       // longer than the context: starts with a window
            for (int[] prompt : new int[][] {shortPrompt, longPrompt}) {
                for (int topK : new int[] {0, 4}) {
                    // 20 tokens: the window fills, then slides
                    int[] cached = model.generate(prompt, 20, 0.8, topK, new SplittableRandom(2));
                    int[] rerun = model.generateWithoutCache(prompt, 20, 0.8, topK, new SplittableRandom(2));
                    assertEquals(20, cached.length);
                    assertArrayEquals(rerun, cached, "prompt of " + prompt.length + ", top-" + topK);
                }
            }
            model.close();
        }
    }
}
