package dev.panamax.cli.demo;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

class TrainingProgressTest {
    @Test
    void figuresNotKnownYetAreDashesNotQuestionMarks() {
        assertEquals("loss - acc - -/s", TrainingProgress.message(Double.NaN, Double.NaN, Double.NaN));
        assertEquals("loss 0.4120 acc 92.1% 334/s", TrainingProgress.message(0.412, 0.921, 334.4));
    }

    @Test
    void everyLineFitsAnEightyColumnTerminalAndShowsTheMeasuredRate() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        try (TrainingProgress progress = new TrainingProgress(12_000, err)) {
            for (int step = 1; step <= 12_000; step++) {
                progress.stepDone(step, 1.0 / step);
                if (step == 6_000) progress.evaluated(step, 0.875);
            }
            Thread.sleep(5); // a measurable time since the first step, on any clock
            progress.stepDone(12_000, 1.0 / 12_000);
        }
        List<String> lines = bytes.toString(StandardCharsets.UTF_8).lines().filter(l -> !l.isBlank()).toList();
        assertFalse(lines.isEmpty(), "no progress line written");
        for (String line : lines) {
            assertTrue(line.length() <= TrainingProgress.WIDTH, "line of " + line.length() + " columns: " + line);
            assertFalse(line.contains("?/s") || line.contains("? steps"), "a rate shown as unknown: " + line);
        }
        String last = lines.getLast();
        assertTrue(last.matches(".*12000/12000.*loss 0\\.0001 acc 87\\.5% [0-9]+/s.*"), last);
    }
}
