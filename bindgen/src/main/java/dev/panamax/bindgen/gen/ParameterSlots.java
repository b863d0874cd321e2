package dev.panamax.bindgen.gen;

import dev.panamax.bindgen.decl.DeclarationsException;
import dev.panamax.bindgen.decl.Location;
import dev.panamax.bindgen.gen.BindingPlan.RawFunction;
import dev.panamax.bindgen.gen.BindingPlan.RawParam;
import dev.panamax.bindgen.gen.TypedFunction.Mapping;
import dev.panamax.bindgen.gen.TypedFunction.TypedParam;
import dev.panamax.core.abi.CFunctionType;
import dev.panamax.core.abi.CType;

import java.util.List;

/**
 * The JVM takes at most 255 parameter slots per method ({@code long} and {@code double} take two),
 * and a method handle's own call one of them. Before anything is written, each function is counted as
 * it will be generated, and a function that does not fit is refused at its place in the file.
 *
 * <p>The tightest count is the FFM linker's: it lowers a downcall to a method handle that takes the
 * target address and every argument as the ABI passes it (each pointer as a 64-bit integer, two slots;
 * three at {@code critical_heap}, where a heap array travels as its base object and offset; a struct
 * by value as its eightbytes, two slots each), plus slots of its own, and refuses one over 255 with
 * "bad parameter count". Upcall stubs are lowered the same way. The Java methods bindgen writes (raw,
 * by-address, typed) never take more slots than that lowering, and are counted too.
 *
 * <pre>{@code
 * // a function of 127 i64 parameters: 254 slots of arguments, 257 lowered
 * // t.yaml:4:5: function f needs 257 JVM parameter slots in its downcall (127 parameters; long, double and
 * // pointers take two); expected at most 255: pass the arguments in a struct by pointer instead
 * }</pre>
 */
final class ParameterSlots {
    private ParameterSlots() {}

    /** The JVM's limit on one method's parameters (JVMS 4.3.3). */
    static final int LIMIT = 255;
    /** Slots the linker adds to a downcall's arguments (the target address, and one more), measured on JDK 25. */
    static final int DOWNCALL_OWN = 3;
    /** Slots the linker adds to an upcall's arguments, measured on JDK 25. */
    static final int UPCALL_OWN = 2;
    /** Slots a struct returned by value adds (the return buffer's address). */
    static final int GROUP_RETURN = 2;

    /** Slots of a Java carrier type: two for {@code long} and {@code double}. */
    static int of(String javaType) {
        return javaType.equals("long") || javaType.equals("double") ? 2 : 1;
    }

    /** Slots of one C value as the linker lowers it; {@code heap}: pointers may be heap arrays (critical_heap). */
    static int lowered(CType t, boolean heap) {
        return switch (t) {
            case CType.Scalar s -> s.kind().size() == 8 ? 2 : 1;
            case CType.Pointer p -> heap ? 3 : 2;
            case CType.FunctionPointer f -> 2;
            case CType.Aggregate a -> 2 * Math.max(1, (a.size() + 7) / 8);
            case CType.Array a -> 2;
            case CType.Void v -> 0;
        };
    }

    /** The slots of the method handle the linker makes for a downcall of {@code type} (or an upcall stub). */
    static int lowered(CFunctionType type, boolean heap, boolean upcall) {
        int slots = upcall ? UPCALL_OWN : DOWNCALL_OWN;
        if (type.returns() instanceof CType.Aggregate) slots += GROUP_RETURN;
        for (CFunctionType.Param p : type.params()) slots += lowered(p.type(), heap);
        return slots;
    }

    /** Refuses {@code raw} when its downcall or one of the Java methods generated for it passes the limit. */
    static void checkFunction(RawFunction raw, CFunctionType type, List<TypedFunction> typed, Location at) {
        int n = raw.params().size();
        String name = raw.name();
        int downcall = lowered(type, raw.tier().equals("CRITICAL_HEAP"), false);
        if (downcall > LIMIT) {
            throw new DeclarationsException(at, "function " + name + " needs " + downcall + " JVM parameter slots in its"
                    + " downcall (" + n + " parameters; long, double and pointers take two"
                    + (raw.tier().equals("CRITICAL_HEAP") ? ", and three at tier critical_heap" : "")
                    + ", a struct by value two per 8 bytes, the FFM linker " + DOWNCALL_OWN + " of its own); expected at most "
                    + LIMIT + ": pass the arguments in a struct by pointer instead");
        }
        int rawSlots = (raw.returnsGroup() ? 1 : 0) + raw.params().stream().mapToInt(p -> of(p.carrier())).sum();
        requireFits(rawSlots + 1, "its raw method (and the method handle it invokes)", name, at);
        for (TypedFunction f : typed) {
            List<Boolean> addresses = ByAddressClassWriter.addresses(f, raw);
            if (addresses.contains(true)) {
                int slots = raw.returnsGroup() ? 1 : 0;
                for (int i = 0; i < n; i++) {
                    RawParam p = raw.params().get(i);
                    slots += addresses.get(i) ? 2 : of(p.carrier());
                }
                requireFits(slots + 1, "its by-address downcall", name, at);
            }
            int typedSlots = 0;
            for (TypedParam p : f.params()) {
                if (!p.isJavaParameter()) continue;
                typedSlots += p.mapping() instanceof Mapping.Value v ? of(Carriers.primitive(v.kind())) : 1;
            }
            requireFits(typedSlots, "its typed method", name, at);
        }
    }

    /** Refuses a callback type whose upcall stub or handler interface passes the limit. */
    static void checkCallback(String name, CFunctionType type, Location at) {
        int slots = lowered(type, false, true);
        if (slots > LIMIT) {
            throw new DeclarationsException(at, "callback " + name + " needs " + slots + " JVM parameter slots in its upcall stub ("
                    + type.params().size() + " parameters; long, double and pointers take two, a struct by value two per 8"
                    + " bytes, the FFM linker " + UPCALL_OWN + " of its own); expected at most " + LIMIT
                    + ": pass the arguments in a struct by pointer instead");
        }
    }

    private static void requireFits(int slots, String what, String function, Location at) {
        if (slots > LIMIT) {
            throw new DeclarationsException(at, "function " + function + " needs " + slots + " JVM parameter slots in " + what
                    + "; expected at most " + LIMIT + ": pass the arguments in a struct by pointer instead");
        }
    }
}
