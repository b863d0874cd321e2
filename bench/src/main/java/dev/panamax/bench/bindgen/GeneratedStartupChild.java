package dev.panamax.bench.bindgen;

import dev.panamax.bench.batch.StartupSignatures;
import dev.panamax.core.abi.CFunction;
import dev.panamax.core.abi.CFunctionType;
import dev.panamax.core.abi.CType;
import dev.panamax.core.batch.Batch;
import dev.panamax.core.batch.BatchMode;
import dev.panamax.core.call.BatchedFunction;

import java.lang.foreign.MemorySegment;
import java.lang.reflect.Method;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One startup measurement in a fresh JVM, through a binding bindgen generated for the 2,000 startup
 * fixtures (its classes on the class path): {@code thunks} records every function once through the
 * generated {@code StartupThunks} and runs the batch; {@code raw} calls every function once through the
 * generated raw layer {@code Startup} (a downcall linked per function). Prints the milliseconds from the
 * first use of the binding to the last call's return.
 */
public final class GeneratedStartupChild {
    private GeneratedStartupChild() {}

    public static void main(String[] args) throws Exception {
        List<CFunction> functions = StartupSignatures.functions();
        long start = System.nanoTime();
        switch (args[0]) {
            case "thunks" -> {
                Class<?> thunks = Class.forName("org.example.startup.StartupThunks");
                try (Batch batch = Batch.create(BatchMode.STANDARD)) {
                    for (CFunction f : functions) {
                        BatchedFunction b = (BatchedFunction) thunks.getField(f.symbol()).get(null);
                        b.record(batch, arguments(f));
                    }
                    batch.run();
                }
            }
            case "raw" -> {
                Map<String, Method> methods = new HashMap<>();
                for (Method m : Class.forName("org.example.startup.Startup").getMethods()) methods.put(m.getName(), m);
                for (CFunction f : functions) methods.get(f.symbol()).invoke(null, arguments(f));
            }
            default -> throw new IllegalArgumentException("mode: thunks | raw");
        }
        System.out.println((System.nanoTime() - start) / 1e6);
    }

    private static Object[] arguments(CFunction f) {
        List<CFunctionType.Param> ps = f.type().params();
        Object[] args = new Object[ps.size()];
        for (int i = 0; i < args.length; i++) {
            CType t = ps.get(i).type();
            args[i] = t == CType.POINTER ? MemorySegment.ofAddress(1) : switch (((CType.Scalar) t).kind()) {
                case I8 -> (byte) 1;
                case I16 -> (short) 1;
                case I32 -> 1;
                case I64 -> 1L;
                case F32 -> 1f;
                case F64 -> 1.0;
                default -> throw new IllegalArgumentException(t.toString());
            };
        }
        return args;
    }
}
