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

    @Test
    void throughputBecomesGigabytesPerSecond() {
        Result r = BenchMain.inGigabytesPerSecond(new Result("copy.64m.GBps", "ops/s", 200, 150, 250, "base"), 64L << 20);
        assertEquals("GB/s", r.unit());
        assertEquals(200.0 * 67_108_864 / 1e9, r.median(), 1e-9);
        assertEquals(150.0 * 67_108_864 / 1e9, r.min(), 1e-9);
        assertEquals(250.0 * 67_108_864 / 1e9, r.max(), 1e-9);
        assertEquals("base", r.baseline());
        Result perMs = BenchMain.inGigabytesPerSecond(new Result("x", "ops/ms", 2, 1, 3, ""), 1_000_000);
        assertEquals(2.0, perMs.median(), 1e-9);   // 2000 ops/s of 1 MB
    }

    @Test
    void timePerOperationInvertsAndSwapsMinAndMax() {
        // 4 ms per 64 MiB is 16.777 GB/s; the slowest iteration (5 ms) is the new minimum
        Result r = BenchMain.inGigabytesPerSecond(new Result("fp16", "ms/op", 4, 3, 5, ""), 64L << 20);
        assertEquals("GB/s", r.unit());
        assertEquals(67_108_864 / 4e-3 / 1e9, r.median(), 1e-9);
        assertEquals(67_108_864 / 5e-3 / 1e9, r.min(), 1e-9);
        assertEquals(67_108_864 / 3e-3 / 1e9, r.max(), 1e-9);
        assertEquals(1.0, BenchMain.inGigabytesPerSecond(new Result("y", "us/op", 1000, 1000, 1000, ""), 1_000_000).median(), 1e-9);
        assertEquals(1.0, BenchMain.inGigabytesPerSecond(new Result("z", "ns/op", 1, 1, 1, ""), 1).median(), 1e-9);
    }

    @Test
    void otherUnitsAreRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> BenchMain.inGigabytesPerSecond(Result.single("rss", "MiB", 3), 1));
        assertTrue(e.getMessage().contains("figure=rss unit=MiB"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> BenchMain.inGigabytesPerSecond(Result.single("w", "ops/week", 3), 1));
    }
}
