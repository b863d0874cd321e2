package dev.panamax.core.call;

import java.lang.foreign.MemoryLayout;
import java.lang.invoke.MethodHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Declares one function of a {@link NativeLibrary} and links it.
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
 * }</pre>
 */
public final class DowncallBuilder {
    private final NativeLibrary library;
    private final String symbol;
    private Optional<MemoryLayout> returns = Optional.empty();
    private final List<Param> params = new ArrayList<>();
    private Tier tier = Tier.STANDARD;
    private ErrnoCheck errnoCheck = ErrnoCheck.NONE;

    DowncallBuilder(NativeLibrary library, String symbol) {
        this.library = library;
        this.symbol = symbol;
    }

    /** The return layout (void when never called). */
    public DowncallBuilder returns(MemoryLayout layout) {
        this.returns = Optional.of(Objects.requireNonNull(layout, "layout"));
        return this;
    }

    /** Appends a value parameter. */
    public DowncallBuilder param(MemoryLayout layout) {
        params.add(Param.of(layout));
        return this;
    }

    /** Appends a parameter (a value or a Java array). */
    public DowncallBuilder param(Param param) {
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

    /** The signature declared so far. */
    public Signature signature() {
        return new Signature(returns, params);
    }

    /**
     * The method handle for this function, of type {@link Signature#javaType()}. The symbol is
     * resolved and the function linked on its first invocation (a missing symbol raises
     * {@link SymbolNotFoundException} then); the declaration itself is checked now.
     *
     * @throws NativeLinkException when the declaration cannot be honoured
     */
    public MethodHandle link() {
        return library.link(new LinkRequest(symbol, signature(), tier, errnoCheck), false);
    }

    /** As {@link #link()}, but resolves the symbol and links at once, so every failure surfaces here. */
    public MethodHandle linkNow() {
        return library.link(new LinkRequest(symbol, signature(), tier, errnoCheck), true);
    }
}
