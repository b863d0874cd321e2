package dev.panamax.core.abi;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A C function type: return type and named parameters, e.g. {@code int32_t (int32_t a, int32_t b)}.
 * Parameters are values (no void, no arrays); the return may be void or any value type except an array.
 */
public record CFunctionType(CType returns, List<Param> params) {
    /** A named parameter. */
    public record Param(String name, CType type) {
        public Param {
            if (name == null || name.isBlank()) throw AbiErrors.missing("parameter name");
            if (type == null) throw AbiErrors.missing("type of parameter " + name);
        }
    }

    public CFunctionType {
        if (returns == null) throw AbiErrors.missing("return type");
        if (returns instanceof CType.Array) throw AbiErrors.notAReturn(returns);
        params = List.copyOf(params);
        Set<String> seen = new HashSet<>();
        for (Param p : params) {
            if (p.type() instanceof CType.Void) throw AbiErrors.voidNotAllowed("parameter " + p.name());
            if (p.type() instanceof CType.Array) throw AbiErrors.notAParameter(p.name(), p.type());
            if (!seen.add(p.name())) throw new IllegalArgumentException("duplicate parameter name: param=" + p.name());
        }
    }

    /** A function type; {@code params} alternate as name, type: {@code of(CType.I32, "a", CType.I32, "b", CType.I32)}. */
    public static CFunctionType of(CType returns, Object... namesAndTypes) {
        if (namesAndTypes.length % 2 != 0) {
            throw new IllegalArgumentException("expected name, type pairs: length=" + namesAndTypes.length);
        }
        Param[] ps = new Param[namesAndTypes.length / 2];
        for (int i = 0; i < ps.length; i++) {
            ps[i] = new Param((String) namesAndTypes[2 * i], (CType) namesAndTypes[2 * i + 1]);
        }
        return new CFunctionType(returns, List.of(ps));
    }
}
