package dev.panamax.core.batch;

import dev.panamax.core.abi.CFunction;
import dev.panamax.core.abi.CType;
import dev.panamax.core.abi.Classification;
import dev.panamax.core.abi.MetaAbi;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.SymbolLookup;

/**
 * A function bound through its MetaABI thunk: callable alone through the uniform {@link ThunkHandle},
 * or recorded into a {@link Batch}.
 *
 * <pre>{@code
 * Thunk add = Thunk.find(lookup, new CFunction("add", CFunctionType.of(CType.I32, "a", CType.I32, "b", CType.I32)));
 * ParamBlock b = add.newBlock(arena).setInt(0, 2).setInt(1, 40);
 * int sum = (int) add.invoke(b);
 * }</pre>
 *
 * @param name     the C function's symbol
 * @param plan     its MetaABI classification
 * @param address  the address of {@code pmx_thunk_<name>}
 * @param critical declared short, never blocking, never calling back: may run in a CRITICAL batch
 *                 or through the critical handle
 * @param status   how its integer result tells success, or null when it returns no status
 */
public record Thunk(String name, Classification plan, MemorySegment address, boolean critical, StatusRule status) {
    public Thunk {
        if (address == null || address.equals(MemorySegment.NULL)) {
            throw new IllegalArgumentException("thunk address is NULL: function=" + name);
        }
        if (status != null && !CType.isRegisterScalar(plan.type().returns())) {
            throw BatchErrors.statusNeedsRegisterInteger(name, plan.type().returns());
        }
    }

    /** Prefix of every thunk symbol: the thunk of {@code crc32} is {@code pmx_thunk_crc32}. */
    public static final String SYMBOL_PREFIX = "pmx_thunk_";

    /** The symbol of the thunk of the C function {@code symbol}: {@code pmx_thunk_<symbol>}. */
    public static String symbolOf(String symbol) {
        return SYMBOL_PREFIX + symbol;
    }

    /** Finds {@code pmx_thunk_<symbol>} in {@code lookup}; not critical, no status check. */
    public static Thunk find(SymbolLookup lookup, CFunction function) {
        String symbol = symbolOf(function.symbol());
        MemorySegment address = lookup.find(symbol)
                .orElseThrow(() -> BatchErrors.symbolNotFound(symbol, function.symbol()));
        return new Thunk(function.symbol(), MetaAbi.classify(function.type()), address, false, null);
    }

    /** The same thunk declared critical (short, non-blocking, never calling back). */
    public Thunk asCritical() {
        return new Thunk(name, plan, address, true, status);
    }

    /** The same thunk whose result is a status checked by {@code rule} in batches. */
    public Thunk withStatus(StatusRule rule) {
        return new Thunk(name, plan, address, critical, rule);
    }

    /** A zeroed parameter block for this function. */
    public ParamBlock newBlock(SegmentAllocator allocator) {
        return ParamBlock.allocate(plan, allocator);
    }

    /**
     * Calls the function once through the uniform handle (critical if declared so) and returns the
     * raw return register: an integer, bool or pointer result in its low bytes (the bytes above the
     * result type's width are unspecified); FP and struct/union results are in {@code block}'s return slot.
     */
    public long invoke(ParamBlock block) {
        if (!block.plan().equals(plan)) {
            throw new IllegalArgumentException("block was planned for another function type: function=" + name);
        }
        MemorySegment arg = block.argument();
        return critical ? ThunkHandle.invokeCritical(address, arg) : ThunkHandle.invoke(address, arg);
    }
}
