package dev.panamax.bindgen.decl;

import java.util.List;

/**
 * An entry of the {@code functions} section.
 *
 * @param name      the C symbol
 * @param tier      the call tier its Java binding uses
 * @param batchable a MetaABI thunk is generated for it
 * @param blocking  declared as possibly blocking ({@code true}), never blocking ({@code false}) or not stated (null)
 * @param requires  rules the arguments must satisfy, checked by the typed layer before the call
 */
public record Function(String name, Returns returns, List<Param> params, Tier tier, boolean batchable, Boolean blocking,
                       List<Requirement> requires, Location location) {
    public Function {
        params = List.copyOf(params);
        requires = List.copyOf(requires);
    }

    /** A function without requirements. */
    public Function(String name, Returns returns, List<Param> params, Tier tier, boolean batchable, Boolean blocking,
                    Location location) {
        this(name, returns, params, tier, batchable, blocking, List.of(), location);
    }

    /** Call tier as declared: {@code standard} (default), {@code critical}, {@code critical_heap}. */
    public enum Tier { STANDARD, CRITICAL, CRITICAL_HEAP }

    /** Declared short and never calling back: may run in a CRITICAL batch or through the critical handle. */
    public boolean isCritical() {
        return tier != Tier.STANDARD;
    }
}
