package dev.panamax.core.call;

import dev.panamax.core.abi.CFunction;
import dev.panamax.core.abi.CFunctionType;
import dev.panamax.core.abi.FfmLayouts;

import java.lang.foreign.MemoryLayout;
import java.lang.invoke.MethodHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Declares one function of a {@link NativeLibrary} and links it. The function is declared either by
 * layouts ({@link #returns}, {@link #param}: values or Java arrays) or by its C type
 * ({@link #type(CFunctionType)}); the {@link Tier} decides what linking gives: a method handle that
 * calls it ({@link #link()}), or, at {@link Tier#BATCHED}, a {@link BatchedFunction} that records
 * it into batches ({@link #recorder()}, C type required).
 *
 * <pre>{@code
 * static final MethodHandle SUM = LIB.function("sum_f32")
 *         .returns(JAVA_FLOAT)
 *         .param(Param.in(float[].class)).param(JAVA_LONG)
 *         .tier(Tier.CRITICAL_HEAP)
 *         .link();
 * float s = (float) SUM.invokeExact(values, (long) values.length);
 *
 * static final MethodHandle CLOSE = NativeLibrary.system().function("close")
 *         .returns(JAVA_INT).param(JAVA_INT)
 *         .setsErrno(ErrnoCheck.RETURNS_MINUS_ONE)
 *         .link();
 *
 * static final CFunctionType ADD_TYPE = CFunctionType.of(CType.I32, "a", CType.I32, "b", CType.I32);
 * static final MethodHandle ADD = LIB.function("add").type(ADD_TYPE).tier(Tier.CRITICAL).link();
 * static final BatchedFunction ADD_LATER = LIB.function("add").type(ADD_TYPE).tier(Tier.BATCHED).recorder();
 * }</pre>
 */
public final class DowncallBuilder {
    private final NativeLibrary library;
    private final String symbol;
    private Optional<MemoryLayout> returns = Optional.empty();
    private final List<Param> params = new ArrayList<>();
    private Tier tier = Tier.STANDARD;
    private ErrnoCheck errnoCheck = ErrnoCheck.NONE;
    private CFunctionType cType;

    DowncallBuilder(NativeLibrary library, String symbol) {
        this.library = library;
        this.symbol = symbol;
    }

    /** The return layout (void when never called). */
    public DowncallBuilder returns(MemoryLayout layout) {
        requireNoCType("returns");
        this.returns = Optional.of(Objects.requireNonNull(layout, "layout"));
        return this;
    }

    /** Appends a value parameter. */
    public DowncallBuilder param(MemoryLayout layout) {
        requireNoCType("param");
        params.add(Param.of(layout));
        return this;
    }

    /** Appends a parameter (a value or a Java array). */
    public DowncallBuilder param(Param param) {
        requireNoCType("param");
        params.add(Objects.requireNonNull(param, "param"));
        return this;
    }

    /** Appends parameters. */
    public DowncallBuilder params(Param... params) {
        for (Param p : params) param(p);
        return this;
    }

    /** Appends value parameters. */
    public DowncallBuilder params(MemoryLayout... layouts) {
        for (MemoryLayout l : layouts) param(l);
        return this;
    }

    /**
     * Declares the function by its C type instead of layouts: the signature of a direct call is the
     * type's FFM layouts, and a {@link Tier#BATCHED} binding plans its thunk's parameter block from it.
     * Signed and unsigned integers share a layout; the C type keeps them apart (it decides how a
     * status is extended in a batch).
     *
     * @throws IllegalStateException when layouts were already declared
     */
    public DowncallBuilder type(CFunctionType type) {
        Objects.requireNonNull(type, "type");
        if (returns.isPresent() || !params.isEmpty()) {
            throw new IllegalStateException("declare a function by layouts or by its C type, not both: symbol=" + symbol
                    + " declared=" + signature() + " type=" + type);
        }
        this.cType = type;
        return this;
    }

    /** The tier to call at (default {@link Tier#STANDARD}). */
    public DowncallBuilder tier(Tier tier) {
        this.tier = Objects.requireNonNull(tier, "tier");
        return this;
    }

    /** Declares that the function sets errno, and how its result reports failure. */
    public DowncallBuilder setsErrno(ErrnoCheck check) {
        this.errnoCheck = Objects.requireNonNull(check, "check");
        return this;
    }

    /**
     * The signature declared so far.
     *
     * @throws NativeLinkException when the function was declared by a C type FFM cannot pass (long
     *                             double, an over-aligned struct): only its thunk can carry it
     */
    public Signature signature() {
        if (cType == null) return new Signature(returns, params);
        try {
            return Signature.of(FfmLayouts.descriptorOf(cType));
        } catch (UnsupportedOperationException e) {
            throw NativeLinkException.invalidDeclaration(symbol, e.getMessage());
        }
    }

    /**
     * The method handle for this function, of type {@link Signature#javaType()}. The symbol is
     * resolved and the function linked on its first invocation (a missing symbol raises
     * {@link SymbolNotFoundException} then); the declaration itself is checked now.
     *
     * @throws NativeLinkException when the declaration cannot be honoured
     */
    public MethodHandle link() {
        requireDirect();
        return library.link(new LinkRequest(symbol, signature(), tier, errnoCheck), false);
    }

    /** As {@link #link()}, but resolves the symbol and links at once, so every failure surfaces here. */
    public MethodHandle linkNow() {
        requireDirect();
        return library.link(new LinkRequest(symbol, signature(), tier, errnoCheck), true);
    }

    /**
     * The function bound at {@link Tier#BATCHED}: recorded into a {@link dev.panamax.core.batch.Batch}
     * with {@link BatchedFunction#record}, never called directly. Its MetaABI thunk
     * ({@code pmx_thunk_<symbol>}) is looked up in this library on the first record (or
     * {@link BatchedFunction#thunk()}), so a missing thunk fails then, like a missing symbol at
     * {@link #link()}.
     *
     * @throws NativeLinkException when the tier is not BATCHED, the C type was not declared with
     *                             {@link #type(CFunctionType)}, or an errno check was asked for
     */
    public BatchedFunction recorder() {
        if (tier != Tier.BATCHED) {
            throw NativeLinkException.cannotRecord(library.source(), symbol, tier, "recorder() binds a function at "
                    + Tier.BATCHED + "; call tier(Tier.BATCHED) first, or link() to call it directly at " + tier);
        }
        if (cType == null) {
            throw NativeLinkException.cannotRecord(library.source(), symbol, tier, "no C function type"
                    + (returns.isPresent() || !params.isEmpty() ? " (layouts " + new Signature(returns, params)
                    + " do not say signedness or struct fields)" : "")
                    + "; declare it with type(CFunctionType): its thunk's parameter block is planned from it");
        }
        if (errnoCheck != ErrnoCheck.NONE) {
            throw NativeLinkException.cannotRecord(library.source(), symbol, tier,
                    "errno cannot be captured for a recorded call: errnoCheck=" + errnoCheck);
        }
        return new BatchedFunction(library, new CFunction(symbol, cType), false, null);
    }

    private void requireDirect() {
        if (!tier.callsDirectly()) throw NativeLinkException.recordedNotCalled(library.source(), symbol, tier);
    }

    private void requireNoCType(String step) {
        if (cType != null) {
            throw new IllegalStateException("declare a function by layouts or by its C type, not both: symbol=" + symbol
                    + " type=" + cType + " step=" + step);
        }
    }
}
