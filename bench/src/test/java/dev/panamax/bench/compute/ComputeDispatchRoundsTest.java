package dev.panamax.bench.compute;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ComputeDispatchRoundsTest {
    private static final Map<String, Integer> ONE = Map.of("batched1000", 1, "roundtrip", 1);
    private static final Map<String, Integer> TWO = Map.of("batched1000", 2, "roundtrip", 2);

    @Test
    void roundsRotateTheOrderAndKeepOnlyMeasuredRounds() throws Exception {
        List<String> calls = new ArrayList<>();
        int[] n = {0};
        Map<String, double[]> values = new Rounds("us")
                .side("a", "", () -> { calls.add("a"); return ++n[0]; })
                .side("b", "", () -> { calls.add("b"); return ++n[0]; })
                .values(1, 2);
        // warm-up round -1 starts with b (rotated), round 0 with a, round 1 with b
        assertEquals(List.of("b", "a", "a", "b", "b", "a"), calls);
        assertArrayEquals(new double[] {3, 6}, values.get("a"));
        assertArrayEquals(new double[] {4, 5}, values.get("b"));
    }

    @Test
    void parsesEveryRoundOfEverySide() {
        String output = """
                device pthread-test
                round batched1000 compute 0 2.5
                round batched1000 compute 1 2.25
                round batched1000 lwjgl 1 2.0
                round batched1000 lwjgl 0 2.125
                some other line
                round roundtrip compute 0 30.5
                round roundtrip compute 1 31
                round roundtrip lwjgl 0 29
                round roundtrip lwjgl 1 28.5
                """;
        var parsed = ComputeFigures.parseRounds(output, TWO, "test JVM");
        assertArrayEquals(new double[] {2.5, 2.25}, parsed.get("batched1000").get("compute"));
        assertArrayEquals(new double[] {2.125, 2.0}, parsed.get("batched1000").get("lwjgl"));
        assertArrayEquals(new double[] {29, 28.5}, parsed.get("roundtrip").get("lwjgl"));
    }

    @Test
    void refusesMalformedOrMissingRoundsNamingTheLine() {
        var bad = assertThrows(IllegalStateException.class,
                () -> ComputeFigures.parseRounds("round batched1000 compute x 2.5\n", ONE, "test JVM"));
        assertTrue(bad.getMessage().contains("test JVM, output line 1"), bad.getMessage());
        var outside = assertThrows(IllegalStateException.class,
                () -> ComputeFigures.parseRounds("round batched1000 compute 3 2.5\n", TWO, "test JVM"));
        assertTrue(outside.getMessage().contains("round 3 is outside 0..1"), outside.getMessage());
        var missing = assertThrows(IllegalStateException.class, () -> ComputeFigures.parseRounds("""
                round batched1000 compute 0 2.5
                round roundtrip compute 0 30
                round roundtrip compute 1 30
                """, TWO, "test JVM"));
        assertTrue(missing.getMessage().contains("batched1000 compute has no round 1 of 2"), missing.getMessage());
        var none = assertThrows(IllegalStateException.class, () -> ComputeFigures.parseRounds("round batched1000 compute 0 1\n", ONE, "test JVM"));
        assertTrue(none.getMessage().contains("printed no roundtrip rounds"), none.getMessage());
        var unknown = assertThrows(IllegalStateException.class, () -> ComputeFigures.parseRounds("round warp compute 0 1\n", ONE, "test JVM"));
        assertTrue(unknown.getMessage().contains("unknown figure 'warp'"), unknown.getMessage());
    }
}
