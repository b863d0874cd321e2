package dev.panamax.cli.demo;

import com.fasterxml.jackson.jr.ob.JSON;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static dev.panamax.cli.demo.MlpDemoCommandTest.Run;
import static dev.panamax.cli.demo.MlpDemoCommandTest.with;
import static org.junit.jupiter.api.Assertions.*;

/** {@code panamax demo}: the transformer on a tiny configuration (samples, JSON, checkpoints) and every kind of bad input. */
class DemoCommandTest {
    /** A model small enough to train a few steps in about a second. */
    static final String[] TINY = {"--dim", "16", "--heads", "2", "--layers", "1", "--context", "16", "--batch", "4",
            "--sample-length", "24", "--backend", "cpu"};

    static Run demo(String... args) {
        return MlpDemoCommandTest.run(with(new String[] {"demo"}, args));
    }

    @Test
    void trainsAFewStepsPrintsSamplesAndWritesTheSummary(@TempDir Path dir) throws IOException {
        Path json = dir.resolve("demo.json"), png = dir.resolve("loss.png");
        Run r = demo(with(TINY, "--steps", "4", "--sample-every", "2", "--json", json.toString(), "--plot", png.toString()));
        assertEquals(0, r.exit(), r.err() + r.out());
        assertTrue(r.out().contains("Shakespeare"), r.out());
        assertTrue(r.out().contains("sample at step 2:"), "a sample along the way: " + r.out());
        assertTrue(r.out().contains("sample    (temperature 0.8, after 4 steps):"), r.out());
        assertTrue(r.out().contains("tokens/s training"), r.out());
        assertTrue(r.err().contains("4/4"), "the progress bar reaches the last step:\n" + r.err());
        Map<String, Object> summary = JSON.std.mapFrom(Files.readString(json));
        for (String field : new String[] {"trainLoss", "valLoss", "tokensPerSecond", "generationTokensPerSecond"}) {
            double v = ((Number) summary.get(field)).doubleValue();
            assertTrue(v > 0 && Double.isFinite(v), field + "=" + v + " in " + summary);
        }
        // 62 characters: an untrained model's loss is about ln(62) = 4.1 nats
        assertTrue(((Number) summary.get("valLoss")).doubleValue() < 5, summary.toString());
        assertEquals(24, ((String) summary.get("sample")).codePointCount(0, ((String) summary.get("sample")).length()));
        assertNotNull(javax.imageio.ImageIO.read(png.toFile()), "a readable PNG");
    }

    @Test
    void aSavedCheckpointResumesOrOnlySamples(@TempDir Path dir) throws IOException {
        Path checkpoint = dir.resolve("run.safetensors"), json = dir.resolve("s.json");
        Run first = demo(with(TINY, "--steps", "3", "--sample-every", "0", "--save", checkpoint.toString()));
        assertEquals(0, first.exit(), first.err() + first.out());
        assertTrue(first.out().contains("saved     " + checkpoint), first.out());

        Run sample = demo(with(TINY, "--steps", "0", "--load", checkpoint.toString(), "--json", json.toString()));
        assertEquals(0, sample.exit(), sample.err() + sample.out());
        assertTrue(sample.out().contains("loaded    " + checkpoint + " at step 3"), sample.out());
        assertTrue(sample.out().contains("after 3 steps"), sample.out());
        Map<String, Object> summary = JSON.std.mapFrom(Files.readString(json));
        assertEquals(3, ((Number) summary.get("steps")).intValue());
        assertTrue(((Number) summary.get("generationTokensPerSecond")).doubleValue() > 0, summary.toString());

        Run resumed = demo(with(TINY, "--steps", "2", "--sample-every", "0", "--load", checkpoint.toString(), "--save", checkpoint.toString()));
        assertEquals(0, resumed.exit(), resumed.err() + resumed.out());
        assertTrue(resumed.out().contains("after 5 steps"), resumed.out());
    }

    @Test
    void aCapturedStepTrainsExactlyAsAnEagerOne(@TempDir Path dir) throws IOException {
        // the default captures the step on its second run and replays it from the third, with the
        // learning rate warming up and decaying under it: the losses must be the eager run's, bit for bit
        Path captured = dir.resolve("captured.json"), eager = dir.resolve("eager.json");
        Run c = demo(with(TINY, "--steps", "12", "--sample-every", "5", "--json", captured.toString()));
        assertEquals(0, c.exit(), c.err() + c.out());
        Run e = demo(with(TINY, "--steps", "12", "--sample-every", "5", "--eager", "--json", eager.toString()));
        assertEquals(0, e.exit(), e.err() + e.out());
        Map<String, Object> a = JSON.std.mapFrom(Files.readString(captured)), b = JSON.std.mapFrom(Files.readString(eager));
        for (String field : new String[] {"trainLoss", "valLoss", "sample"}) assertEquals(b.get(field), a.get(field), field);
    }

    @Test
    void aCheckpointOfAnotherArchitectureNamesTheTensorsThatDiffer(@TempDir Path dir) {
        Path checkpoint = dir.resolve("small.safetensors");
        assertEquals(0, demo(with(TINY, "--steps", "1", "--save", checkpoint.toString())).exit());
        Run r = demo("--dim", "32", "--heads", "2", "--layers", "2", "--context", "16", "--batch", "4", "--backend", "cpu",
                "--steps", "0", "--load", checkpoint.toString());
        assertEquals(1, r.exit(), r.out() + r.err());
        assertTrue(r.err().startsWith("panamax demo: " + checkpoint + " does not fit the model"), r.err());
        assertTrue(r.err().contains("tensor 'tokens.weight' has shape (62, 16); the model's parameter has (62, 32)"), r.err());
        assertTrue(r.err().contains("parameter 'blocks.1.ln1.weight' (32,) is missing"), r.err());
        assertFalse(r.err().contains("\tat "), "no stack trace: " + r.err());
    }

    @Test
    void aCheckpointRecordsTheModelSizesSoLoadingNeedsNone(@TempDir Path dir) {
        Path checkpoint = dir.resolve("tiny.safetensors");
        Run saved = demo(with(TINY, "--steps", "1", "--sample-every", "0", "--save", checkpoint.toString()));
        assertEquals(0, saved.exit(), saved.err() + saved.out());
        Run r = demo("--backend", "cpu", "--batch", "4", "--steps", "0", "--load", checkpoint.toString());
        assertEquals(0, r.exit(), r.out() + r.err());
        String model = saved.out().lines().filter(l -> l.startsWith("model ")).findFirst().orElseThrow();
        assertTrue(r.out().contains(model.substring(0, model.indexOf(" parameters") + 11)), model + " vs " + r.out());
    }

    @Test
    void aCheckpointOfAnotherArchitectureListsTheFirstDifferencesOnly(@TempDir Path dir) {
        Path checkpoint = dir.resolve("small.safetensors");
        assertEquals(0, demo(with(TINY, "--steps", "1", "--save", checkpoint.toString())).exit());
        Run r = demo("--dim", "32", "--heads", "2", "--layers", "2", "--context", "16", "--batch", "4", "--backend", "cpu",
                "--steps", "0", "--load", checkpoint.toString());
        assertEquals(1, r.exit(), r.out() + r.err());
        assertTrue(r.err().contains("of another shape in all)"), r.err());
        assertTrue(r.err().contains("tensors in all)"), r.err());
        assertTrue(r.err().length() < 1500, "a readable error, not every tensor: " + r.err());
    }

    @Test
    void aFileThatIsNoCheckpointIsRefused(@TempDir Path dir) throws IOException {
        Path notOne = Files.writeString(dir.resolve("x.safetensors"), "hello");
        Run r = demo(with(TINY, "--steps", "0", "--load", notOne.toString()));
        assertEquals(1, r.exit(), r.out() + r.err());
        assertTrue(r.err().startsWith("panamax demo: " + notOne + ": cannot be read as a safetensors checkpoint"), r.err());
        assertFalse(r.err().contains("\tat "), r.err());
    }

    @Test
    void badTextFilesAreRefusedNamingTheFile(@TempDir Path dir) throws IOException {
        expectError(Files.write(dir.resolve("empty.txt"), new byte[0]), "is empty; expected a UTF-8 text file");
        expectError(Files.write(dir.resolve("nul.txt"), new byte[] {'a', 'b', 0, 'c'}), "has a NUL byte at offset 2, so it is binary");
        expectError(Files.write(dir.resolve("latin1.txt"), new byte[] {'c', 'a', 'f', (byte) 0xE9, ' ', 'n', 'o', 'i', 'r'}),
                "is not valid UTF-8");
        expectError(Files.writeString(dir.resolve("short.txt"), "To be, or not to be"),
                "has 19 characters, too few for one context window of 16 characters to train on and one to validate on; expected at least 170");
        expectError(dir.resolve("missing.txt"), "no such file");
    }

    @Test
    void trainsOnTheUsersText(@TempDir Path dir) throws IOException {
        Path text = Files.writeString(dir.resolve("abc.txt"), "the quick brown fox jumps over the lazy dog. ".repeat(20));
        Run r = demo(with(TINY, "--steps", "2", "--sample-every", "0", "--data", text.toString()));
        assertEquals(0, r.exit(), r.err() + r.out());
        assertTrue(r.out().contains("abc.txt (900 characters): 900 characters, 28 distinct"), r.out());
    }

    @Test
    void theCnnDemoLearnsTheShapes() {
        Run r = MlpDemoCommandTest.run("demo", "cnn", "--steps", "40", "--backend", "cpu");
        assertEquals(0, r.exit(), r.err() + r.out());
        assertTrue(r.out().contains("accuracy  "), r.out());
        double accuracy = Double.parseDouble(r.out().replaceAll("(?s).*accuracy  ([0-9.]+)%.*", "$1"));
        assertTrue(accuracy > 40, "better than chance (25%): " + r.out());
    }

    private static void expectError(Path file, String expected) {
        Run r = demo(with(TINY, "--steps", "1", "--data", file.toString()));
        assertEquals(1, r.exit(), r.out() + r.err());
        assertTrue(r.err().startsWith("panamax demo: " + file + ": "), "names the file: " + r.err());
        assertTrue(r.err().contains(expected), "expected '" + expected + "' in: " + r.err());
        assertFalse(r.err().contains("\tat "), "no stack trace: " + r.err());
    }
}
