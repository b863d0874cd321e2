package dev.panamax.testsupport;

import dev.panamax.core.memory.LeakDetection;
import dev.panamax.core.memory.LeakListener;
import dev.panamax.core.memory.LeakReport;
import dev.panamax.core.memory.NativeMemory;
import dev.panamax.core.memory.Outstanding;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.commons.support.AnnotationSupport;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.LongPredicate;

/**
 * Fails a test that leaves Panamax native resources behind: handles (or pools) created during
 * the test and not released when it ends, handles the GC had to release during the test (leaks,
 * reported by {@link LeakDetection}), or more bytes held by handles than before the test.
 * Only Panamax's own accounting counts: memory a test allocates through plain FFM arenas is none
 * of this extension's business. Exempt a test with {@link AllowNativeLeaks}.
 *
 * <p>A test class is checked as a whole too: what its {@code @BeforeAll} and {@code @AfterAll} methods
 * (or anything else outside its tests) create must be released by the time the class is done. What a
 * test creates is that test's business, checked when it ends, so an exempt test's leaks are not
 * counted twice.
 *
 * <p>Registered automatically in every module that has panamax-test-support on its test class
 * path (ServiceLoader; the parent pom turns on {@code junit.jupiter.extensions.autodetection.enabled})
 * and runs with leak detection PARANOID, so failures name the allocation site.
 */
public final class NativeLeakExtension implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback {
    private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(NativeLeakExtension.class);

    /**
     * Watching from a checkpoint on: the resources created since it, and the leaks the GC reported of
     * them.
     */
    private record Watch(long checkpoint, LeakListener listener, List<LeakReport> leaks) {
        static Watch start() {
            List<LeakReport> leaks = new CopyOnWriteArrayList<>();
            long checkpoint = NativeMemory.checkpoint();
            LeakListener listener = r -> {
                if (r.id() >= checkpoint) leaks.add(r);
            };
            LeakDetection.addListener(listener);
            return new Watch(checkpoint, listener, leaks);
        }

        /** What is still held and what the GC had to release, among the ids {@code counts} accepts; empty when none. */
        StringBuilder problems(LongPredicate counts, String createdWhere) {
            NativeMemory.cleanUnreachable();
            List<Outstanding> outstanding = NativeMemory.outstandingSince(checkpoint).stream().filter(o -> counts.test(o.id())).toList();
            List<LeakReport> released = leaks.stream().filter(r -> counts.test(r.id())).toList();
            StringBuilder problems = new StringBuilder();
            if (!outstanding.isEmpty()) {
                problems.append("\n  ").append(outstanding.size()).append(" native resource(s) created ").append(createdWhere)
                        .append(" and not released:");
                outstanding.stream().limit(20).forEach(o -> problems.append("\n    ").append(o.describe()));
            }
            if (!released.isEmpty()) {
                problems.append("\n  ").append(released.size()).append(" leak(s) released by the GC instead of by code:");
                released.stream().limit(5).forEach(r -> problems.append("\n    ").append(r.describe().replace("\n", "\n    ")));
            }
            return problems;
        }

        void stop() {
            LeakDetection.removeListener(listener);
        }
    }

    /** What the extension noted before the test. */
    private record Before(Watch watch, long heldBytes) {}

    /** What the extension noted before the test class, and the ids each of its tests used, as [first, end). */
    private record BeforeClass(Watch watch, List<long[]> tests) {
        boolean madeByATest(long id) {
            for (long[] t : tests) if (id >= t[0] && id < t[1]) return true;
            return false;
        }
    }

    /** Where the running test's ids begin. */
    private record TestStart(long checkpoint) {}

    @Override
    public void beforeAll(ExtensionContext context) {
        if (exempt(context)) return;
        context.getStore(NS).put(BeforeClass.class, new BeforeClass(Watch.start(), new CopyOnWriteArrayList<>()));
    }

    @Override
    public void afterAll(ExtensionContext context) {
        BeforeClass before = context.getStore(NS).remove(BeforeClass.class, BeforeClass.class);
        if (before == null) return;
        try {
            StringBuilder problems = before.watch().problems(id -> !before.madeByATest(id), "outside its tests");
            if (!problems.isEmpty()) {
                throw new AssertionError("test class leaves native memory behind: class=" + context.getDisplayName() + problems
                        + "\n  (release in @AfterAll what @BeforeAll creates, or annotate the class @AllowNativeLeaks(\"why\"))");
            }
        } finally {
            before.watch().stop();
        }
    }

    /**
     * The ids of the handles made by tests that leak on purpose ({@link AllowNativeLeaks}), as [first,
     * end) ranges, the running test's end open: the leak logger drops their reports, which may come
     * from the GC's thread after the test has ended, so a passing run prints no SEVERE report of a leak
     * it meant to make. The reports still reach the listeners such tests check them with.
     */
    private static final List<long[]> DELIBERATE = new CopyOnWriteArrayList<>();
    private static final java.util.logging.Logger LEAK_LOG = java.util.logging.Logger.getLogger("dev.panamax.core.memory.leak");
    private static final java.util.regex.Pattern REPORTED_ID = java.util.regex.Pattern.compile("\\bid=(\\d+)");

    static {
        java.util.logging.Filter before = LEAK_LOG.getFilter();
        LEAK_LOG.setFilter(record -> !madeOnPurpose(record.getMessage()) && (before == null || before.isLoggable(record)));
    }

    private static boolean madeOnPurpose(String message) {
        if (message == null) return false;
        java.util.regex.Matcher m = REPORTED_ID.matcher(message);
        if (!m.find()) return false;
        long id = Long.parseLong(m.group(1));
        for (long[] r : DELIBERATE) if (id >= r[0] && id < r[1]) return true;
        return false;
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        context.getStore(NS).put(TestStart.class, new TestStart(NativeMemory.checkpoint()));
        if (exempt(context)) {
            long[] range = {NativeMemory.checkpoint(), Long.MAX_VALUE};
            DELIBERATE.add(range);
            context.getStore(NS).put(long[].class, range);
            return;
        }
        context.getStore(NS).put(Before.class, new Before(Watch.start(), NativeMemory.heldBytes()));
    }

    @Override
    public void afterEach(ExtensionContext context) {
        TestStart start = context.getStore(NS).remove(TestStart.class, TestStart.class);
        if (start != null) {
            long[] range = {start.checkpoint(), NativeMemory.checkpoint()};
            // every enclosing class (nested ones included) learns the test's ids
            for (ExtensionContext c = context; c != null; c = c.getParent().orElse(null)) {
                BeforeClass enclosing = c.getStore(NS).get(BeforeClass.class, BeforeClass.class);
                if (enclosing != null && !enclosing.tests().contains(range)) enclosing.tests().add(range);
            }
        }
        long[] deliberate = context.getStore(NS).remove(long[].class, long[].class);
        if (deliberate != null) {
            DELIBERATE.remove(deliberate);
            DELIBERATE.add(new long[] {deliberate[0], NativeMemory.checkpoint()});
        }
        Before before = context.getStore(NS).remove(Before.class, Before.class);
        if (before == null) return;
        try {
            StringBuilder problems = before.watch().problems(id -> true, "by the test");
            long held = NativeMemory.heldBytes();
            if (problems.isEmpty() && held > before.heldBytes()) {
                problems.append("\n  native bytes held by handles grew: before=").append(before.heldBytes())
                        .append(" after=").append(held);
            }
            if (!problems.isEmpty()) {
                throw new AssertionError("test leaves native memory behind: test=" + context.getDisplayName()
                        + problems + "\n  (close or release them, use a NativeScope, or annotate the test @AllowNativeLeaks(\"why\"))");
            }
        } finally {
            before.watch().stop();
        }
    }

    private static boolean exempt(ExtensionContext context) {
        return context.getTestMethod().map(m -> AnnotationSupport.isAnnotated(m, AllowNativeLeaks.class)).orElse(false)
                || context.getTestClass().map(c -> AnnotationSupport.isAnnotated(c, AllowNativeLeaks.class)).orElse(false);
    }
}
