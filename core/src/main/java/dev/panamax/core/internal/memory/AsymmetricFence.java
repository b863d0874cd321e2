package dev.panamax.core.internal.memory;

import dev.panamax.core.CoreLibrary;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * A memory barrier on every running thread of the process at once, paid by the one thread that asks:
 * Linux {@code membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED)} through libpanamax's
 * {@code pmx_membarrier}. It lets the threads on a hot path publish with plain stores and no fence of
 * their own, as userspace RCU does. {@link #AVAILABLE} is false where the kernel lacks the command or
 * a sandbox refuses the call; those threads then fence themselves.
 */
public final class AsymmetricFence {
    /** Whether {@link #run()} works in this process. */
    public static final boolean AVAILABLE;
    private static final MethodHandle MEMBARRIER;

    static {
        MethodHandle barrier = null;
        boolean available = false;
        try {
            Linker linker = Linker.nativeLinker();
            MethodHandle init = linker.downcallHandle(CoreLibrary.symbol("pmx_membarrier_init"), FunctionDescriptor.of(ValueLayout.JAVA_INT));
            barrier = linker.downcallHandle(CoreLibrary.symbol("pmx_membarrier"), FunctionDescriptor.of(ValueLayout.JAVA_INT));
            available = (int) init.invokeExact() == 1;
        } catch (Throwable unavailable) {
            // no libpanamax or no membarrier: callers fence on their own side instead
        }
        MEMBARRIER = barrier;
        AVAILABLE = available;
    }

    private AsymmetricFence() {}

    /** Makes every running thread of the process execute a full memory barrier before this returns. */
    public static void run() {
        if (!AVAILABLE) {
            java.lang.invoke.VarHandle.fullFence();
            return;
        }
        int status;
        try {
            status = (int) MEMBARRIER.invokeExact();
        } catch (Throwable t) {
            throw new AssertionError("membarrier downcall failed", t);
        }
        if (status != 0) throw new IllegalStateException("membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) failed after registering: " + status);
    }
}
