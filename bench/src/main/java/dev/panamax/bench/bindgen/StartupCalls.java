package dev.panamax.bench.bindgen;

import dev.panamax.bindgen.gen.Bindgen;
import dev.panamax.core.abi.CFunction;
import dev.panamax.core.abi.CFunctionType;
import dev.panamax.core.abi.CType;

import java.util.List;

/**
 * The Java source of {@code org.example.startup.StartupCalls}, compiled with the generated binding: every
 * startup fixture called once by a plain static call, through the raw layer ({@code raw()}) or recorded
 * through the thunks into one batch ({@code thunks(batch)}), so that the measured start is the binding's
 * and not reflection's. Calls are spread over methods of {@value #PER_METHOD} (a method holds 64 KiB of code).
 */
final class StartupCalls {
    static final int PER_METHOD = 200;

    private StartupCalls() {}

    static Bindgen.GeneratedFile source(List<CFunction> functions) {
        StringBuilder b = new StringBuilder("package org.example.startup;\n\npublic final class StartupCalls {\n");
        int parts = (functions.size() + PER_METHOD - 1) / PER_METHOD;
        b.append("    public static void raw() {\n");
        for (int p = 0; p < parts; p++) b.append("        raw").append(p).append("();\n");
        b.append("    }\n\n    public static void thunks(dev.panamax.core.batch.Batch batch) {\n");
        for (int p = 0; p < parts; p++) b.append("        thunks").append(p).append("(batch);\n");
        b.append("    }\n");
        for (int p = 0; p < parts; p++) {
            List<CFunction> run = functions.subList(p * PER_METHOD, Math.min(functions.size(), (p + 1) * PER_METHOD));
            b.append("\n    private static void raw").append(p).append("() {\n");
            for (CFunction f : run) b.append("        Startup.").append(f.symbol()).append('(').append(arguments(f)).append(");\n");
            b.append("    }\n\n    private static void thunks").append(p).append("(dev.panamax.core.batch.Batch batch) {\n");
            for (CFunction f : run) {
                String args = arguments(f);
                b.append("        StartupThunks.").append(f.symbol()).append(".record(batch").append(args.isEmpty() ? "" : ", " + args).append(");\n");
            }
            b.append("    }\n");
        }
        b.append("}\n");
        return new Bindgen.GeneratedFile("org/example/startup/StartupCalls.java", b.toString());
    }

    private static String arguments(CFunction f) {
        StringBuilder b = new StringBuilder();
        for (CFunctionType.Param p : f.type().params()) {
            if (!b.isEmpty()) b.append(", ");
            CType t = p.type();
            b.append(t == CType.POINTER ? "java.lang.foreign.MemorySegment.ofAddress(1)" : switch (((CType.Scalar) t).kind()) {
                case I8 -> "(byte) 1";
                case I16 -> "(short) 1";
                case I32 -> "1";
                case I64 -> "1L";
                case F32 -> "1f";
                case F64 -> "1.0";
                default -> throw new IllegalArgumentException(t.toString());
            });
        }
        return b.toString();
    }
}
