package dev.panamax.bindgen.gen;

import java.util.List;

/**
 * Package-private helpers of one binding's typed layer: addresses of handles, strings, staging of
 * Java arrays into scratch memory and back, length checks. Generated with the binding (not a
 * library of bindgen's) so the generated code needs nothing at run time but panamax-core.
 */
final class SupportWriter {
    private static final List<String[]> ARRAYS = List.of(
            new String[]{"byte", "JAVA_BYTE"}, new String[]{"short", "JAVA_SHORT"}, new String[]{"int", "JAVA_INT"},
            new String[]{"long", "JAVA_LONG"}, new String[]{"float", "JAVA_FLOAT"}, new String[]{"double", "JAVA_DOUBLE"});

    private SupportWriter() {}

    static String write(BindingPlan plan) {
        String c = plan.names().support();
        Source s = new Source(plan, List.of("dev.panamax.core.call.ScratchStack", "dev.panamax.core.memory.AllocatesForCaller", "dev.panamax.core.memory.NativeHandle", "java.lang.foreign.MemorySegment",
                "java.lang.foreign.SegmentAllocator", "java.lang.foreign.ValueLayout"));
        s.doc("Helpers of the typed layer of " + plan.library() + ".");
        s.line("@AllocatesForCaller");
        s.line("@SuppressWarnings(\"restricted\")");
        s.open("final class " + c + " {");
        s.line("private " + c + "() {}");
        s.line("");
        s.doc("The handle's address, NULL for null; fails if the handle was released.");
        s.open("static MemorySegment address(NativeHandle h) {");
        s.line("return h == null ? MemorySegment.NULL : h.pointer();");
        s.close("}");
        s.line("");
        s.doc("The handle's address, 0 for null; fails if the handle was released.");
        s.open("static long addressOf(NativeHandle h) {");
        s.line("return h == null ? 0L : h.address();");
        s.close("}");
        s.line("");
        s.doc("The NUL-terminated UTF-8 string at {@code p}, null for NULL.");
        s.open("static String string(MemorySegment p) {");
        s.line("return p.address() == 0 ? null : p.reinterpret(Long.MAX_VALUE).getString(0);");
        s.close("}");
        s.line("");
        s.doc("A {@code char **} of copies of {@code strings} (null elements as NULL), NULL for null.");
        s.open("static MemorySegment strings(SegmentAllocator frame, String[] strings) {");
        s.line("if (strings == null) return MemorySegment.NULL;");
        s.line("MemorySegment array = frame.allocate(ValueLayout.ADDRESS, Math.max(1, strings.length));");
        s.open("for (int i = 0; i < strings.length; i++) {");
        s.line("array.setAtIndex(ValueLayout.ADDRESS, i, strings[i] == null ? MemorySegment.NULL : frame.allocateFrom(strings[i]));");
        s.close("}");
        s.line("return array;");
        s.close("}");
        s.line("");
        s.doc("The addresses of {@code handles} (null elements as NULL), NULL for null.");
        s.open("static MemorySegment handles(SegmentAllocator frame, NativeHandle[] handles) {");
        s.line("if (handles == null) return MemorySegment.NULL;");
        s.line("MemorySegment array = frame.allocate(ValueLayout.ADDRESS, Math.max(1, handles.length));");
        s.line("for (int i = 0; i < handles.length; i++) array.setAtIndex(ValueLayout.ADDRESS, i, address(handles[i]));");
        s.line("return array;");
        s.close("}");
        s.line("");
        s.doc("Zeroed room for as many addresses as {@code handles} has elements, NULL for null.");
        s.open("static MemorySegment slots(ScratchStack.Frame frame, Object[] handles) {");
        s.line("if (handles == null) return MemorySegment.NULL;");
        s.line("return frame.allocateZeroed(ValueLayout.ADDRESS, Math.max(1, handles.length));");
        s.close("}");
        for (String[] a : ARRAYS) {
            String t = a[0];
            String l = "ValueLayout." + a[1];
            s.line("");
            s.doc("A copy of {@code array}, NULL for null.");
            s.open("static MemorySegment stageIn(SegmentAllocator frame, " + t + "[] array) {");
            s.line("return array == null ? MemorySegment.NULL : frame.allocateFrom(" + l + ", array);");
            s.close("}");
            if (!t.equals("float") && !t.equals("double")) {
                s.line("");
                s.doc("A copy of the zero-terminated list {@code array} followed by two 0 elements, NULL for null: the list",
                        "is terminated whether or not it ends with its own 0, and a key-value list whose last key lacks its",
                        "value still ends within the copy.");
                s.open("static MemorySegment stageTerminated(SegmentAllocator frame, " + t + "[] array) {");
                s.line("if (array == null) return MemorySegment.NULL;");
                s.line("MemorySegment copy = frame.allocate(" + l + ", array.length + 2L);");
                s.line("MemorySegment.copy(array, 0, copy, " + l + ", 0, array.length);");
                s.line("copy.asSlice(array.length * " + l + ".byteSize()).fill((byte) 0);");
                s.line("return copy;");
                s.close("}");
            }
            s.line("");
            s.doc("Zeroed room for {@code array}'s elements, NULL for null.");
            s.open("static MemorySegment stageOut(ScratchStack.Frame frame, " + t + "[] array) {");
            s.line("return array == null ? MemorySegment.NULL : frame.allocateZeroed(" + l + ", Math.max(1, array.length));");
            s.close("}");
            s.line("");
            s.doc("Copies the first {@code count} elements (all when negative) back into {@code array}.");
            s.open("static void copyBack(MemorySegment staged, " + t + "[] array, int count) {");
            s.line("if (array != null) MemorySegment.copy(staged, " + l + ", 0, array, 0, count < 0 ? array.length : Math.min(count, array.length));");
            s.close("}");
        }
        s.line("");
        s.doc("The one length of two arrays feeding the same length parameter ({@code -1}: a null array, ignored); "
                + "{@code names} lists them, comma-separated, for the error.");
        s.open("static int commonLength(String function, String length, String names, int a, int b) {");
        s.line("return commonLength(function, length, names, a, b, -1, -1);");
        s.close("}");
        s.line("");
        s.doc("The one length of three arrays feeding the same length parameter, as above.");
        s.open("static int commonLength(String function, String length, String names, int a, int b, int c) {");
        s.line("return commonLength(function, length, names, a, b, c, -1);");
        s.close("}");
        s.line("");
        s.doc("The one length of four arrays feeding the same length parameter, as above; no varargs array on the way.");
        s.open("static int commonLength(String function, String length, String names, int a, int b, int c, int d) {");
        s.line("int n = Math.max(Math.max(a, b), Math.max(c, d));");
        s.open("if ((a >= 0 && a != n) || (b >= 0 && b != n) || (c >= 0 && c != n) || (d >= 0 && d != n)) {");
        s.line("throw differentLengths(function, length, names, a, b, c, d);");
        s.close("}");
        s.line("return Math.max(n, 0);");
        s.close("}");
        s.line("");
        s.doc("The one length of five or more arrays feeding the same length parameter, as above.");
        s.open("static int commonLength(String function, String length, String names, int... lengths) {");
        s.line("int n = -1;");
        s.line("for (int l : lengths) n = Math.max(n, l);");
        s.open("for (int l : lengths) {");
        s.line("if (l >= 0 && l != n) throw differentLengths(function, length, names, lengths);");
        s.close("}");
        s.line("return Math.max(n, 0);");
        s.close("}");
        s.line("");
        s.open("private static IllegalArgumentException differentLengths(String function, String length, String names, int... lengths) {");
        s.line("StringBuilder b = new StringBuilder(\"arrays of different lengths for one length parameter: function=\")");
        s.line("        .append(function).append(\" length=\").append(length);");
        s.line("String[] each = names.split(\", \");");
        s.line("for (int i = 0; i < each.length; i++) b.append(' ').append(each[i]).append('=').append(lengths[i] < 0 ? \"null\" : lengths[i]);");
        s.line("return new IllegalArgumentException(b.toString());");
        s.close("}");
        s.line("");
        s.doc("Refuses an array shorter than the fixed number of elements C reads or writes through it (one without a length).");
        s.open("static void atLeast(String function, String parameter, int length, int needed) {");
        s.open("if (length < needed) {");
        s.line("throw new IllegalArgumentException(\"array shorter than the \" + needed + (needed == 1 ? \" element\" : \" elements\")");
        s.line("        + \" C uses: function=\" + function + \" parameter=\" + parameter + \" length=\" + length);");
        s.close("}");
        s.close("}");
        s.line("");
        s.doc("Refuses a segment smaller than the memory C reads or writes through it: {@code count} elements of",
                "{@code elementBytes} bytes. Null and NULL pass (nullability is checked apart), and so does any zero-length",
                "native segment: an address from C, whose size is not known.");
        s.open("static void fits(String function, String parameter, String countName, MemorySegment segment, long count, long elementBytes) {");
        s.line("if (segment == null) return;");
        s.line("long size = segment.byteSize();");
        s.line("// count * elementBytes <= size, without overflow; the division folds away where elementBytes is a constant");
        s.line("if (count >= 0 && count <= Long.MAX_VALUE / elementBytes && count * elementBytes <= size) return;");
        s.line("if (size == 0 && segment.isNative()) return;");
        s.line("throw new IllegalArgumentException(\"segment smaller than its length: function=\" + function + \" parameter=\" + parameter");
        s.line("        + \" byteSize=\" + size + \" \" + countName + \"=\" + count + \" elementBytes=\" + elementBytes);");
        s.close("}");
        s.line("");
        s.doc("The error for a length expression whose exact value leaves 64 bits: {@code values} lists the parameters it read.");
        s.open("static IllegalArgumentException lengthOverflow(String function, String parameter, String expression, String values) {");
        s.line("return new IllegalArgumentException(\"length beyond 64 bits: function=\" + function + \" parameter=\" + parameter");
        s.line("        + \" length=\" + expression + \" with\" + values + \"; expected values whose length fits in a long\");");
        s.close("}");
        s.line("");
        s.doc("Refuses an array shorter than the {@code count} elements C reads or writes through it.");
        s.open("static void enough(String function, String parameter, String countName, int length, long count) {");
        s.open("if (count < 0 || count > length) {");
        s.line("throw new IllegalArgumentException(\"array shorter than its length: function=\" + function + \" parameter=\" + parameter");
        s.line("        + \" length=\" + length + \" \" + countName + \"=\" + count);");
        s.close("}");
        s.close("}");
        s.line("");
        s.doc("Refuses a null argument the declarations say is not nullable.");
        s.open("static void notNull(Object value, String function, String parameter) {");
        s.open("if (value == null) {");
        s.line("throw new NullPointerException(\"null for a parameter that is not nullable: function=\" + function");
        s.line("        + \" parameter=\" + parameter);");
        s.close("}");
        s.close("}");
        s.line("");
        s.doc("An unchecked exception as it is; a checked one wrapped.");
        s.open("static RuntimeException rethrow(Throwable t) {");
        s.line("if (t instanceof RuntimeException r) return r;");
        s.line("if (t instanceof Error e) throw e;");
        s.line("return new IllegalStateException(\"unexpected checked exception from a native call: \" + t, t);");
        s.close("}");
        s.close("}");
        return s.toString();
    }
}
