package dev.panamax.core.memory;

import dev.panamax.testsupport.AllowNativeLeaks;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.*;

@AllowNativeLeaks("these tests leak handles on purpose to see them reported")
class LeakDetectionTest {
    private final List<LeakReport> reports = new CopyOnWriteArrayList<>();
    private final LeakListener listener = reports::add;
    private final LeakLevel levelBefore = LeakDetection.level();

    @AfterEach
    void restore() {
        LeakDetection.removeListener(listener);
        LeakDetection.setLevel(levelBefore);
    }

    private static void leakOne(String hint) {
        NativeBuffer.allocate(48).touch(hint).touch(hint + "-again");
    }

    private List<LeakReport> awaitReports(int atLeast, long checkpoint) throws InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (System.nanoTime() < deadline) {
            List<LeakReport> mine = reports.stream().filter(r -> r.id() >= checkpoint).toList();
            if (mine.size() >= atLeast) return mine;
            System.gc();
            NativeMemory.cleanUnreachable();
            Thread.sleep(10);
        }
        return reports.stream().filter(r -> r.id() >= checkpoint).toList();
    }

    @Test
    void paranoidReportsAllocationSiteAndTouches() throws Exception {
        LeakDetection.setLevel(LeakLevel.PARANOID);
        LeakDetection.addListener(listener);
        long checkpoint = NativeMemory.checkpoint();
        long gcReleasesBefore = NativeMemory.stats().releasedByGc();
        leakOne("first-touch");
        List<LeakReport> mine = awaitReports(1, checkpoint);
        assertEquals(1, mine.size(), mine.toString());
        LeakReport r = mine.getFirst();
        assertEquals("NativeBuffer", r.type());
        assertEquals(48, r.byteSize());
        assertTrue(r.allocationSite().contains("LeakDetectionTest.leakOne"), r.allocationSite());
        assertEquals(List.of("first-touch", "first-touch-again"), r.touches().stream().map(LeakReport.Touch::hint).toList());
        assertTrue(r.describe().startsWith("LEAK: native handle released by the GC"), r.describe());
        assertTrue(r.describe().contains("type=NativeBuffer"), r.describe());
        assertTrue(NativeMemory.stats().releasedByGc() > gcReleasesBefore);
    }

    @Test
    void leaksFromOneSiteAreReportedOnce() throws Exception {
        LeakDetection.setLevel(LeakLevel.PARANOID);
        LeakDetection.addListener(listener);
        long checkpoint = NativeMemory.checkpoint();
        long seenBefore = LeakDetection.leaksReported();
        for (int i = 0; i < 20; i++) NativeBuffer.allocate(16);
        NativeBuffer.allocate(24); // another line, another report
        long deadline = System.nanoTime() + 10_000_000_000L;
        while ((LeakDetection.leaksReported() - seenBefore < 21
                || reports.stream().filter(r -> r.id() >= checkpoint).count() < 2) && System.nanoTime() < deadline) {
            System.gc();
            NativeMemory.cleanUnreachable();
            Thread.sleep(10);
        }
        assertEquals(21, LeakDetection.leaksReported() - seenBefore, "every leak is counted");
        List<LeakReport> mine = reports.stream().filter(r -> r.id() >= checkpoint).toList();
        assertEquals(2, mine.size(), "deduplicated by allocation stack: " + mine);
    }

    @Test
    void disabledReportsNothingButStillCountsGcReleases() throws Exception {
        LeakDetection.setLevel(LeakLevel.DISABLED);
        LeakDetection.addListener(listener);
        long checkpoint = NativeMemory.checkpoint();
        long gcBefore = NativeMemory.stats().releasedByGc();
        for (int i = 0; i < 5; i++) NativeBuffer.allocate(16);
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (NativeMemory.stats().releasedByGc() - gcBefore < 5 && System.nanoTime() < deadline) {
            System.gc();
            NativeMemory.cleanUnreachable();
            Thread.sleep(10);
        }
        assertTrue(NativeMemory.stats().releasedByGc() - gcBefore >= 5);
        assertEquals(List.of(), reports.stream().filter(r -> r.id() >= checkpoint).toList());
    }

    @Test
    void sampledTracksAboutOneHandleIn128() {
        LeakDetection.setLevel(LeakLevel.SAMPLED);
        long checkpoint = NativeMemory.checkpoint();
        List<NativeBuffer> held = new java.util.ArrayList<>();
        for (int i = 0; i < 128 * 40; i++) held.add(NativeBuffer.allocate(1));
        long tracked = NativeMemory.outstandingSince(checkpoint).stream().filter(o -> !o.allocation().isEmpty()).count();
        held.forEach(NativeBuffer::close);
        // 40 expected; the chance of falling outside [10, 90] is negligible
        assertTrue(tracked >= 10 && tracked <= 90, "tracked=" + tracked);
    }

    @Test
    void levelPropertyIsParsedStrictly() {
        assertEquals(LeakLevel.PARANOID, LeakDetection.parse("paranoid"));
        assertEquals(LeakLevel.SAMPLED, LeakDetection.parse(null));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> LeakDetection.parse("loud"));
        assertEquals("setting -Dpanamax.leakDetection=loud: expected one of DISABLED, SAMPLED, PARANOID", e.getMessage());
    }

    @Test
    void testsRunParanoid() {
        assertEquals(LeakLevel.PARANOID, levelBefore, "the parent pom runs every test with -Dpanamax.leakDetection=PARANOID");
    }
}
