package dev.panamax.tensor.cpu;

import dev.panamax.core.BundledNatives;
import dev.panamax.core.abi.CFunctionType;
import dev.panamax.core.abi.CType;
import dev.panamax.core.batch.StatusRule;
import dev.panamax.core.call.BatchedFunction;
import dev.panamax.core.call.NativeLibrary;
import dev.panamax.core.call.Tier;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * The kernels of {@code libpanamax_tensor.so} (C in {@code tensor/src/main/c}, bundled in the jar).
 * Every kernel is {@code int64_t pmx_t_NAME(void *descriptor)}: one pointer in, a status out (0, or
 * 1 + the position of a bad index or label). That one shape serves three ways of calling:
 * <ul>
 *   <li>{@link #critical()}: a {@code critical(false)} downcall, for short work (no thread-state
 *       transition, but safepoints wait for it);</li>
 *   <li>{@link #standard()}: a plain downcall, for long work (a large product, a large reduction);</li>
 *   <li>{@link #recorder()}: the kernel at {@link Tier#BATCHED}, recorded into a core
 *       {@link dev.panamax.core.batch.Batch}; its MetaABI thunk ({@code pmx_thunk_pmx_t_NAME}, the
 *       VOID_PTR shape, written beside each kernel in C) passes the entry's cell straight through.</li>
 * </ul>
 * The kernels are bound by hand through core's {@link NativeLibrary} rather than by a declarations
 * file: the library ships inside this module's jar and is extracted at run time, while a generated
 * raw layer loads its library by soname from the system's search path, and the plugin links its glue
 * before the module's own C is compiled.
 */
enum CpuKernel {
    ELEMENTWISE("elementwise"),
    REDUCE("reduce"),
    INDEX("index"),
    MATMUL("matmul"),
    ADAM("adam"),
    CROSS_ENTROPY("cross_entropy"),
    SOFTMAX("softmax"),
    LAYER_NORM("layer_norm"),
    MAX_POOL("max_pool"),
    BATCH_NORM("batch_norm");

    private static final FunctionDescriptor DESCRIPTOR = FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.ADDRESS);

    final String symbol;
    // Linked on first use, one form at a time: a first op links the one downcall it runs rather than
    // every form of every kernel. A race links twice and keeps either (both are equivalent and immutable).
    private MethodHandle critical;
    private MethodHandle standard;
    private BatchedFunction recorder;

    CpuKernel(String name) {
        this.symbol = "pmx_t_" + name;
    }

    /** The kernel as a {@code critical(false)} downcall. */
    MethodHandle critical() {
        MethodHandle h = critical;
        if (h == null) critical = h = Library.KERNELS.downcall(symbol, DESCRIPTOR, Tier.CRITICAL);
        return h;
    }

    /** The kernel as a plain downcall. */
    MethodHandle standard() {
        MethodHandle h = standard;
        if (h == null) standard = h = Library.KERNELS.downcall(symbol, DESCRIPTOR, Tier.STANDARD);
        return h;
    }

    /** The kernel at {@link Tier#BATCHED}, for recording into a batch. */
    BatchedFunction recorder() {
        BatchedFunction f = recorder;
        if (f == null) {
            recorder = f = Library.KERNELS.function(symbol).type(Library.TYPE).tier(Tier.BATCHED).recorder()
                    .asCritical().withStatus(StatusRule.successIs(0));
        }
        return f;
    }

    /** Loads the kernels' library (and applies the thread budget) if that has not happened yet. */
    static void load() {
        Library.KERNELS.name();
    }

    /** Runs the kernel now on {@code descriptor}; long work (by the caller's estimate) crosses on the standard tier. */
    long call(MemorySegment descriptor, boolean longWork) {
        try {
            if (this == ELEMENTWISE && !longWork) return (long) Direct.ELEMENTWISE_CRITICAL.invokeExact(descriptor);
            return longWork ? (long) standard().invokeExact(descriptor) : (long) critical().invokeExact(descriptor);
        } catch (Throwable t) {
            throw new IllegalStateException("kernel " + symbol + " failed to run", t);
        }
    }

    /** The most frequent direct call in a constant the JIT can inline (an enum's fields are not trusted as constants). */
    private static final class Direct {
        static final MethodHandle ELEMENTWISE_CRITICAL = ELEMENTWISE.critical();

        private Direct() {}
    }

    /** The library, loaded on first use of any kernel, after the thread budget is in place. */
    static final class Library {
        static final String FILE = "libpanamax_tensor.so";
        /** {@code int64_t (void *)}: the C type every kernel has. */
        static final CFunctionType TYPE = CFunctionType.of(CType.I64, "descriptor", CType.POINTER);
        static final NativeLibrary KERNELS = load();

        private Library() {}

        private static NativeLibrary load() {
            ThreadBudget.beforeLoading();
            NativeLibrary lib = NativeLibrary.load(BundledNatives.extract(CpuKernel.class, FILE));
            ThreadBudget.applyTo(lib);
            return lib;
        }
    }
}
