package dev.panamax.bench.batch;

import dev.panamax.core.abi.CFunction;
import dev.panamax.core.abi.CFunctionType;
import dev.panamax.core.abi.CType;
import dev.panamax.core.abi.FfmLayouts;
import dev.panamax.core.batch.ParamBlock;
import dev.panamax.core.batch.Thunk;

import java.lang.foreign.Arena;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.util.ArrayList;
import java.util.List;

/**
 * One startup measurement in a fresh JVM: bind the 2,000 startup fixtures and call each once,
 * either with a downcall handle per function ({@code handles}; {@code link} stops after linking) or
 * through their thunks and the one uniform handle ({@code thunks}). Prints the milliseconds from
 * the first binding to the last call's return.
 */
public final class StartupChild {
    private StartupChild() {}

    public static void main(String[] args) throws Throwable {
        List<CFunction> functions = StartupSignatures.functions();
        SymbolLookup lookup = BatchNatives.lookup();
        long start = System.nanoTime();
        double check = switch (args[0]) {
            case "handles" -> handles(functions, lookup, true);
            case "link" -> handles(functions, lookup, false);
            case "thunks" -> thunks(functions, lookup);
            default -> throw new IllegalArgumentException("mode: handles | link | thunks");
        };
        long ns = System.nanoTime() - start;
        System.out.println((ns / 1e6) + " " + check);
    }

    private static double handles(List<CFunction> functions, SymbolLookup lookup, boolean call) throws Throwable {
        Linker linker = Linker.nativeLinker();
        double check = 0;
        for (CFunction f : functions) {
            MethodHandle h = linker.downcallHandle(lookup.find(f.symbol()).orElseThrow(), FfmLayouts.descriptorOf(f.type()));
            if (!call) continue;
            List<Object> args = new ArrayList<>();
            for (CFunctionType.Param p : f.type().params()) args.add(argument(p.type()));
            Object r = h.invokeWithArguments(args);
            check += r instanceof Number n ? n.doubleValue() : r instanceof MemorySegment m ? m.address() : 0;
        }
        return check;
    }

    private static double thunks(List<CFunction> functions, SymbolLookup lookup) {
        double check = 0;
        try (Arena arena = Arena.ofConfined()) {
            for (CFunction f : functions) {
                Thunk t = Thunk.find(lookup, f);
                ParamBlock b = t.newBlock(arena);
                List<CFunctionType.Param> ps = f.type().params();
                for (int i = 0; i < ps.size(); i++) write(b, i, ps.get(i).type());
                long raw = t.invoke(b);
                CType ret = f.type().returns();
                check += ret == CType.F64 ? b.returnDouble() : ret == CType.F32 ? b.returnFloat()
                        : ret == CType.I32 ? (int) raw : ret == CType.VOID ? 0 : raw;
            }
        }
        return check;
    }

    private static Object argument(CType t) {
        return switch (((CType.Scalar) (t == CType.POINTER ? CType.I64 : t)).kind()) {
            case I8 -> t == CType.POINTER ? MemorySegment.ofAddress(1) : (byte) 1;
            case I16 -> (short) 1;
            case I32 -> 1;
            case I64 -> t == CType.POINTER ? MemorySegment.ofAddress(1) : 1L;
            case F32 -> 1f;
            case F64 -> 1.0;
            default -> throw new IllegalArgumentException(t.toString());
        };
    }

    private static void write(ParamBlock b, int i, CType t) {
        if (t == CType.POINTER) {
            b.setAddress(i, MemorySegment.ofAddress(1));
            return;
        }
        switch (((CType.Scalar) t).kind()) {
            case I8 -> b.setByte(i, (byte) 1);
            case I16 -> b.setShort(i, (short) 1);
            case I32 -> b.setInt(i, 1);
            case I64 -> b.setLong(i, 1L);
            case F32 -> b.setFloat(i, 1f);
            case F64 -> b.setDouble(i, 1.0);
            default -> throw new IllegalArgumentException(t.toString());
        }
    }
}
