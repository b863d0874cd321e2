package dev.panamax.tensor.opencl;

import java.util.List;

/**
 * One elementwise kernel before it is written out twice, as a contiguous and a strided function:
 * its operands (out first), its scalar parameters, and a body of statements that reads each read
 * operand's element as a variable of its name and assigns each written operand's new element to
 * {@code <name>_new}.
 *
 * @param name     the kernel's base name ({@code binary_add}); the functions add {@code _dense} and {@code _strided}
 * @param operands the tensors it touches, in argument order
 * @param params   scalar arguments after the tensors
 * @param body     OpenCL C statements computing one element
 */
record Elementwise(String name, List<Slot> operands, List<Param> params, String body) {
    /** Elements per work item on the contiguous path: one vector load or store per operand. */
    static final int VECTOR = 4;

    /** How a kernel uses an operand. */
    enum Access { READ, WRITE, READ_WRITE }

    /** A tensor argument. */
    record Slot(String name, ClType type, Access access) {
        boolean reads() {
            return access != Access.WRITE;
        }

        boolean writes() {
            return access != Access.READ;
        }
    }

    /** A scalar argument, passed by value. */
    record Param(String cType, String name) {}

    Elementwise {
        operands = List.copyOf(operands);
        params = List.copyOf(params);
    }

    /** Both functions' OpenCL C. */
    String source() {
        return dense() + strided();
    }

    private String pointers() {
        StringBuilder b = new StringBuilder();
        for (Slot s : operands) {
            b.append(b.isEmpty() ? "" : ", ").append("__global ").append(s.writes() ? "" : "const ").append(s.type().storage)
                    .append(" *").append(s.name()).append("_p");
        }
        return b.toString();
    }

    private String paramList() {
        StringBuilder b = new StringBuilder();
        for (Param p : params) b.append(", ").append(p.cType()).append(' ').append(p.name());
        return b.toString();
    }

    /** Flat index, every operand dense from its offset: four elements per work item, by vector loads when whole. */
    private String dense() {
        StringBuilder b = new StringBuilder();
        b.append("__kernel void ").append(name).append("_dense(").append(pointers());
        for (Slot s : operands) b.append(", long ").append(s.name()).append("_o");
        b.append(paramList()).append(", long n) {\n");
        b.append("    long base = (long) get_global_id(0) * ").append(VECTOR).append(";\n");
        b.append("    if (base >= n) return;\n");
        b.append("    if (base + ").append(VECTOR).append(" <= n) {\n");
        for (Slot s : operands) {
            b.append("        ").append(s.type().compute).append(' ').append(s.name()).append("_v[").append(VECTOR).append("];\n");
            if (s.reads()) b.append("        ").append(s.type().load4(s.name() + "_p", s.name() + "_o + base", s.name() + "_v")).append('\n');
        }
        b.append("        for (int k = 0; k < ").append(VECTOR).append("; k++) {\n");
        for (Slot s : operands) {
            if (s.reads()) b.append("            ").append(s.type().compute).append(' ').append(s.name()).append(" = ").append(s.name()).append("_v[k];\n");
            if (s.writes()) b.append("            ").append(s.type().compute).append(' ').append(s.name()).append("_new;\n");
        }
        b.append(indent(body, "            "));
        for (Slot s : operands) if (s.writes()) b.append("            ").append(s.name()).append("_v[k] = ").append(s.name()).append("_new;\n");
        b.append("        }\n");
        for (Slot s : operands) {
            if (s.writes()) b.append("        ").append(s.type().store4(s.name() + "_p", s.name() + "_o + base", s.name() + "_v")).append('\n');
        }
        b.append("    } else {\n");
        b.append("        for (long i = base; i < n; i++) {\n");
        element(b, "            ", s -> s.name() + "_o + i");
        b.append("        }\n    }\n}\n\n");
        return b.toString();
    }

    /** Any strides: the flat index decomposed over the shape in {@code layout} (see {@link Layout#pack}). */
    private String strided() {
        StringBuilder b = new StringBuilder();
        int k = operands.size();
        b.append("__kernel void ").append(name).append("_strided(").append(pointers())
                .append(", __global const long *layout").append(paramList()).append(", long n) {\n");
        b.append("    long gid = get_global_id(0);\n    if (gid >= n) return;\n");
        b.append("    int rank = (int) layout[0];\n");
        for (int j = 0; j < k; j++) {
            String at = "1 + rank + " + j + " * (rank + 1)";
            b.append("    __global const long *").append(operands.get(j).name()).append("_s = layout + ").append(at).append(" + 1;\n");
            b.append("    long ").append(operands.get(j).name()).append("_at = layout[").append(at).append("];\n");
        }
        b.append("    long rest = gid;\n");
        b.append("    for (int d = rank - 1; d >= 0; d--) {\n");
        b.append("        long extent = layout[1 + d];\n        long idx = rest % extent;\n        rest /= extent;\n");
        for (Slot s : operands) b.append("        ").append(s.name()).append("_at += idx * ").append(s.name()).append("_s[d];\n");
        b.append("    }\n");
        element(b, "    ", s -> s.name() + "_at");
        b.append("}\n\n");
        return b.toString();
    }

    private void element(StringBuilder b, String indent, java.util.function.Function<Slot, String> index) {
        for (Slot s : operands) {
            if (s.reads()) b.append(indent).append(s.type().compute).append(' ').append(s.name()).append(" = ")
                    .append(s.type().load(s.name() + "_p", index.apply(s))).append(";\n");
            if (s.writes()) b.append(indent).append(s.type().compute).append(' ').append(s.name()).append("_new;\n");
        }
        b.append(indent(body, indent));
        for (Slot s : operands) {
            if (s.writes()) b.append(indent).append(s.type().store(s.name() + "_p", index.apply(s), s.name() + "_new")).append('\n');
        }
    }

    private static String indent(String code, String indent) {
        StringBuilder b = new StringBuilder();
        for (String line : code.strip().split("\n")) b.append(indent).append(line.strip()).append('\n');
        return b.toString();
    }
}
