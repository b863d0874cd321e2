package dev.panamax.bench.opencl;

import dev.panamax.bench.Result;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DispatchAlternationTest {
    @Test
    void pairsEachRoundWithTheSameRoundOfTheOtherBinding() {
        // Panamax is faster in 2 of 3 rounds of JVM 0 and in 1 of 2 of JVM 1
        List<double[]> panamax = List.of(new double[] {9, 10, 30}, new double[] {4, 6});
        List<double[]> peer = List.of(new double[] {10, 20, 15}, new double[] {5, 5});
        Result r = DispatchAlternation.paired("x", panamax, peer);
        // ratios 0.9, 0.5, 2.0 | 0.8, 1.2: median of all five is 0.9; per-JVM medians 0.9 and 1.0
        assertEquals(0.9, r.median(), 1e-12);
        assertEquals(0.9, r.min(), 1e-12);
        assertEquals(1.0, r.max(), 1e-12);
        assertEquals(3.0 / 5, DispatchAlternation.atLeastAsFast(panamax, peer), 1e-12);
        // JVM 0's median ratio 0.9 counts, JVM 1's 1.0 counts too (at least as fast includes equal)
        assertEquals(1.0, DispatchAlternation.jvmsAtLeastAsFast(panamax, peer), 1e-12);
        assertEquals(0.5, DispatchAlternation.jvmsAtLeastAsFast(List.of(new double[] {2}, new double[] {1}),
                List.of(new double[] {1}, new double[] {1})), 1e-12);
    }

    @Test
    void comparesWithTheFasterPeerByItsMedian() {
        Map<String, List<double[]>> blocks = Map.of(
                "panamax", List.of(new double[] {10, 10, 10}),
                "raw", List.of(new double[] {10, 10, 10}),
                "lwjgl", List.of(new double[] {20, 20, 20}),
                "jocl", List.of(new double[] {8, 9, 30}));
        List<Result> results = DispatchAlternation.figures(DispatchFigure.ROUNDTRIP, PoclDriver.PTHREAD, blocks);
        Result vsFaster = results.stream().filter(r -> r.name().equals("panamax.dispatch.roundtrip.paired.vs.fasterPeer"))
                .findFirst().orElseThrow();
        // JOCL's median (9) is below LWJGL's (20): Panamax / JOCL per round = 1.25, 1.11, 0.33
        assertEquals(10.0 / 9, vsFaster.median(), 1e-12);
        Result interval = results.stream().filter(r -> r.name().equals("panamax.dispatch.roundtrip.paired.vs.fasterPeer.ci95"))
                .findFirst().orElseThrow();
        assertEquals(vsFaster.median(), interval.median(), 1e-12);
        assertTrue(interval.min() <= interval.median() && interval.median() <= interval.max(), interval.toString());
        assertTrue(interval.min() >= 10.0 / 30 && interval.max() <= 10.0 / 8, "within the rounds' ratios: " + interval);
        Result alternating = results.stream().filter(r -> r.name().equals("jocl.dispatch.roundtrip.alternating.us"))
                .findFirst().orElseThrow();
        assertEquals(9, alternating.median(), 1e-12);
        assertEquals(8, alternating.min(), 1e-12);
        assertEquals(30, alternating.max(), 1e-12);
        assertEquals("raw.dispatch.roundtrip.alternating.us", alternating.baseline());
    }

    @Test
    void theIntervalOfAClearDifferenceExcludesOneAndThatOfATieHoldsIt() {
        java.util.Random noise = new java.util.Random(7);
        List<double[]> slower = new java.util.ArrayList<>();
        List<double[]> level = new java.util.ArrayList<>();
        for (int jvm = 0; jvm < 12; jvm++) {
            // each JVM draws its own offset (±3%), as the JVMs on a shared host do
            double draw = 1 + (noise.nextDouble() - 0.5) * 0.06;
            double[] s = new double[40];
            double[] l = new double[40];
            for (int r = 0; r < 40; r++) {
                s[r] = 1.10 * draw * (1 + noise.nextGaussian() * 0.05);
                l[r] = draw * (1 + noise.nextGaussian() * 0.05);
            }
            slower.add(s);
            level.add(l);
        }
        PairedInterval clear = PairedInterval.of(slower, 0.95, PairedInterval.RESAMPLES, 1);
        assertTrue(clear.low() > 1.05 && clear.high() < 1.15, clear.toString());
        assertTrue(!clear.contains(1.0), clear.toString());
        PairedInterval tie = PairedInterval.of(level, 0.95, PairedInterval.RESAMPLES, 1);
        assertTrue(tie.contains(1.0), tie.toString());
        assertTrue(tie.high() - tie.low() < 0.1, "a dozen JVMs of 40 rounds pin the median to a few percent: " + tie);
        assertEquals(tie, PairedInterval.of(level, 0.95, PairedInterval.RESAMPLES, 1), "same data, same seed, same interval");
        PairedInterval wider = PairedInterval.of(level, 0.99, PairedInterval.RESAMPLES, 1);
        assertTrue(wider.low() <= tie.low() && wider.high() >= tie.high(), wider + " against " + tie);
    }

    @Test
    void anIntervalOfNothingIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> PairedInterval.of(List.of(new double[] {1}, new double[0]), 0.95, 10, 1));
        assertTrue(e.getMessage().contains("at least one round"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> PairedInterval.of(List.of(), 0.95, 10, 1));
        assertThrows(IllegalArgumentException.class, () -> PairedInterval.of(List.of(new double[] {1}), 1.0, 10, 1));
        assertThrows(IllegalArgumentException.class, () -> PairedInterval.of(List.of(new double[] {1}), 0.95, 0, 1));
    }

    @Test
    void everyBindingIsSetUpInEveryPlaceOnce() {
        int n = AlternatingDispatch.ALL.size();
        for (int place = 0; place < n; place++) {
            Set<String> seen = new HashSet<>();
            for (int jvm = 0; jvm < n; jvm++) seen.add(DispatchAlternation.setUpOrder(jvm).get(place));
            assertEquals(Set.copyOf(AlternatingDispatch.ALL), seen, "place " + place);
        }
    }

    @Test
    void namesTheFiguresOfTheBasicDriverApartFromTheDefaultOnes() {
        Map<String, List<double[]>> blocks = Map.of(
                "panamax", List.of(new double[] {1, 1}),
                "raw", List.of(new double[] {1, 1}),
                "lwjgl", List.of(new double[] {2, 2}));
        Set<String> basic = new HashSet<>();
        for (Result r : DispatchAlternation.figures(DispatchFigure.BATCHED1000, PoclDriver.BASIC, blocks)) basic.add(r.name());
        assertTrue(basic.contains("panamax.dispatch.basic.batched1000.perKernel.paired.vs.fasterPeer.ci95"), basic.toString());
        assertTrue(basic.contains("lwjgl.dispatch.basic.batched1000.perKernel.alternating.us"), basic.toString());
        assertTrue(basic.stream().allMatch(n -> n.contains(".dispatch.basic.")), basic.toString());
        Set<String> pthread = new HashSet<>();
        for (Result r : DispatchAlternation.figures(DispatchFigure.BATCHED1000, PoclDriver.PTHREAD, blocks)) pthread.add(r.name());
        assertTrue(pthread.contains("panamax.dispatch.batched1000.perKernel.paired.vs.fasterPeer"), pthread.toString());
        assertTrue(pthread.stream().noneMatch(basic::contains), pthread.toString());
    }

    @Test
    void readsTheDeviceAChildRanOnAndTellsTheDriverByItsName() {
        assertEquals("basic-haswell-AMD EPYC", DispatchAlternation.device("warning\ndevice basic-haswell-AMD EPYC\nblock x\n"));
        assertEquals(null, DispatchAlternation.device("block roundtrip raw 0 1.0\n"));
        assertTrue(PoclDriver.BASIC.drives("basic-haswell-AMD EPYC"));
        assertTrue(PoclDriver.PTHREAD.drives("pthread-haswell-AMD EPYC"));
        assertTrue(!PoclDriver.PTHREAD.drives("basic-haswell-AMD EPYC") && !PoclDriver.BASIC.drives("NVIDIA GeForce"));
    }

    @Test
    void parsesBlocksAndNamesWhatIsWrong() {
        String out = """
                some JVM warning
                block roundtrip raw 0 40.5
                block roundtrip raw 1 41.5
                block setArgs3 raw 0 2.5
                block setArgs3 raw 1 2.25
                """;
        var parsed = DispatchAlternation.parse(out, 2);
        assertEquals(41.5, parsed.get(DispatchFigure.ROUNDTRIP).get("raw")[1]);
        assertEquals(2.25, parsed.get(DispatchFigure.SET_ARGS3).get("raw")[1]);

        var missing = assertThrows(IllegalStateException.class,
                () -> DispatchAlternation.parse("block roundtrip raw 0 40.5\n", 2));
        assertTrue(missing.getMessage().contains("roundtrip of raw is missing rounds"), missing.getMessage());
        var malformed = assertThrows(IllegalArgumentException.class,
                () -> DispatchAlternation.parse("block roundtrip raw 0\n", 1));
        assertTrue(malformed.getMessage().contains("line 1"), malformed.getMessage());
        var unknown = assertThrows(IllegalArgumentException.class,
                () -> DispatchAlternation.parse("block sideways raw 0 1.0\n", 1));
        assertTrue(unknown.getMessage().contains("segment=sideways"), unknown.getMessage());
    }

    @Test
    void readsTheDelayOfAProbeAndRejectsAMalformedOne() {
        assertEquals(100, AlternatingDispatch.delayNanos("panamax.rawLayer.delay100"));
        assertEquals(0, AlternatingDispatch.delayNanos("panamax.rawLayer.delay0"));
        for (String bad : List.of("panamax.rawLayer.delay", "panamax.rawLayer.delay-5", "panamax.rawLayer.delay1e3",
                "panamax.rawLayer.delay9999999999")) {
            var e = assertThrows(IllegalArgumentException.class, () -> AlternatingDispatch.delayNanos(bad));
            assertTrue(e.getMessage().contains("name=" + bad) && e.getMessage().contains("expected"), e.getMessage());
        }
    }
}
