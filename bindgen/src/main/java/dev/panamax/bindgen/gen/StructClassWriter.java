package dev.panamax.bindgen.gen;

import dev.panamax.bindgen.gen.BindingPlan.FieldKind;
import dev.panamax.bindgen.gen.BindingPlan.FieldPlan;
import dev.panamax.bindgen.gen.BindingPlan.StructPlan;

import java.util.ArrayList;
import java.util.List;

/**
 * A struct or union class: a view of a memory segment with its layout, typed getters and
 * chainable setters per field (scalars as primitives, pointers as addresses, nested aggregates as
 * views, arrays as slices with indexed access).
 */
final class StructClassWriter {
    private StructClassWriter() {}

    static String write(BindingPlan plan, StructPlan st) {
        String c = st.className();
        Source s = new Source(plan, List.of("java.lang.foreign.MemoryLayout", "java.lang.foreign.MemorySegment",
                "java.lang.foreign.SegmentAllocator", "java.lang.foreign.ValueLayout", "java.util.Objects"));
        s.doc("The C " + (st.union() ? "union" : "struct") + " {@code " + st.declName() + "} of " + plan.library() + " (" + st.size()
                        + " bytes, aligned " + st.align() + "): a view of a memory segment.",
                "{@code " + c + ".allocate(arena).field(value)} makes one; {@link #wrap} views existing memory.");
        s.line("@SuppressWarnings(\"restricted\")");
        s.open("public final class " + c + " {");
        s.doc("The layout, with the C alignment and padding.");
        s.line("public static final MemoryLayout LAYOUT = " + st.layoutExpr() + ";");
        s.doc("{@code sizeof(" + st.declName() + ")}.");
        s.line("public static final long SIZE = " + st.size() + ";");
        s.line("");
        s.line("private final MemorySegment segment;");
        s.line("");
        s.open("private " + c + "(MemorySegment segment) {");
        s.line("this.segment = segment;");
        s.close("}");
        s.line("");
        s.doc("A zeroed one from {@code allocator} (an arena, a scratch frame).");
        s.open("public static " + c + " allocate(SegmentAllocator allocator) {");
        s.line("return new " + c + "(allocator.allocate(LAYOUT).fill((byte) 0));");
        s.close("}");
        s.line("");
        s.doc("A view of the first {@link #SIZE} bytes of {@code segment}; a zero-length segment (an address from C) is",
                "widened to the struct's size.");
        s.open("public static " + c + " wrap(MemorySegment segment) {");
        s.line("Objects.requireNonNull(segment, \"segment\");");
        s.line("if (segment.byteSize() == 0 && segment.isNative()) segment = segment.reinterpret(SIZE);");
        s.open("if (segment.byteSize() < SIZE) {");
        s.line("throw new IllegalArgumentException(\"segment too small for " + st.declName()
                + ": byteSize=\" + segment.byteSize() + \" expected=\" + SIZE);");
        s.close("}");
        s.line("return new " + c + "(segment.asSlice(0, SIZE));");
        s.close("}");
        s.line("");
        s.doc("The memory this view reads and writes.");
        s.open("public MemorySegment segment() {");
        s.line("return segment;");
        s.close("}");
        s.line("");
        s.doc("Copies every byte of {@code other} into this one; returns this.");
        s.open("public " + c + " copyFrom(" + c + " other) {");
        s.line("segment.copyFrom(other.segment);");
        s.line("return this;");
        s.close("}");
        for (FieldPlan f : st.fields()) field(s, c, f);
        s.line("");
        s.line("@Override");
        s.open("public String toString() {");
        List<String> parts = new ArrayList<>();
        for (FieldPlan f : st.fields()) {
            if (f.kind() instanceof FieldKind.Scalar || f.kind() instanceof FieldKind.Address) {
                parts.add(JavaNames.literal(f.declName() + "=") + " + " + f.accessor() + "()");
            }
        }
        String body = parts.isEmpty() ? "" : " + " + String.join(" + \", \" + ", parts);
        s.line("return \"" + st.declName() + "[\"" + body + " + \"]\";");
        s.close("}");
        s.close("}");
        return s.toString();
    }

    private static void field(Source s, String c, FieldPlan f) {
        String a = f.accessor();
        long off = f.offset();
        s.line("");
        switch (f.kind()) {
            case FieldKind.Scalar sc -> {
                String t = Carriers.primitive(sc.kind());
                String layout = Carriers.valueLayout(sc.kind());
                s.doc("Field {@code " + f.declName() + "} (offset " + off + ").");
                s.line("public " + t + " " + a + "() { return segment.get(" + layout + ", " + off + "); }");
                s.line("");
                s.doc("Sets {@code " + f.declName() + "}; returns this.");
                s.line("public " + c + " " + a + "(" + t + " value) { segment.set(" + layout + ", " + off + ", value); return this; }");
            }
            case FieldKind.Address ad -> {
                s.doc("Field {@code " + f.declName() + "} (offset " + off + "): an address.");
                s.line("public MemorySegment " + a + "() { return segment.get(ValueLayout.ADDRESS, " + off + "); }");
                s.line("");
                s.doc("Sets {@code " + f.declName() + "}; returns this.");
                s.line("public " + c + " " + a + "(MemorySegment value) { segment.set(ValueLayout.ADDRESS, " + off + ", value); return this; }");
            }
            case FieldKind.Nested ns -> {
                s.doc("Field {@code " + f.declName() + "} (offset " + off + "): a view into this struct.");
                s.line("public " + ns.className() + " " + a + "() { return " + ns.className() + ".wrap(segment.asSlice(" + off + ", "
                        + ns.size() + ")); }");
                s.line("");
                s.doc("Copies {@code value} into {@code " + f.declName() + "}; returns this.");
                s.line("public " + c + " " + a + "(" + ns.className() + " value) { segment.asSlice(" + off + ", " + ns.size()
                        + ").copyFrom(value.segment()); return this; }");
            }
            case FieldKind.Array ar -> {
                s.doc("Field {@code " + f.declName() + "} (offset " + off + ", " + ar.byteSize() + " bytes): a slice of this struct.");
                s.line("public MemorySegment " + a + "() { return segment.asSlice(" + off + ", " + ar.byteSize() + "); }");
                if (ar.element() != null && ar.byteSize() / ar.length() == ar.element().size()) {
                    String t = Carriers.primitive(ar.element());
                    String layout = Carriers.valueLayout(ar.element());
                    long step = ar.element().size();
                    s.line("");
                    s.doc("Element {@code index} of {@code " + f.declName() + "}.");
                    s.open("public " + t + " " + a + "(int index) {");
                    s.line("return segment.get(" + layout + ", " + off + " + " + step + "L * Objects.checkIndex(index, " + ar.length() + "));");
                    s.close("}");
                    s.line("");
                    s.doc("Sets element {@code index} of {@code " + f.declName() + "}; returns this.");
                    s.open("public " + c + " " + a + "(int index, " + t + " value) {");
                    s.line("segment.set(" + layout + ", " + off + " + " + step + "L * Objects.checkIndex(index, " + ar.length() + "), value);");
                    s.line("return this;");
                    s.close("}");
                }
            }
            case FieldKind.Opaque op -> {
                s.doc("Field {@code " + f.declName() + "} (offset " + off + ", " + op.byteSize() + " bytes Java has no type for): a slice.");
                s.line("public MemorySegment " + a + "() { return segment.asSlice(" + off + ", " + op.byteSize() + "); }");
            }
        }
    }
}
