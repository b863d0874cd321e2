package dev.panamax.tensor.opencl;

import dev.panamax.tensor.DType;
import dev.panamax.tensor.opencl.Elementwise.Access;
import dev.panamax.tensor.opencl.Elementwise.Param;
import dev.panamax.tensor.opencl.Elementwise.Slot;
import dev.panamax.tensor.spi.BinaryOp;
import dev.panamax.tensor.spi.ReduceOp;
import dev.panamax.tensor.spi.UnaryOp;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The generator: the OpenCL C of one {@link ProgramKey}, every kernel of its family for its dtypes
 * (each op, contiguous and strided). Pure: the same key gives the same source, so a device compiles
 * each program once. Kernel names are made by the static methods here and nowhere else.
 */
final class KernelSources {
    /** Threads of a matmul tile side: a work-group is TILE x TILE. */
    static final int TILE = 16;
    /** The largest work-group of the tree reductions (their local arrays' length); a power of two. */
    static final int REDUCE_GROUP = 256;

    private KernelSources() {}

    static final String OPTIONS = "-cl-fp32-correctly-rounded-divide-sqrt";

    private static final String PRELUDE = """
            // MACHINE GENERATED FILE, DO NOT EDIT: dev.panamax.tensor.opencl.KernelSources
            #ifdef cl_khr_fp64
            #pragma OPENCL EXTENSION cl_khr_fp64 : enable
            typedef double acc_t;
            #else
            typedef float acc_t;
            #endif
            // Java's narrowing conversions: toward zero, NaN to 0, saturated at the bounds
            static inline int java_f2i(float x) { return isnan(x) ? 0 : convert_int_sat_rtz(x); }
            static inline long java_f2l(float x) { return isnan(x) ? 0 : convert_long_sat_rtz(x); }
            // NaN-propagating maximum and minimum (Math.max, Math.min)
            static inline float nan_max(float a, float b) { return isnan(a) ? a : isnan(b) ? b : (a >= b ? a : b); }
            // an index out of [0, bound): the first kernel to see one records its op, the index and the bound
            // (err: code, index low and high words, bound low word), and the kernel goes on without touching memory out of bounds
            static inline void report_index(__global int *err, int code, long index, long bound) {
                if (atomic_cmpxchg(err, 0, code) == 0) { err[1] = (int) index; err[2] = (int) (index >> 32); err[3] = (int) bound; err[4] = (int) (bound >> 32); }
            }
            // Java's Math.max and Math.min: NaN wins, and 0.0 is above -0.0
            static inline float java_max(float a, float b) { return isnan(a) ? a : isnan(b) ? b : a == b ? (signbit(a) ? b : a) : (a > b ? a : b); }
            static inline float java_min(float a, float b) { return isnan(a) ? a : isnan(b) ? b : a == b ? (signbit(a) ? a : b) : (a < b ? a : b); }
            static inline float nan_min(float a, float b) { return isnan(a) ? a : isnan(b) ? b : (a <= b ? a : b); }
            static inline acc_t acc_max(acc_t a, acc_t b) { return isnan(a) ? a : isnan(b) ? b : (a >= b ? a : b); }
            // d/dx of the tanh form of GELU
            static inline float gelu_grad(float x) {
                float t = tanh(0.7978845608028654f * (x + 0.044715f * x * x * x));
                return 0.5f * (1.0f + t) + 0.5f * x * (1.0f - t * t) * 0.7978845608028654f * (1.0f + 3.0f * 0.044715f * x * x);
            }

            """;

    /** The whole program of {@code key}. */
    static String source(ProgramKey key) {
        StringBuilder b = new StringBuilder(PRELUDE);
        switch (key.family()) {
            case FILL -> b.append(fill(key.type(0)).source());
            case UNARY -> {
                for (UnaryOp op : UnaryOp.values()) if (supports(op, key.type(1))) b.append(unary(op, key.type(0), key.type(1)).source());
            }
            case BINARY -> {
                for (BinaryOp op : BinaryOp.values()) {
                    if (!supports(op, key.type(1))) continue;
                    b.append(binary(op, key.type(0), key.type(1), false).source());
                    b.append(binary(op, key.type(0), key.type(1), true).source());
                }
            }
            case WHERE -> b.append(where(key.type(0), key.type(1)).source());
            case ADAM_STEP -> b.append(adam(key.type(0)).source()).append(adamWithStepScalars(key.type(0)).source());
            case REDUCE -> {
                for (ReduceOp op : ReduceOp.values()) b.append(reduce(op, key.type(0), ClType.of(reduceOutput(op, key.dtypes().get(0)))));
            }
            case MATMUL -> b.append(matmul(key.type(0)));
            case INDEX_SELECT -> b.append(indexSelect(key.type(0), key.type(1)));
            case INDEX_ADD -> b.append(indexAdd(key.type(0), key.type(1)));
            case CROSS_ENTROPY -> b.append(crossEntropy(key.type(0), key.type(1), key.type(2), key.type(3)));
            case SOFTMAX -> b.append(softmax(key.type(0)));
            case LAYER_NORM -> b.append(layerNorm(key.type(0)));
            case MAX_POOL -> b.append(maxPool(key.type(0)));
            case BATCH_NORM -> b.append(batchNorm(key.type(0)));
        }
        return b.toString();
    }

    // ---- names -----------------------------------------------------------------------------------

    static String unaryName(UnaryOp op) {
        return "unary_" + lower(op);
    }

    static String binaryName(BinaryOp op, boolean scalar) {
        return "binary_" + lower(op) + (scalar ? "_scalar" : "");
    }

    /** The dtype a reduction of {@code in} gives: sums of integers widen to i64, argmax is i64, the rest keep the dtype. */
    static DType reduceOutput(ReduceOp op, DType in) {
        return switch (op) {
            case SUM -> in.isFloating() ? in : DType.I64;
            case MAX, MIN -> in;
            case ARGMAX -> DType.I64;
        };
    }

    static String reduceName(ReduceOp op, boolean tree) {
        return "reduce_" + lower(op) + (tree ? "_tree" : "_rows");
    }

    private static String lower(Enum<?> e) {
        return e.name().toLowerCase(Locale.ROOT);
    }

    /** Whether {@code op} takes operands of {@code in}: every op but COPY is floating only. */
    static boolean supports(UnaryOp op, ClType in) {
        return op == UnaryOp.COPY || in.floating();
    }

    /** Whether {@code op} takes operands of {@code in}: POW and RELU_BACKWARD are floating only. */
    static boolean supports(BinaryOp op, ClType in) {
        return in.floating() || (op != BinaryOp.POW && op != BinaryOp.RELU_BACKWARD);
    }

    // ---- elementwise families ----------------------------------------------------------------------

    static Elementwise fill(ClType t) {
        return new Elementwise("fill", List.of(new Slot("out", t, Access.WRITE)), List.of(new Param(t.compute, "value")),
                "out_new = value;");
    }

    static Elementwise unary(UnaryOp op, ClType out, ClType in) {
        return new Elementwise(unaryName(op), List.of(new Slot("out", out, Access.WRITE), new Slot("in", in, Access.READ)), List.of(),
                "out_new = " + in.convert(unaryExpression(op, "in"), out) + ";");
    }

    private static String unaryExpression(UnaryOp op, String x) {
        return switch (op) {
            case COPY -> x;
            case NEG -> "-" + x;
            case EXP -> "exp(" + x + ")";
            case LOG -> "log(" + x + ")";
            case SQRT -> "sqrt(" + x + ")";
            case ABS -> "fabs(" + x + ")";
            case RELU -> "((" + x + " > 0.0f || isnan(" + x + ")) ? " + x + " : 0.0f)";
            case STEP -> "(" + x + " > 0.0f ? 1.0f : 0.0f)";
            case SIGMOID -> "(1.0f / (1.0f + exp(-" + x + ")))";
            case TANH -> "tanh(" + x + ")";
            case GELU -> "(0.5f * " + x + " * (1.0f + tanh(0.7978845608028654f * (" + x + " + 0.044715f * " + x + " * " + x + " * " + x + "))))";
            case GELU_GRAD -> "gelu_grad(" + x + ")";
            case ERF -> "erf(" + x + ")";
        };
    }

    static Elementwise binary(BinaryOp op, ClType out, ClType in, boolean scalar) {
        List<Slot> slots = new ArrayList<>(List.of(new Slot("out", out, Access.WRITE), new Slot("a", in, Access.READ)));
        List<Param> params = List.of();
        if (scalar) params = List.of(new Param(in.compute, "b"));
        else slots.add(new Slot("b", in, Access.READ));
        return new Elementwise(binaryName(op, scalar), slots, params,
                "out_new = " + in.convert(binaryExpression(op, in, "a", "b"), out) + ";");
    }

    private static String binaryExpression(BinaryOp op, ClType t, String a, String b) {
        String c = t.compute, one = t.floating() ? "1.0f" : "(" + c + ") 1", zero = t.floating() ? "0.0f" : "(" + c + ") 0";
        if (op.isComparison()) {
            String cmp = switch (op) {
                case EQ -> "==";
                case NE -> "!=";
                case LT -> "<";
                case LE -> "<=";
                case GT -> ">";
                default -> ">=";
            };
            return "((" + a + " " + cmp + " " + b + ") ? " + one + " : " + zero + ")";
        }
        if (t.floating()) {
            return switch (op) {
                case ADD -> a + " + " + b;
                case SUB -> a + " - " + b;
                case MUL -> a + " * " + b;
                case DIV -> a + " / " + b;
                case POW -> "pow(" + a + ", " + b + ")";
                case MAX -> "java_max(" + a + ", " + b + ")";
                case MIN -> "java_min(" + a + ", " + b + ")";
                case RELU_BACKWARD -> "(" + b + " > 0.0f ? " + a + " : 0.0f)";
                default -> throw new IllegalArgumentException(op.name());
            };
        }
        String u = t.unsigned;
        return switch (op) {
            case ADD -> "(" + c + ") ((" + u + ") " + a + " + (" + u + ") " + b + ")";
            case SUB -> "(" + c + ") ((" + u + ") " + a + " - (" + u + ") " + b + ")";
            case MUL -> "(" + c + ") ((" + u + ") " + a + " * (" + u + ") " + b + ")";
            // Java's MIN / -1 is MIN (C leaves it undefined); a zero divisor gives 0 (the frontend never sends one)
            case DIV -> "(" + b + " == 0 ? " + zero + " : " + b + " == -1 ? (" + c + ") ((" + u + ") 0 - (" + u + ") " + a + ") : " + a + " / " + b + ")";
            case MAX -> "max(" + a + ", " + b + ")";
            case MIN -> "min(" + a + ", " + b + ")";
            default -> throw new IllegalArgumentException(op + " on " + t.label());
        };
    }

    static Elementwise where(ClType t, ClType cond) {
        return new Elementwise("where",
                List.of(new Slot("out", t, Access.WRITE), new Slot("cond", cond, Access.READ), new Slot("a", t, Access.READ), new Slot("b", t, Access.READ)),
                List.of(), "out_new = cond != 0 ? a : b;");
    }

    /** The update of {@code Kernel.AdamStep}; the bias corrections and the decay factor come computed from the host. */
    static Elementwise adam(ClType t) {
        return new Elementwise("adam_step",
                List.of(new Slot("param", t, Access.READ_WRITE), new Slot("grad", t, Access.READ), new Slot("m", t, Access.READ_WRITE),
                        new Slot("v", t, Access.READ_WRITE)),
                List.of(new Param("float", "step_size"), new Param("float", "beta1"), new Param("float", "beta2"), new Param("float", "eps"),
                        new Param("float", "weight_decay"), new Param("float", "decay_factor"), new Param("float", "c2"), new Param("int", "decoupled")),
                """
                float p = param;
                float g = grad;
                if (decoupled) p *= decay_factor; else g += weight_decay * p;
                float mi = beta1 * m + (1.0f - beta1) * g;
                float vi = beta2 * v + (1.0f - beta2) * g * g;
                m_new = mi;
                v_new = vi;
                param_new = p - step_size * mi / (sqrt(vi / c2) + eps);
                """);
    }

    /**
     * The update of {@code Kernel.AdamStep} given step scalars: its lr, step size ({@code lr / c1})
     * and {@code 1 / c2} read from a three-float buffer when it runs (what a captured step's hook
     * writes before every replay), the decay factor computed from them.
     */
    static Elementwise adamWithStepScalars(ClType t) {
        return new Elementwise("adam_step_scalars",
                List.of(new Slot("param", t, Access.READ_WRITE), new Slot("grad", t, Access.READ), new Slot("m", t, Access.READ_WRITE),
                        new Slot("v", t, Access.READ_WRITE)),
                List.of(new Param("__global const float *", "scalars"), new Param("long", "scalars_o"), new Param("float", "beta1"),
                        new Param("float", "beta2"), new Param("float", "eps"), new Param("float", "weight_decay"), new Param("int", "decoupled")),
                """
                float lr = scalars[scalars_o];
                float step_size = scalars[scalars_o + 1];
                float inv_c2 = scalars[scalars_o + 2];
                float p = param;
                float g = grad;
                if (decoupled) p *= 1.0f - lr * weight_decay; else g += weight_decay * p;
                float mi = beta1 * m + (1.0f - beta1) * g;
                float vi = beta2 * v + (1.0f - beta2) * g * g;
                m_new = mi;
                v_new = vi;
                param_new = p - step_size * mi / (sqrt(vi * inv_c2) + eps);
                """);
    }

    // ---- reductions --------------------------------------------------------------------------------

    /**
     * Two kernels per op: {@code _rows}, one work item per output element walking the axis (short
     * axes), and {@code _tree}, one work-group per output element whose threads stride the axis and
     * then combine pairwise in local memory (long axes). Both combine in a fixed order: deterministic.
     */
    private static String reduce(ReduceOp op, ClType in, ClType out) {
        String acc, init, step, merge, result;
        String idx = "long";
        boolean indexed = op == ReduceOp.ARGMAX;
        String ic = in.compute;
        switch (op) {
            case SUM -> {
                acc = in.floating() ? "acc_t" : "ulong";
                init = "0";
                step = in.floating() ? "acc = acc + (acc_t) x;" : "acc = acc + (ulong) (long) x;";
                merge = "acc = acc + other;";
                result = in.floating() ? in.convert("(float) acc", out) : "(long) acc";
            }
            case MAX, MIN -> {
                acc = ic;
                boolean max = op == ReduceOp.MAX;
                init = in.floating() ? (max ? "-INFINITY" : "INFINITY") : in == ClType.I32 ? (max ? "INT_MIN" : "INT_MAX") : (max ? "LONG_MIN" : "LONG_MAX");
                String f = in.floating() ? (max ? "nan_max" : "nan_min") : (max ? "max" : "min");
                step = "acc = " + f + "(acc, x);";
                merge = "acc = " + f + "(acc, other);";
                result = in.convert("acc", out);
            }
            default -> { // ARGMAX: the first index of the maximum, NaN counting as the maximum
                acc = ic;
                init = in.floating() ? "-INFINITY" : in == ClType.I32 ? "INT_MIN" : "LONG_MIN";
                String nanX = in.floating() ? "isnan(x)" : "0", nanAcc = in.floating() ? "isnan(acc)" : "0";
                String nanO = in.floating() ? "isnan(other)" : "0";
                step = "if (!(" + nanAcc + ") && (" + nanX + " || x > acc)) { acc = x; at = i; }";
                merge = "if ((" + nanO + " && !(" + nanAcc + ")) || (!(" + nanAcc + ") && other > acc) || ((other == acc || (" + nanO + " && "
                        + nanAcc + ")) && other_at < at)) { acc = other; at = other_at; }";
                result = "at";
            }
        }
        String storeOut = out.store("out_p", "out_at", indexed ? "at" : result);
        String header = "(__global " + out.storage + " *out_p, __global const " + in.storage + " *in_p, __global const long *layout, long count, long length, long step)";
        String offsets = """
                    int rank = (int) layout[0];
                    __global const long *out_s = layout + 2 + rank;
                    __global const long *in_s = layout + 3 + 2 * rank;
                    long out_at = layout[1 + rank];
                    long in_at = layout[2 + 2 * rank];
                    long rest = gid;
                    for (int d = rank - 1; d >= 0; d--) {
                        long extent = layout[1 + d];
                        long idx = rest % extent;
                        rest /= extent;
                        out_at += idx * out_s[d];
                        in_at += idx * in_s[d];
                    }
                """;
        String load = "        " + ic + " x = " + in.load("in_p", "in_at + i * step") + ";\n";
        StringBuilder b = new StringBuilder();
        b.append("__kernel void ").append(reduceName(op, false)).append(header).append(" {\n");
        b.append("    long gid = get_global_id(0);\n    if (gid >= count) return;\n").append(offsets);
        b.append("    ").append(acc).append(" acc = ").append(init).append(";\n");
        if (indexed) b.append("    long at = LONG_MAX;\n");
        b.append("    for (long i = 0; i < length; i++) {\n").append(load).append("        ").append(step).append("\n    }\n");
        if (indexed) b.append("    if (at == LONG_MAX) at = 0;\n");
        b.append("    ").append(storeOut).append("\n}\n\n");

        b.append("__kernel void ").append(reduceName(op, true)).append(header).append(" {\n");
        b.append("    __local ").append(acc).append(" part[").append(REDUCE_GROUP).append("];\n");
        if (indexed) b.append("    __local long part_at[").append(REDUCE_GROUP).append("];\n");
        b.append("    long gid = get_group_id(0);\n    int lid = (int) get_local_id(0);\n    int group = (int) get_local_size(0);\n");
        b.append("    if (gid >= count) return;\n").append(offsets);
        b.append("    ").append(acc).append(" acc = ").append(init).append(";\n");
        if (indexed) b.append("    long at = LONG_MAX;\n");
        b.append("    for (long i = lid; i < length; i += group) {\n").append(load).append("        ").append(step).append("\n    }\n");
        b.append("    part[lid] = acc;\n");
        if (indexed) b.append("    part_at[lid] = at;\n");
        b.append("    barrier(CLK_LOCAL_MEM_FENCE);\n");
        b.append("    for (int half_ = group / 2; half_ > 0; half_ /= 2) {\n");
        b.append("        if (lid < half_) {\n            acc = part[lid];\n            ").append(acc).append(" other = part[lid + half_];\n");
        if (indexed) b.append("            at = part_at[lid];\n            long other_at = part_at[lid + half_];\n");
        b.append("            ").append(merge).append("\n            part[lid] = acc;\n");
        if (indexed) b.append("            part_at[lid] = at;\n");
        b.append("        }\n        barrier(CLK_LOCAL_MEM_FENCE);\n    }\n");
        b.append("    if (lid != 0) return;\n    acc = part[0];\n");
        if (indexed) b.append("    at = part_at[0];\n    if (at == LONG_MAX) at = 0;\n");
        b.append("    ").append(storeOut).append("\n}\n\n");
        return b.toString();
    }

    // ---- matmul, indexing, fused ---------------------------------------------------------------------

    /**
     * Batched tiled GEMM: a TILE x TILE work-group computes a TILE x TILE block of one batch's
     * output, staging TILE-wide slabs of a and b in local memory. Any strides, a batch stride of 0
     * included; {@code accumulate} adds to out. Accumulates in float.
     */
    private static String matmul(ClType t) {
        String s = t.storage;
        return """
                #define TILE %d
                // layout: m, n, k, batch, then offset and three strides for out, a and b
                __kernel void matmul(__global %s *out_p, __global const %s *a_p, __global const %s *b_p, __global const long *layout, int accumulate) {
                    __local float ta[TILE][TILE + 1];
                    __local float tb[TILE][TILE + 1];
                    long m = layout[0], n = layout[1], k = layout[2], batch = layout[3];
                    int lc = (int) get_local_id(0), lr = (int) get_local_id(1);
                    long col = get_global_id(0), row = get_global_id(1), p = get_global_id(2);
                    if (p >= batch) return;
                    long a_base = layout[8] + p * layout[9] + row * layout[10];
                    long b_base = layout[12] + p * layout[13] + col * layout[15];
                    float sum = 0.0f;
                    for (long t = 0; t < k; t += TILE) {
                        long ka = t + lc, kb = t + lr;
                        ta[lr][lc] = (row < m && ka < k) ? %s : 0.0f;
                        tb[lr][lc] = (col < n && kb < k) ? %s : 0.0f;
                        barrier(CLK_LOCAL_MEM_FENCE);
                        for (int q = 0; q < TILE; q++) sum += ta[lr][q] * tb[q][lc];
                        barrier(CLK_LOCAL_MEM_FENCE);
                    }
                    if (row >= m || col >= n) return;
                    long at = layout[4] + p * layout[5] + row * layout[6] + col * layout[7];
                    if (accumulate) sum = %s + sum;
                    %s
                }
                """.formatted(TILE, s, s, s, t.load("a_p", "a_base + ka * layout[11]"), t.load("b_p", "b_base + kb * layout[14]"),
                t.load("out_p", "at"), t.store("out_p", "at", "sum"));
    }

    /** The output walked by shape; along {@code axis} the input's index is read from {@code index}. */
    private static String indexSelect(ClType t, ClType ix) {
        return """
                // layout: rank, axis, out's shape, out's offset and strides, in's offset and strides, index's offset and stride
                __kernel void index_select(__global %s *out_p, __global const %s *in_p, __global const %s *index_p, __global const long *layout, long n, long bound, __global int *err) {
                    long gid = get_global_id(0);
                    if (gid >= n) return;
                    int rank = (int) layout[0], axis = (int) layout[1];
                    __global const long *shape = layout + 2;
                    __global const long *out_s = layout + 3 + rank;
                    __global const long *in_s = layout + 4 + 2 * rank;
                    long out_at = layout[2 + rank], in_at = layout[3 + 2 * rank];
                    long ix_at = layout[4 + 3 * rank], ix_step = layout[5 + 3 * rank];
                    long rest = gid;
                    for (int d = rank - 1; d >= 0; d--) {
                        long idx = rest %% shape[d];
                        rest /= shape[d];
                        out_at += idx * out_s[d];
                        long pick = idx;
                        if (d == axis) {
                            pick = (long) index_p[ix_at + idx * ix_step];
                            if (pick < 0 || pick >= bound) { report_index(err, 1, pick, bound); pick = 0; }
                        }
                        in_at += pick * in_s[d];
                    }
                    %s
                }
                """.formatted(t.storage, t.storage, ix.storage, t.store("out_p", "out_at", t.load("in_p", "in_at")));
    }

    /**
     * One work item per column of {@code src} (every index but the axis), walking the index in order:
     * an output element's additions happen in the reference's order, by one work item, with no atomics.
     */
    private static String indexAdd(ClType t, ClType ix) {
        String add = t.floating() ? "o + s" : "(" + t.compute + ") ((" + t.unsigned + ") o + (" + t.unsigned + ") s)";
        return """
                // layout: rank, axis, src's shape, out's offset and strides, src's offset and strides, index's offset and stride
                __kernel void index_add(__global %s *out_p, __global const %s *index_p, __global const %s *src_p, __global const long *layout, long columns, long bound, __global int *err) {
                    long gid = get_global_id(0);
                    if (gid >= columns) return;
                    int rank = (int) layout[0], axis = (int) layout[1];
                    __global const long *shape = layout + 2;
                    __global const long *out_s = layout + 3 + rank;
                    __global const long *src_s = layout + 4 + 2 * rank;
                    long out_at = layout[2 + rank], src_at = layout[3 + 2 * rank];
                    long ix_at = layout[4 + 3 * rank], ix_step = layout[5 + 3 * rank];
                    long rest = gid;
                    for (int d = rank - 1; d >= 0; d--) {
                        if (d == axis) continue;
                        long idx = rest %% shape[d];
                        rest /= shape[d];
                        out_at += idx * out_s[d];
                        src_at += idx * src_s[d];
                    }
                    for (long i = 0; i < shape[axis]; i++) {
                        long pick = (long) index_p[ix_at + i * ix_step];
                        if (pick < 0 || pick >= bound) { report_index(err, 2, pick, bound); continue; }
                        long to = out_at + pick * out_s[axis];
                        %s o = %s;
                        %s s = %s;
                        %s
                    }
                }
                """.formatted(t.storage, ix.storage, t.storage, t.compute, t.load("out_p", "to"), t.compute,
                t.load("src_p", "src_at + i * src_s[axis]"), t.store("out_p", "to", add));
    }

    /**
     * Softmax cross-entropy in one work-group: each thread takes every group-th row (max, sum of
     * exponentials, loss, gradient row), then the row losses are summed pairwise in local memory.
     * Computed in {@code acc_t} (double where the device has it, as the reference).
     */
    private static String crossEntropy(ClType x, ClType labels, ClType loss, ClType grad) {
        return """
                // layout: n, c, logits' offset and two strides, labels' offset and stride, grad's offset and two strides, loss's offset
                __kernel void cross_entropy(__global %s *loss_p, __global %s *grad_p, __global const %s *x_p, __global const %s *y_p, __global const long *layout, int has_grad, __global int *err) {
                    __local acc_t part[%d];
                    int lid = (int) get_local_id(0), group = (int) get_local_size(0);
                    long n = layout[0], c = layout[1];
                    acc_t total = 0;
                    for (long i = lid; i < n; i += group) {
                        long row = layout[2] + i * layout[3];
                        acc_t mx = -INFINITY;
                        for (long j = 0; j < c; j++) mx = acc_max(mx, (acc_t) %s);
                        acc_t sum = 0;
                        for (long j = 0; j < c; j++) sum += exp((acc_t) %s - mx);
                        long label = (long) y_p[layout[5] + i * layout[6]];
                        if (label < 0 || label >= c) { report_index(err, 3, label, c); label = 0; }
                        total += mx + log(sum) - (acc_t) %s;
                        if (!has_grad) continue;
                        for (long j = 0; j < c; j++) {
                            acc_t g = (exp((acc_t) %s - mx) / sum - (j == label ? 1 : 0)) / (acc_t) n;
                            long at = layout[7] + i * layout[8] + j * layout[9];
                            %s
                        }
                    }
                    part[lid] = total;
                    barrier(CLK_LOCAL_MEM_FENCE);
                    for (int half_ = group / 2; half_ > 0; half_ /= 2) {
                        if (lid < half_) part[lid] = part[lid] + part[lid + half_];
                        barrier(CLK_LOCAL_MEM_FENCE);
                    }
                    if (lid == 0) { %s }
                }
                """.formatted(loss.storage, grad.storage, x.storage, labels.storage, REDUCE_GROUP,
                x.load("x_p", "row + j * layout[4]"), x.load("x_p", "row + j * layout[4]"), x.load("x_p", "row + label * layout[4]"),
                x.load("x_p", "row + j * layout[4]"), grad.store("grad_p", "at", "(float) g"),
                loss.store("loss_p", "layout[10]", "(float) (part[0] / (acc_t) n)"));
    }

    /**
     * Softmax over the rows of an (n, c) matrix and its gradient, one work item per row (the row's
     * max, sum and writes in {@code acc_t}, as the reference). Layout: n, c, then offset, row stride
     * and column stride of out, of x (or y), and of dy, then the causal rows (0 for none).
     */
    private static String softmax(ClType t) {
        String x = t.load("x_p", "xr + j * layout[7]");
        String y = t.load("y_p", "yr + j * layout[7]");
        String g = t.load("g_p", "gr + j * layout[10]");
        return """
                __kernel void softmax(__global %1$s *out_p, __global const %1$s *x_p, __global const long *layout) {
                    long i = get_global_id(0);
                    if (i >= layout[0]) return;
                    long c = layout[1], orow = layout[2] + i * layout[3], xr = layout[5] + i * layout[6];
                    long seen = layout[11] > 0 && i %% layout[11] + 1 < c ? i %% layout[11] + 1 : c;
                    acc_t mx = -INFINITY;
                    for (long j = 0; j < seen; j++) { acc_t e = (acc_t) %2$s; mx = (e > mx || isnan(e)) ? e : mx; }
                    acc_t sum = 0;
                    for (long j = 0; j < seen; j++) sum += exp((acc_t) %2$s - mx);
                    for (long j = 0; j < seen; j++) {
                        long at = orow + j * layout[4];
                        %3$s
                    }
                    for (long j = seen; j < c; j++) { long at = orow + j * layout[4]; %7$s }
                }
                __kernel void softmax_grad(__global %1$s *out_p, __global const %1$s *y_p, __global const %1$s *g_p, __global const long *layout) {
                    long i = get_global_id(0);
                    if (i >= layout[0]) return;
                    long c = layout[1], orow = layout[2] + i * layout[3], yr = layout[5] + i * layout[6], gr = layout[8] + i * layout[9];
                    acc_t dot = 0;
                    for (long j = 0; j < c; j++) dot += (acc_t) %4$s * (acc_t) %5$s;
                    for (long j = 0; j < c; j++) {
                        long at = orow + j * layout[4];
                        %6$s
                    }
                }
                """.formatted(t.storage, x, t.store("out_p", "at", "(" + t.compute + ") (exp((acc_t) " + x + " - mx) / sum)"), y, g,
                t.store("out_p", "at", "(" + t.compute + ") ((acc_t) " + y + " * ((acc_t) " + g + " - dot))"),
                t.store("out_p", "at", "(" + t.compute + ") 0"));
    }
    /**
     * Layer normalization over the rows of an (n, d) matrix and its gradient: one work item per row
     * forward and for the input's gradient, one per column for the weight's and bias's sums over the
     * rows (any d and n; statistics in {@code acc_t}, as the reference). Layout: n, d; offset, row and
     * column stride of out (or dx) and of x; offset and stride of mean, of rstd; offset, stride and
     * presence of weight, of bias (or dweight); offset, row and column stride of dy; offset, stride
     * and presence of dbias.
     */
    private static String layerNorm(ClType t) {
        String x = t.load("x_p", "xr + j * layout[7]");
        String w = t.load("w_p", "layout[12] + j * layout[13]");
        String b = t.load("b_p", "layout[15] + j * layout[16]");
        String g = t.load("dy_p", "gr + j * layout[20]");
        String params = "__global %1$s *out_p, __global %1$s *b_p, __global %1$s *db_p, __global const %1$s *dy_p, "
                + "__global const %1$s *x_p, __global %1$s *mean_p, __global %1$s *rstd_p, __global const %1$s *w_p, "
                + "__global const long *layout";
        return ("""
                __kernel void layer_norm(%2$s, float eps) {
                    long i = get_global_id(0);
                    if (i >= layout[0]) return;
                    long c = layout[1], orow = layout[2] + i * layout[3], xr = layout[5] + i * layout[6];
                    acc_t sum = 0;
                    for (long j = 0; j < c; j++) sum += (acc_t) %3$s;
                    acc_t mu = sum / (acc_t) c, squares = 0;
                    for (long j = 0; j < c; j++) { acc_t e = (acc_t) %3$s - mu; squares += e * e; }
                    acc_t r = (acc_t) 1 / sqrt(squares / (acc_t) c + (acc_t) eps);
                    %6$s
                    %7$s
                    for (long j = 0; j < c; j++) {
                        acc_t y = ((acc_t) %3$s - mu) * r;
                        if (layout[14]) y *= (acc_t) %4$s;
                        if (layout[17]) y += (acc_t) %5$s;
                        long at = orow + j * layout[4];
                        %8$s
                    }
                }
                __kernel void layer_norm_grad(%2$s) {
                    long i = get_global_id(0);
                    if (i >= layout[0]) return;
                    long c = layout[1], orow = layout[2] + i * layout[3], xr = layout[5] + i * layout[6], gr = layout[18] + i * layout[19];
                    acc_t mu = (acc_t) %9$s, r = (acc_t) %10$s;
                    acc_t sumG = 0, sumGx = 0;
                    for (long j = 0; j < c; j++) {
                        acc_t g = (acc_t) %11$s;
                        if (layout[14]) g *= (acc_t) %4$s;
                        sumG += g;
                        sumGx += g * (((acc_t) %3$s - mu) * r);
                    }
                    acc_t meanG = sumG / (acc_t) c, meanGx = sumGx / (acc_t) c;
                    for (long j = 0; j < c; j++) {
                        acc_t g = (acc_t) %11$s;
                        if (layout[14]) g *= (acc_t) %4$s;
                        acc_t y = r * (g - meanG - (((acc_t) %3$s - mu) * r) * meanGx);
                        long at = orow + j * layout[4];
                        %8$s
                    }
                }
                __kernel void layer_norm_param_grad(%2$s) {
                    long j = get_global_id(0);
                    if (j >= layout[1]) return;
                    acc_t dw = 0, db = 0;
                    for (long i = 0; i < layout[0]; i++) {
                        long xr = layout[5] + i * layout[6], gr = layout[18] + i * layout[19];
                        acc_t g = (acc_t) %11$s;
                        dw += g * (((acc_t) %3$s - (acc_t) %9$s) * (acc_t) %10$s);
                        db += g;
                    }
                    if (layout[17]) { %12$s }
                    if (layout[23]) { %13$s }
                }
                """).formatted(t.storage, params.formatted(t.storage), x, w, b,
                t.store("mean_p", "layout[8] + i * layout[9]", "(" + t.compute + ") mu"),
                t.store("rstd_p", "layout[10] + i * layout[11]", "(" + t.compute + ") r"),
                t.store("out_p", "at", "(" + t.compute + ") y"),
                t.load("mean_p", "layout[8] + i * layout[9]"), t.load("rstd_p", "layout[10] + i * layout[11]"), g,
                t.store("b_p", "layout[15] + j * layout[16]", "(" + t.compute + ") dw"),
                t.store("db_p", "layout[21] + j * layout[22]", "(" + t.compute + ") db"));
    }

    /**
     * Max pooling with each window's position (a work item per output element; the first in-bounds
     * position starts as the pick at -inf, a later element replaces it when larger or NaN, as
     * PyTorch's) and its gradient (a work item per (n, c) plane: the plane zeroed, then each output's
     * gradient added at its position in output order, so no two work items write one element and the
     * sums' order is fixed). Layout forward: n, c, h, w, out h, out w, kernel, stride, padding and
     * dilation (each height then width), then the offset and four strides of in, out and indices;
     * backward: n, c, h, w, out h, out w, then the offset and four strides of dx, dy and indices.
     */
    private static String maxPool(ClType t) {
        return """
                __kernel void max_pool(__global %1$s *out_p, __global long *ix_p, __global const %1$s *in_p, __global const long *layout) {
                    long gid = get_global_id(0);
                    long oh = layout[4], ow = layout[5];
                    if (gid >= layout[0] * layout[1] * oh * ow) return;
                    long h = layout[2], w = layout[3];
                    long ox = gid %% ow, oy = (gid / ow) %% oh, ch = (gid / (ow * oh)) %% layout[1], n = gid / (ow * oh * layout[1]);
                    long base = layout[14] + n * layout[15] + ch * layout[16];
                    long y0 = oy * layout[8] - layout[10], x0 = ox * layout[9] - layout[11];
                    %2$s max = -INFINITY;
                    long pick = -1;
                    for (long ky = 0; ky < layout[6]; ky++) {
                        long y = y0 + ky * layout[12];
                        if (y < 0 || y >= h) continue;
                        for (long kx = 0; kx < layout[7]; kx++) {
                            long x = x0 + kx * layout[13];
                            if (x < 0 || x >= w) continue;
                            %2$s v = %3$s;
                            if (pick < 0) pick = y * w + x;
                            if (v > max || isnan(v)) { max = v; pick = y * w + x; }
                        }
                    }
                    long at = layout[19] + n * layout[20] + ch * layout[21] + oy * layout[22] + ox * layout[23];
                    %4$s
                    ix_p[layout[24] + n * layout[25] + ch * layout[26] + oy * layout[27] + ox * layout[28]] = pick;
                }
                __kernel void max_pool_grad(__global %1$s *dx_p, __global const %1$s *dy_p, __global const long *ix_p, __global const long *layout) {
                    long plane = get_global_id(0);
                    long c = layout[1];
                    if (plane >= layout[0] * c) return;
                    long n = plane / c, ch = plane %% c, h = layout[2], w = layout[3], oh = layout[4], ow = layout[5];
                    long dxb = layout[6] + n * layout[7] + ch * layout[8];
                    for (long y = 0; y < h; y++) {
                        for (long x = 0; x < w; x++) { long at = dxb + y * layout[9] + x * layout[10]; %5$s }
                    }
                    long dyb = layout[11] + n * layout[12] + ch * layout[13], ixb = layout[16] + n * layout[17] + ch * layout[18];
                    for (long oy = 0; oy < oh; oy++) {
                        for (long ox = 0; ox < ow; ox++) {
                            long pick = ix_p[ixb + oy * layout[19] + ox * layout[20]];
                            if (pick < 0) continue;
                            long at = dxb + (pick / w) * layout[9] + (pick %% w) * layout[10];
                            %2$s g = %6$s + %7$s;
                            %8$s
                        }
                    }
                }
                """.formatted(t.storage, t.compute, t.load("in_p", "base + y * layout[17] + x * layout[18]"),
                t.store("out_p", "at", "max"), t.store("dx_p", "at", "(" + t.compute + ") 0"), t.load("dx_p", "at"),
                t.load("dy_p", "dyb + oy * layout[14] + ox * layout[15]"), t.store("dx_p", "at", "g"));
    }

    /**
     * Batch normalization in training over the channels of an (n, c, s) input and its gradient: one
     * work item per channel each way (statistics in {@code acc_t}, as the reference). Layout: n, c, s;
     * offset and three strides of out (or dx), of x, of dy; offset and stride of mean, of var; offset,
     * stride and presence of weight, of bias (or dweight), of dbias.
     */
    private static String batchNorm(ClType t) {
        String x = t.load("x_p", "layout[7] + i * layout[8] + k * layout[9] + j * layout[10]");
        String g = t.load("dy_p", "layout[11] + i * layout[12] + k * layout[13] + j * layout[14]");
        String params = "__global %1$s *out_p, __global %1$s *b_p, __global %1$s *db_p, __global const %1$s *dy_p, "
                + "__global const %1$s *x_p, __global %1$s *mean_p, __global %1$s *var_p, __global const %1$s *w_p, "
                + "__global const long *layout, float eps";
        return ("""
                __kernel void batch_norm(%2$s) {
                    long k = get_global_id(0);
                    if (k >= layout[1]) return;
                    long n = layout[0], s = layout[2];
                    acc_t m = (acc_t) n * (acc_t) s, sum = 0;
                    for (long i = 0; i < n; i++) for (long j = 0; j < s; j++) sum += (acc_t) %3$s;
                    acc_t mu = sum / m, squares = 0;
                    for (long i = 0; i < n; i++) for (long j = 0; j < s; j++) { acc_t e = (acc_t) %3$s - mu; squares += e * e; }
                    acc_t variance = squares / m, r = (acc_t) 1 / sqrt(variance + (acc_t) eps);
                    acc_t scale = layout[21] ? (acc_t) %5$s : (acc_t) 1, shift = layout[24] ? (acc_t) %6$s : (acc_t) 0;
                    %7$s
                    %8$s
                    for (long i = 0; i < n; i++) {
                        for (long j = 0; j < s; j++) {
                            acc_t y = ((acc_t) %3$s - mu) * r * scale + shift;
                            long at = layout[3] + i * layout[4] + k * layout[5] + j * layout[6];
                            %9$s
                        }
                    }
                }
                __kernel void batch_norm_grad(%2$s) {
                    long k = get_global_id(0);
                    if (k >= layout[1]) return;
                    long n = layout[0], s = layout[2];
                    acc_t m = (acc_t) n * (acc_t) s, mu = (acc_t) %10$s;
                    acc_t r = (acc_t) 1 / sqrt((acc_t) %11$s + (acc_t) eps), scale = layout[21] ? (acc_t) %5$s : (acc_t) 1;
                    acc_t sumDy = 0, sumDyX = 0;
                    for (long i = 0; i < n; i++) {
                        for (long j = 0; j < s; j++) { acc_t g = (acc_t) %4$s; sumDy += g; sumDyX += g * (((acc_t) %3$s - mu) * r); }
                    }
                    if (layout[24]) { %12$s }
                    if (layout[27]) { %13$s }
                    acc_t meanG = scale * sumDy / m, meanGx = scale * sumDyX / m;
                    for (long i = 0; i < n; i++) {
                        for (long j = 0; j < s; j++) {
                            acc_t y = r * (scale * (acc_t) %4$s - meanG - (((acc_t) %3$s - mu) * r) * meanGx);
                            long at = layout[3] + i * layout[4] + k * layout[5] + j * layout[6];
                            %9$s
                        }
                    }
                }
                """).formatted(t.storage, params.formatted(t.storage), x, g, t.load("w_p", "layout[19] + k * layout[20]"),
                t.load("b_p", "layout[22] + k * layout[23]"),
                t.store("mean_p", "layout[15] + k * layout[16]", "(" + t.compute + ") mu"),
                t.store("var_p", "layout[17] + k * layout[18]", "(" + t.compute + ") variance"),
                t.store("out_p", "at", "(" + t.compute + ") y"),
                t.load("mean_p", "layout[15] + k * layout[16]"), t.load("var_p", "layout[17] + k * layout[18]"),
                t.store("b_p", "layout[22] + k * layout[23]", "(" + t.compute + ") sumDyX"),
                t.store("db_p", "layout[25] + k * layout[26]", "(" + t.compute + ") sumDy"));
    }
}
