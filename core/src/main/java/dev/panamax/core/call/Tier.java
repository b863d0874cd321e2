package dev.panamax.core.call;

import java.lang.foreign.Linker;
import java.util.List;

/**
 * How a native function is called: the cost tier of the crossing.
 *
 * <p>Each tier carries what it means as data (its linker options, whether heap memory may be passed
 * in place, whether the function may call back into Java), so code that links a function asks the
 * tier rather than switching over it.
 *
 * <p>STANDARD, CRITICAL and CRITICAL_HEAP {@linkplain #callsDirectly() call directly}: linking gives a
 * method handle that makes the call. BATCHED does not: the function is recorded into a
 * {@link dev.panamax.core.batch.Batch} and runs with the batch's other entries in one crossing, so
 * linking gives a {@link BatchedFunction} instead ({@link DowncallBuilder#recorder()}).
 *
 * <pre>{@code
 * static final MethodHandle COS = NativeLibrary.load("m")
 *         .downcall("cos", FunctionDescriptor.of(JAVA_DOUBLE, JAVA_DOUBLE), Tier.CRITICAL);
 * static final BatchedFunction ADD = LIB.function("add")
 *         .type(CFunctionType.of(CType.I32, "a", CType.I32, "b", CType.I32))
 *         .tier(Tier.BATCHED)
 *         .recorder();
 * }</pre>
 */
public enum Tier {
    /** A plain downcall: the function may block, take long, and call back into Java. */
    STANDARD(List.of(), true, false, true),
    /**
     * {@code Linker.Option.critical(false)}: no thread-state transition. Only for short functions
     * that never block and never call back into Java.
     */
    CRITICAL(List.of(Linker.Option.critical(false)), true, false, false),
    /**
     * {@code Linker.Option.critical(true)}: as {@link #CRITICAL}, and heap memory (Java arrays,
     * heap segments) is passed in place with no copy.
     */
    CRITICAL_HEAP(List.of(Linker.Option.critical(true)), true, true, false),
    /**
     * Recorded, not called: the function's MetaABI thunk ({@code pmx_thunk_NAME}) is recorded into a
     * {@link dev.panamax.core.batch.Batch} with its arguments, and runs when the batch runs, with all
     * its other entries in one crossing. There is no direct downcall, so no linker options; arguments
     * are copied into the batch's native parameter blocks, so no heap memory; the function may call
     * back when its batch runs in {@link dev.panamax.core.batch.BatchMode#STANDARD} mode (a CRITICAL
     * batch takes only functions {@linkplain BatchedFunction#asCritical() declared critical}).
     */
    BATCHED(List.of(), false, false, true);

    private final List<Linker.Option> linkerOptions;
    private final boolean callsDirectly;
    private final boolean acceptsHeapMemory;
    private final boolean allowsUpcalls;

    Tier(List<Linker.Option> linkerOptions, boolean callsDirectly, boolean acceptsHeapMemory, boolean allowsUpcalls) {
        this.linkerOptions = linkerOptions;
        this.callsDirectly = callsDirectly;
        this.acceptsHeapMemory = acceptsHeapMemory;
        this.allowsUpcalls = allowsUpcalls;
    }

    /** The linker options of this tier (not counting options a declaration adds, such as errno capture). */
    public List<Linker.Option> linkerOptions() {
        return linkerOptions;
    }

    /**
     * Whether a function at this tier is linked as a downcall the caller invokes ({@link DowncallBuilder#link()}).
     * False for {@link #BATCHED}, whose functions are recorded into a batch ({@link DowncallBuilder#recorder()}).
     */
    public boolean callsDirectly() {
        return callsDirectly;
    }

    /**
     * Whether heap memory reaches native code in place. When false, Java array parameters are staged
     * through the {@link ScratchStack} and heap segments are refused.
     */
    public boolean acceptsHeapMemory() {
        return acceptsHeapMemory;
    }

    /** Whether a function called at this tier may call back into Java through an upcall stub. */
    public boolean allowsUpcalls() {
        return allowsUpcalls;
    }
}
