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
 * <pre>{@code
 * static final MethodHandle COS = NativeLibrary.load("m")
 *         .downcall("cos", FunctionDescriptor.of(JAVA_DOUBLE, JAVA_DOUBLE), Tier.CRITICAL);
 * }</pre>
 */
public enum Tier {
    /** A plain downcall: the function may block, take long, and call back into Java. */
    STANDARD(List.of(), false, true),
    /**
     * {@code Linker.Option.critical(false)}: no thread-state transition. Only for short functions
     * that never block and never call back into Java.
     */
    CRITICAL(List.of(Linker.Option.critical(false)), false, false),
    /**
     * {@code Linker.Option.critical(true)}: as {@link #CRITICAL}, and heap memory (Java arrays,
     * heap segments) is passed in place with no copy.
     */
    CRITICAL_HEAP(List.of(Linker.Option.critical(true)), true, false);

    private final List<Linker.Option> linkerOptions;
    private final boolean acceptsHeapMemory;
    private final boolean allowsUpcalls;

    Tier(List<Linker.Option> linkerOptions, boolean acceptsHeapMemory, boolean allowsUpcalls) {
        this.linkerOptions = linkerOptions;
        this.acceptsHeapMemory = acceptsHeapMemory;
        this.allowsUpcalls = allowsUpcalls;
    }

    /** The linker options of this tier (not counting options a declaration adds, such as errno capture). */
    public List<Linker.Option> linkerOptions() {
        return linkerOptions;
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
