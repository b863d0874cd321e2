package dev.panamax.bench.bindgen;

import dev.panamax.core.abi.CFunction;
import dev.panamax.core.abi.CFunctionType;
import dev.panamax.core.abi.CType;

import java.util.List;

/**
 * A declarations file for the batch suite's startup fixtures ({@code pmxs_f0} .. {@code pmxs_f1999}, 2,000
 * distinct signatures, defined with their thunks in {@code libpanamax_bench_batch.so}): every function
 * batchable, so the generated binding has a raw method and a thunk recorder for each.
 */
final class StartupDeclarations {
    private StartupDeclarations() {}

    /** The file; {@code library} is the path of the fixture library, {@code copies} &gt; 1 repeats every signature under new names (declarations only). */
    static String yaml(List<CFunction> functions, String library, int copies) {
        StringBuilder b = new StringBuilder("format: 1\nlibrary: startup\nsonames: [\"").append(library)
                .append("\"]\npackage: org.example.startup\nclass: Startup\nfunctions:\n");
        for (int c = 0; c < copies; c++) {
            for (CFunction f : functions) {
                String name = c == 0 ? f.symbol() : f.symbol() + "_" + c;
                b.append("  - {name: ").append(name).append(", returns: ").append(type(f.type().returns())).append(", params: [");
                List<CFunctionType.Param> ps = f.type().params();
                for (int i = 0; i < ps.size(); i++) {
                    if (i > 0) b.append(", ");
                    b.append('[').append(type(ps.get(i).type())).append(", ").append(ps.get(i).name()).append(']');
                }
                b.append("], batchable: true}\n");
            }
        }
        return b.toString();
    }

    private static String type(CType t) {
        return switch (t) {
            case CType.Void v -> "void";
            case CType.Pointer p -> "ptr";
            case CType.Scalar s -> switch (s.kind()) {
                case I8 -> "i8";
                case I16 -> "i16";
                case I32 -> "i32";
                case I64 -> "i64";
                case F32 -> "f32";
                case F64 -> "f64";
                default -> throw new IllegalArgumentException(t.toString());
            };
            default -> throw new IllegalArgumentException(t.toString());
        };
    }
}
