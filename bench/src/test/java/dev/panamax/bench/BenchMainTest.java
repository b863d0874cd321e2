package dev.panamax.bench;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

class BenchMainTest {
    @Test
    void jsonHasSuiteAndResultsWithMedianMinMax() {
        String json = BenchMain.json("calls", List.of(
                new Result("raw.standard.nop", "ns/op", 7.25, 7.0, 8.0, ""),
                new Result("panamax.standard.nop", "ns/op", 7.5, 7.1, 9.0, "raw.standard.nop")));
        assertTrue(json.startsWith("{\"suite\": \"calls\", \"results\": ["), json);
        assertTrue(json.contains("{\"name\": \"raw.standard.nop\", \"unit\": \"ns/op\", \"median\": 7.25, \"min\": 7.0, \"max\": 8.0}"), json);
        assertTrue(json.contains("\"baseline\": \"raw.standard.nop\""), json);
    }

    @Test
    void tableShowsRatioToBaseline() {
        String t = BenchMain.table(List.of(
                new Result("raw.standard.nop", "ns/op", 8, 8, 8, ""),
                new Result("panamax.standard.nop", "ns/op", 10, 10, 10, "raw.standard.nop")));
        assertTrue(t.contains("1.25x raw.standard.nop"), t);
    }

    @Test
    void nonFiniteNumbersBecomeNull() {
        String json = BenchMain.json("x", List.of(Result.single("a", "ms", Double.NaN)));
        assertTrue(json.contains("\"median\": null"), json);
    }
}
