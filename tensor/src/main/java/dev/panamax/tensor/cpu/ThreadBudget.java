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
 * {@code panamax.threads} (default: half the available processors, at least 1; on a 2-core machine, 1;
 * at most {@value #MAX_PER_PROCESSOR} per available processor: a larger number is refused, naming the
 * setting and the range, rather than handed to libgomp, which ends the process when it cannot start
 * the threads).
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
    public static final String PROPERTY = dev.panamax.tensor.TensorSettings.THREADS.name();

    /** How many threads per available processor the budget may be at most. */
    public static final int MAX_PER_PROCESSOR = 4;

    private static final int PROCESSORS = Runtime.getRuntime().availableProcessors();

    /**
     * The budget, resolved from {@code panamax.threads} when first asked for (not when {@link #check} or
     * {@link #maximum} is used, so a front end may check a value, then set the property).
     */
    private static final class Resolved {
        /** The budget, or 0 when the setting is invalid ({@link #SETTING_ERROR} says why). */
        static final int THREADS;
        static final String SETTING_ERROR;

        static {
            int threads = 0;
            String error = null;
            try {
                threads = resolve(dev.panamax.tensor.TensorSettings.THREADS.raw(), PROCESSORS);
            } catch (IllegalArgumentException e) {
                error = e.getMessage();
            }
            THREADS = threads;
            SETTING_ERROR = error;
        }

        private Resolved() {}
    }

    private ThreadBudget() {}

    /**
     * The number of threads the kernels compute on.
     *
     * @throws IllegalArgumentException when {@code panamax.threads} is not a whole number from 1 to {@link #maximum()}
     */
    public static int threads() {
        if (Resolved.SETTING_ERROR != null) throw new IllegalArgumentException(Resolved.SETTING_ERROR);
        return Resolved.THREADS;
    }

    /**
     * The largest budget allowed here: {@value #MAX_PER_PROCESSOR} threads per available processor.
     * More only makes threads wait for cores, and a number libgomp cannot start ends the process
     * (it exits when a thread fails to start), so a larger setting is refused before any starts.
     */
    public static int maximum() {
        return maximum(PROCESSORS);
    }

    /**
     * {@code threads} if it is a budget allowed here (1 to {@link #maximum()});
     * {@code setting} names where it came from in the error otherwise.
     *
     * @throws IllegalArgumentException naming the setting, the value and the allowed range
     */
    public static int check(String setting, long threads) {
        return check(setting, threads, PROCESSORS);
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
        long n;
        try {
            n = Long.parseLong(property.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(PROPERTY + "='" + property + "': expected a whole number of threads from 1 to "
                    + maximum(processors) + " (" + MAX_PER_PROCESSOR + " per available processor, " + processors + " here)");
        }
        return check(PROPERTY, n, processors);
    }

    static int check(String setting, long threads, int processors) {
        if (threads < 1 || threads > maximum(processors)) {
            throw new IllegalArgumentException(setting + "=" + threads + ": expected 1 to " + maximum(processors) + " threads ("
                    + MAX_PER_PROCESSOR + " per available processor, " + processors + " here; more only wait for cores, and "
                    + "libgomp ends the process when it cannot start one)");
        }
        return (int) threads;
    }

    private static int maximum(int processors) {
        return MAX_PER_PROCESSOR * Math.max(1, processors);
    }

    /**
     * Environment for the libraries the kernels load: OpenBLAS single-threaded on the kernels this CPU
     * can run ({@link OpenBlasCoreType}), PoCL within the budget.
     */
    static void beforeLoading() {
        NativeEnvironment.setIfUnset("OPENBLAS_NUM_THREADS", "1");
        OpenBlasCoreType.chooseBeforeLoading();
        NativeEnvironment.setIfUnset("POCL_MAX_PTHREAD_COUNT", Integer.toString(Math.max(1, Resolved.THREADS)));
    }

    /** Sets the kernels' budget; with an invalid setting one thread (no backend is made then: {@link #threads()} fails). */
    static void applyTo(NativeLibrary kernels) {
        setKernelThreads(kernels, Math.max(1, Resolved.THREADS));
    }

    /**
     * Runs {@code action} with the kernels' budget at {@code threads} instead of {@code panamax.threads}, then
     * restores it: for tests of the parallel paths on any machine, and for measurements that compare
     * thread counts side by side in one process. Kernels still size each team from their work (a
     * small op stays on one thread). Not for concurrent use: the budget is the process's.
     *
     * @throws IllegalArgumentException when {@code threads} is not from 1 to {@link #maximum()}
     */
    public static void withThreads(int threads, Runnable action) {
        check("threads", threads);
        setKernelThreads(CpuKernel.Library.KERNELS, threads);
        try {
            action.run();
        } finally {
            setKernelThreads(CpuKernel.Library.KERNELS, Math.max(1, Resolved.THREADS));
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
