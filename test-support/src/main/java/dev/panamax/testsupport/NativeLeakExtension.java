package dev.panamax.testsupport;

import dev.panamax.core.memory.LeakDetection;
import dev.panamax.core.memory.LeakListener;
import dev.panamax.core.memory.LeakReport;
import dev.panamax.core.memory.NativeMemory;
import dev.panamax.core.memory.Outstanding;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.commons.support.AnnotationSupport;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Fails a test that leaves Panamax native resources behind: handles (or pools) created during
 * the test and not released when it ends, handles the GC had to release during the test (leaks,
 * reported by {@link LeakDetection}), or more bytes held by handles than before the test.
 * Only Panamax's own accounting counts: memory a test allocates through plain FFM arenas is none
 * of this extension's business. Exempt a test with {@link AllowNativeLeaks}.
 *
 * <p>Registered automatically in every module that has panamax-test-support on its test class
 * path (ServiceLoader; the parent pom turns on {@code junit.jupiter.extensions.autodetection.enabled})
 * and runs with leak detection PARANOID, so failures name the allocation site.
 */
public final class NativeLeakExtension implements BeforeEachCallback, AfterEachCallback {
    private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(NativeLeakExtension.class);

    /** What the extension noted before the test. */
    private record Before(long checkpoint, long heldBytes, LeakListener listener, List<LeakReport> leaks) {}

    @Override
    public void beforeEach(ExtensionContext context) {
        if (exempt(context)) return;
        List<LeakReport> leaks = new CopyOnWriteArrayList<>();
        long checkpoint = NativeMemory.checkpoint();
        LeakListener listener = r -> {
            if (r.id() >= checkpoint) leaks.add(r);
        };
        LeakDetection.addListener(listener);
        context.getStore(NS).put(Before.class, new Before(checkpoint, NativeMemory.heldBytes(), listener, leaks));
    }

    @Override
    public void afterEach(ExtensionContext context) {
        Before before = context.getStore(NS).remove(Before.class, Before.class);
        if (before == null) return;
        try {
            NativeMemory.cleanUnreachable();
            List<Outstanding> outstanding = NativeMemory.outstandingSince(before.checkpoint());
            long held = NativeMemory.heldBytes();
            StringBuilder problems = new StringBuilder();
            if (!outstanding.isEmpty()) {
                problems.append("\n  ").append(outstanding.size()).append(" native resource(s) created by the test and not released:");
                outstanding.stream().limit(20).forEach(o -> problems.append("\n    ").append(o.describe()));
            }
            if (!before.leaks().isEmpty()) {
                problems.append("\n  ").append(before.leaks().size()).append(" leak(s) released by the GC instead of by code:");
                before.leaks().stream().limit(5).forEach(r -> problems.append("\n    ").append(r.describe().replace("\n", "\n    ")));
            }
            if (outstanding.isEmpty() && held > before.heldBytes()) {
                problems.append("\n  native bytes held by handles grew: before=").append(before.heldBytes())
                        .append(" after=").append(held);
            }
            if (!problems.isEmpty()) {
                throw new AssertionError("test leaves native memory behind: test=" + context.getDisplayName()
                        + problems + "\n  (close or release them, use a NativeScope, or annotate the test @AllowNativeLeaks(\"why\"))");
            }
        } finally {
            LeakDetection.removeListener(before.listener());
        }
    }

    private static boolean exempt(ExtensionContext context) {
        return context.getTestMethod().map(m -> AnnotationSupport.isAnnotated(m, AllowNativeLeaks.class)).orElse(false)
                || context.getTestClass().map(c -> AnnotationSupport.isAnnotated(c, AllowNativeLeaks.class)).orElse(false);
    }
}
