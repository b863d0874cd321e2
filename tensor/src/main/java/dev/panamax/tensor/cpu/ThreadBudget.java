package dev.panamax.tensor.cpu;

import dev.panamax.core.NativeEnvironment;
import dev.panamax.core.OpenBlasCoreType;
import dev.panamax.core.call.NativeLibrary;
import dev.panamax.core.call.Tier;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * One thread budget for the whole process: the number of cores the cpu backend computes on, set by
 * {@value #PROPERTY} (default: half the available processors, at least 1; on a 2-core machine, 1).
 *
 * <ul>
 *   <li>OpenMP: every parallel region of the kernels runs at most this many threads (and a region
 *       starts only for work large enough to pay for waking them).</li>
 *   <li>OpenBLAS: held at one thread ({@code openblas_set_num_threads(1)}, and
 *       {@code OPENBLAS_NUM_THREADS=1} in the environment before the kernels' library loads it, so
 *       its own pool is not even created); matmul parallelizes by giving each OpenMP thread its own
 *       share of rows or batches, so the two pools never run at the same time.</li>
 *   <li>PoCL: {@code POCL_MAX_PTHREAD_COUNT} is set to the budget in the environment before the
 *       kernels load (PoCL reads it when it initializes, so it applies when the OpenCL driver is
 *       first used after that).</li>
 * </ul>
 * Environment variables already set by the user are kept. Why the default is small: next to another
 * busy process, two OpenMP threads on two cores made a PyTorch training step 7-26x slower (threads
 * spin waiting for a core that is taken), while one thread stayed steady.
 *
 * <pre>{@code
 * java -Dpanamax.threads=4 ...     // four cores for kernels
 * int n = ThreadBudget.threads();
 * }</pre>
 */
public final class ThreadBudget {
    /** The system property that sets the budget. */
    public static final String PROPERTY = "panamax.threads";

    private static final int THREADS = resolve(System.getProperty(PROPERTY), Runtime.getRuntime().availableProcessors());

    private ThreadBudget() {}

    /** The number of threads the kernels compute on. */
    public static int threads() {
        return THREADS;
    }

    /** How many threads OpenMP actually gives a region of the kernels at full work (loads them). */
    public static int openMpTeamSize() {
        try {
            return (int) TeamSize.HANDLE.invokeExact();
        } catch (Throwable t) {
            throw new IllegalStateException("pmx_t_team_size failed", t);
        }
    }

    /** The budget for {@code property} on a machine with {@code processors} CPUs. */
    static int resolve(String property, int processors) {
        if (property == null || property.isBlank()) return Math.max(1, processors / 2);
        int n;
        try {
            n = Integer.parseInt(property.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(PROPERTY + " must be a whole number of threads, at least 1: got '" + property + "'");
        }
        if (n < 1) throw new IllegalArgumentException(PROPERTY + " must be at least 1: got " + n);
        return n;
    }

    /**
     * Environment for the libraries the kernels load: OpenBLAS single-threaded on the kernels this CPU
     * can run ({@link OpenBlasCoreType}), PoCL within the budget.
     */
    static void beforeLoading() {
        NativeEnvironment.setIfUnset("OPENBLAS_NUM_THREADS", "1");
        OpenBlasCoreType.chooseBeforeLoading();
        NativeEnvironment.setIfUnset("POCL_MAX_PTHREAD_COUNT", Integer.toString(THREADS));
    }

    static void applyTo(NativeLibrary kernels) {
        setKernelThreads(kernels, THREADS);
    }

    /**
     * Runs {@code action} with the kernels' OpenMP teams at {@code threads} instead of the budget, then
     * restores it: for tests of the parallel paths on any machine. Not for concurrent use.
     */
    static void withThreads(int threads, Runnable action) {
        setKernelThreads(CpuKernel.Library.KERNELS, threads);
        try {
            action.run();
        } finally {
            setKernelThreads(CpuKernel.Library.KERNELS, THREADS);
        }
    }

    // pmx_t_set_threads, called once while the kernels load, is a plain linker handle used on the
    // spot: a core downcall's lazy call site would spin method handles for its signature on the path
    // of the first op, for a call made once or twice in the process's life.
    private static void setKernelThreads(NativeLibrary kernels, int threads) {
        MethodHandle set = Linker.nativeLinker().downcallHandle(kernels.symbol("pmx_t_set_threads"),
                FunctionDescriptor.ofVoid(ValueLayout.JAVA_INT));
        try {
            set.invokeExact(threads);
        } catch (Throwable t) {
            throw new IllegalStateException("pmx_t_set_threads failed", t);
        }
    }

    private static final class TeamSize {
        static final MethodHandle HANDLE = CpuKernel.Library.KERNELS.downcall("pmx_t_team_size",
                FunctionDescriptor.of(ValueLayout.JAVA_INT), Tier.STANDARD);
    }
}
