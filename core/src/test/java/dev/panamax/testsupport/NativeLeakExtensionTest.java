package dev.panamax.testsupport;

import dev.panamax.core.memory.BufferPool;
import dev.panamax.core.memory.NativeBuffer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder.request;

/** Runs small fixture classes through JUnit with the extension auto-detected, as every module does. */
class NativeLeakExtensionTest {
    static final List<NativeBuffer> LEFT = new ArrayList<>();
    static final List<BufferPool> POOLS = new ArrayList<>();

    static class LeavesABufferOpen {
        @Test
        void leaves() {
            LEFT.add(NativeBuffer.allocate(100));
        }
    }

    static class LeavesAPoolOpen {
        @Test
        void leaves() {
            BufferPool pool = BufferPool.create();
            POOLS.add(pool);
            pool.acquire(64).close();
        }
    }

    static class CleansUp {
        @Test
        void closes() {
            try (NativeBuffer _ = NativeBuffer.allocate(100); BufferPool pool = BufferPool.create()) {
                pool.acquire(64).close();
            }
        }

        @Test
        void plainArenasAreNotItsBusiness() {
            Arena.ofAuto().allocate(1 << 20);
        }
    }

    static class LeaksOnPurpose {
        @Test
        @AllowNativeLeaks("checks the escape hatch")
        void leaks() {
            LEFT.add(NativeBuffer.allocate(100));
        }
    }

    static class LeavesWhatBeforeAllMade {
        @BeforeAll
        static void open() {
            LEFT.add(NativeBuffer.allocate(48));
        }

        @Test
        void uses() {
            LEFT.getFirst().segment().set(java.lang.foreign.ValueLayout.JAVA_BYTE, 0, (byte) 1);
        }
    }

    static class ReleasesWhatBeforeAllMade {
        static NativeBuffer shared;

        @BeforeAll
        static void open() {
            shared = NativeBuffer.allocate(48);
        }

        @AfterAll
        static void close() {
            shared.close();
        }

        @Test
        void uses() {
            shared.segment().set(java.lang.foreign.ValueLayout.JAVA_BYTE, 0, (byte) 1);
        }
    }

    private static TestExecutionSummary run(Class<?> fixture) {
        LauncherDiscoveryRequest req = request().selectors(selectClass(fixture))
                .configurationParameter("junit.jupiter.extensions.autodetection.enabled", "true").build();
        SummaryGeneratingListener listener = new SummaryGeneratingListener();
        LauncherFactory.create().execute(req, listener);
        return listener.getSummary();
    }

    @Test
    void failsATestThatLeavesAHandleOpenAndNamesTheSite() {
        try {
            TestExecutionSummary s = run(LeavesABufferOpen.class);
            assertEquals(1, s.getTestsFailedCount());
            String message = s.getFailures().getFirst().getException().getMessage();
            assertTrue(message.contains("1 native resource(s) created by the test and not released"), message);
            assertTrue(message.contains("NativeBuffer"), message);
            assertTrue(message.contains("bytes=100"), message);
            assertTrue(message.contains("LeavesABufferOpen.leaves(NativeLeakExtensionTest.java"), message);
        } finally {
            LEFT.forEach(NativeBuffer::close);
            LEFT.clear();
        }
    }

    @Test
    void failsATestThatLeavesAPoolOpen() {
        try {
            TestExecutionSummary s = run(LeavesAPoolOpen.class);
            assertEquals(1, s.getTestsFailedCount());
            assertTrue(s.getFailures().getFirst().getException().getMessage().contains("BufferPool"));
        } finally {
            POOLS.forEach(BufferPool::close);
            POOLS.clear();
        }
    }

    @Test
    void passesCleanTestsAndArenaUsers() {
        TestExecutionSummary s = run(CleansUp.class);
        assertEquals(2, s.getTestsSucceededCount());
        assertEquals(0, s.getTestsFailedCount());
    }

    @Test
    void failsAClassWhoseBeforeAllMadeWhatNothingReleases() {
        try {
            TestExecutionSummary s = run(LeavesWhatBeforeAllMade.class);
            assertEquals(1, s.getTestsSucceededCount(), "the test itself is clean");
            assertEquals(1, s.getContainersFailedCount());
            String message = s.getFailures().getFirst().getException().getMessage();
            assertTrue(message.contains("1 native resource(s) created outside its tests and not released"), message);
            assertTrue(message.contains("bytes=48"), message);
            assertTrue(message.contains("LeavesWhatBeforeAllMade.open(NativeLeakExtensionTest.java"), message);
        } finally {
            LEFT.forEach(NativeBuffer::close);
            LEFT.clear();
        }
    }

    @Test
    void passesAClassThatReleasesInAfterAllWhatBeforeAllMade() {
        TestExecutionSummary s = run(ReleasesWhatBeforeAllMade.class);
        assertEquals(1, s.getTestsSucceededCount());
        assertEquals(0, s.getTotalFailureCount());
    }

    @Test
    void annotatedTestsMayLeak() {
        try {
            TestExecutionSummary s = run(LeaksOnPurpose.class);
            assertEquals(1, s.getTestsSucceededCount());
            assertEquals(0, s.getTotalFailureCount(), "the class check leaves a test's own leaks to the test");
        } finally {
            LEFT.forEach(NativeBuffer::close);
            LEFT.clear();
        }
    }
}
