package dev.panamax.bindgen.decl;

import dev.panamax.core.abi.CType;
import dev.panamax.core.abi.ScalarKind;
import dev.panamax.core.batch.StatusRule;

import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/**
 * A declared function's status convention as the {@link StatusRule} a batch checks its result with:
 * {@code returns: {type: i32, status: z_status}} with {@code z_status: {type: i32, success: [0]}}
 * becomes {@code StatusRule.successIs(0)}; {@code success: [0, 1, 2]} becomes
 * {@code successBetween(0, 2)}.
 *
 * <p>The batch runner compares a status, sign- or zero-extended from its C type, against one range,
 * so the success codes must be one contiguous run of values that the return type can hold, and the
 * return type must be the convention's integer type. A convention that cannot be checked that way
 * is a {@link DeclarationsException} at the function's {@code returns}, not a rule that lets
 * failures through. Out-parameter statuses ({@code errcode}) are not results and have no rule here.
 */
public final class StatusRules {
    private StatusRules() {}

    /**
     * The rule for {@code f}'s result, or empty when {@code f} declares no {@code status}.
     *
     * @throws DeclarationsException when the convention cannot be checked by a batch
     */
    public static Optional<StatusRule> of(Declarations d, Function f) {
        String name = f.returns().status();
        if (name == null) return Optional.empty();
        ErrorConvention c = d.errors().get(name);
        Location where = f.returns().location();
        if (c == null) throw new DeclarationsException(where, "function " + f.name() + " names status '" + name
                + "', which is not declared under errors");
        CType result = d.resolve(f.returns().type());
        CType declared = d.resolve(c.type());
        if (!(result instanceof CType.Scalar s) || s.kind().isFloatingPoint()) {
            throw new DeclarationsException(where, "function " + f.name() + " returns " + f.returns().type().spelling()
                    + " with status " + name + "; expected an integer or bool return (a status is checked in the"
                    + " return register)");
        }
        if (!result.equals(declared)) {
            throw new DeclarationsException(where, "function " + f.name() + " returns " + f.returns().type().spelling()
                    + " (" + s.kind().declName() + ") but its status convention " + name + " has type "
                    + c.type().spelling() + " (" + ((CType.Scalar) declared).kind().declName()
                    + "); expected the convention's type");
        }
        return Optional.of(rule(c, s.kind(), f.name(), where));
    }

    /** The rule for convention {@code c} applied to a result of integer kind {@code kind}. */
    static StatusRule rule(ErrorConvention c, ScalarKind kind, String function, Location where) {
        TreeSet<Long> codes = new TreeSet<>(c.success());
        for (long code : codes) {
            if (!fits(code, kind)) {
                throw new DeclarationsException(where, "success code " + code + " of status convention " + c.name()
                        + " does not fit " + kind.declName() + " (" + range(kind) + "), the return type of function "
                        + function + "; the batch runner would never see it");
            }
        }
        long low = codes.first();
        long high = codes.last();
        if (high - low + 1 != codes.size()) {
            throw new DeclarationsException(where, "success codes " + List.copyOf(codes) + " of status convention "
                    + c.name() + " (function " + function + ") are not one contiguous range; a batch checks a status"
                    + " against one range low..high");
        }
        return StatusRule.successBetween(low, high);
    }

    /** Whether {@code code} is a value of {@code kind} as the runner sees it (extended to 64 bits). */
    private static boolean fits(long code, ScalarKind kind) {
        int bits = 8 * kind.size();
        if (bits >= 64) return true; // 64-bit statuses are compared as the runner's int64_t, any code can occur
        if (kind == ScalarKind.BOOL) return code == 0 || code == 1;
        if (kind.isSigned()) return code >= -(1L << (bits - 1)) && code < (1L << (bits - 1));
        return code >= 0 && code < (1L << bits);
    }

    private static String range(ScalarKind kind) {
        int bits = 8 * kind.size();
        if (kind == ScalarKind.BOOL) return "0..1";
        return kind.isSigned() ? -(1L << (bits - 1)) + ".." + ((1L << (bits - 1)) - 1) : "0.." + ((1L << bits) - 1);
    }
}
