package dev.panamax.core.call;

import dev.panamax.core.abi.CFunction;
import dev.panamax.core.abi.CType;
import dev.panamax.core.abi.MetaAbi;
import dev.panamax.core.batch.Batch;
import dev.panamax.core.batch.BatchEntry;
import dev.panamax.core.batch.StatusRule;
import dev.panamax.core.batch.Thunk;

import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * A native function bound at {@link Tier#BATCHED}: not called, but recorded into a {@link Batch}
 * through its MetaABI thunk, and run with the batch's other entries in one crossing.
 *
 * <pre>{@code
 * static final BatchedFunction ADD = LIB.function("add")
 *         .type(CFunctionType.of(CType.I32, "a", CType.I32, "b", CType.I32))
 *         .tier(Tier.BATCHED)
 *         .recorder()
 *         .asCritical();
 *
 * try (Batch batch = Batch.create(BatchMode.CRITICAL)) {
 *     BatchEntry sum = ADD.record(batch, 2, 40);
 *     batch.run();
 *     int s = sum.resultInt();                    // 42
 *     sum.params().setInt(0, 1); batch.run();     // replay with a new argument
 * }
 * }</pre>
 *
 * The thunk ({@code pmx_thunk_<symbol>}) is looked up in the library on first use, once; copies made
 * by {@link #asCritical()} and {@link #withStatus} share nothing mutable. Immutable and thread-safe
 * (a {@link Batch} itself is not).
 */
public final class BatchedFunction {
    private final NativeLibrary library;
    private final CFunction function;
    private final boolean critical;
    private final StatusRule status;
    private volatile Thunk thunk;

    BatchedFunction(NativeLibrary library, CFunction function, boolean critical, StatusRule status) {
        this.library = Objects.requireNonNull(library, "library");
        this.function = Objects.requireNonNull(function, "function");
        this.critical = critical;
        if (status != null && !CType.isRegisterScalar(function.type().returns())) {
            throw NativeLinkException.cannotRecord(library.source(), function.symbol(), Tier.BATCHED,
                    "a status check needs an integer, bool or pointer return: returns=" + function.type().returns());
        }
        this.status = status;
    }

    /**
     * Records a call with {@code args} (one per C parameter, in order) at the end of {@code batch}, and
     * returns its entry: read the result from it after {@link Batch#run()}, write new arguments
     * through {@link BatchEntry#params()} to replay. Arguments are boxed Java values of the parameter's
     * C type: {@code Boolean} (bool), {@code Byte}/{@code Short}/{@code Integer}/{@code Long} (integers of
     * that width; narrower integers widen), {@code Float}, {@code Double} (a {@code Float} widens),
     * a native {@link MemorySegment}, {@code null} or a {@code NativeHandle} (pointers; a handle is kept alive
     * until the batch closes), a {@code MemorySegment} of exactly the
     * type's size (structs, unions, long double). A wrong count or type is refused before anything is
     * recorded.
     *
     * @throws SymbolNotFoundException  when the library exports no thunk for this function
     * @throws IllegalArgumentException for a wrong argument, or a non-critical function in a CRITICAL batch
     */
    public BatchEntry record(Batch batch, Object... args) {
        Objects.requireNonNull(batch, "batch");
        return batch.add(thunk(), args);
    }

    /**
     * The function's thunk, looked up now if it was not yet: also a way to check at start-up that
     * the library carries it.
     *
     * @throws SymbolNotFoundException when the library exports no {@code pmx_thunk_<symbol>}
     */
    public Thunk thunk() {
        Thunk t = thunk;
        if (t == null) {
            t = resolve();
            thunk = t;
        }
        return t;
    }

    private Thunk resolve() {
        String symbol = Thunk.symbolOf(function.symbol());
        MemorySegment address = library.find(symbol)
                .orElseThrow(() -> SymbolNotFoundException.thunk(library.source(), symbol, function.symbol()));
        return new Thunk(function.symbol(), MetaAbi.classify(function.type()), address, critical, status);
    }

    /**
     * The same function declared critical: short, never blocking, never calling back into Java, so
     * it may join a {@link dev.panamax.core.batch.BatchMode#CRITICAL} batch.
     */
    public BatchedFunction asCritical() {
        BatchedFunction f = new BatchedFunction(library, function, true, status);
        Thunk t = thunk;
        if (t != null) f.thunk = t.asCritical();
        return f;
    }

    /** The same function whose result is a status: a batch run stops at the first entry whose status {@code rule} calls a failure. */
    public BatchedFunction withStatus(StatusRule rule) {
        BatchedFunction f = new BatchedFunction(library, function, critical, Objects.requireNonNull(rule, "rule"));
        Thunk t = thunk;
        if (t != null) f.thunk = t.withStatus(rule);
        return f;
    }

    /** The library whose thunk is recorded. */
    public NativeLibrary library() {
        return library;
    }

    /** The C symbol and type. */
    public CFunction function() {
        return function;
    }

    /** Whether it is declared critical (may join a CRITICAL batch). */
    public boolean isCritical() {
        return critical;
    }

    /** The status rule checked at every run, or null. */
    public StatusRule statusRule() {
        return status;
    }

    @Override
    public String toString() {
        return "BatchedFunction[library=" + library.source() + " symbol=" + function.symbol() + " tier=" + Tier.BATCHED
                + " critical=" + critical + (status == null ? "" : " status=" + status) + "]";
    }
}
