package dev.panamax.bindgen.gen;

import java.util.Locale;
import java.util.Set;

/** How declared names become Java names: classes from type names, escapes for Java keywords. */
final class JavaNames {
    /** Java's reserved words and literals (contextual ones that cannot name a type are included). */
    static final Set<String> KEYWORDS = Set.of("abstract", "assert", "boolean", "break", "byte", "case", "catch", "char",
            "class", "const", "continue", "default", "do", "double", "else", "enum", "extends", "final", "finally", "float",
            "for", "goto", "if", "implements", "import", "instanceof", "int", "interface", "long", "native", "new",
            "package", "private", "protected", "public", "return", "short", "static", "strictfp", "super", "switch",
            "synchronized", "this", "throw", "throws", "transient", "try", "void", "volatile", "while", "true", "false",
            "null", "_", "var", "yield", "record", "sealed", "permits", "non-sealed", "when", "module", "open",
            "exports", "requires", "opens", "to", "uses", "provides", "with", "transitive");

    /** C's reserved words (C23 included): no C library can use them, and the generated C glue could not. */
    static final Set<String> C_KEYWORDS = Set.of("auto", "break", "case", "char", "const", "continue", "default", "do",
            "double", "else", "enum", "extern", "float", "for", "goto", "if", "inline", "int", "long", "register",
            "restrict", "return", "short", "signed", "sizeof", "static", "struct", "switch", "typedef", "union",
            "unsigned", "void", "volatile", "while", "_Alignas", "_Alignof", "_Atomic", "_Bool", "_Complex", "_Generic",
            "_Imaginary", "_Noreturn", "_Static_assert", "_Thread_local", "alignas", "alignof", "bool", "constexpr",
            "false", "nullptr", "static_assert", "thread_local", "true", "typeof", "typeof_unqual");

    /**
     * Simple names the generated code uses unqualified: a generated class of one of these names
     * would shadow them in its package.
     */
    static final Set<String> RESERVED_CLASS_NAMES = Set.of("Object", "String", "Math", "Integer", "Long", "Short",
            "Byte", "Float", "Double", "Boolean", "Character", "Override", "SuppressWarnings", "FunctionalInterface",
            "Throwable", "RuntimeException", "Error", "Exception", "IllegalArgumentException", "IllegalStateException",
            "NullPointerException", "IndexOutOfBoundsException", "Deprecated", "System", "Class", "Void", "Record",
            "Objects", "List", "Map", "Arrays", "MemorySegment", "MemoryLayout", "ValueLayout", "Arena",
            "SegmentAllocator", "FunctionDescriptor", "MethodHandle", "MethodHandles", "Reference", "NativeLibrary",
            "Tier", "NativeHandle", "Checks", "ArgumentChecks", "Staging", "Unchecked", "SegmentAccess", "ScratchStack", "CallbackRegistry", "Upcalls", "UpcallStub",
            "CType", "CFunction", "CFunctionType", "Thunk", "StatusRule", "BundledNatives", "Optional", "SymbolLookup",
            "StringBuilder", "ReflectiveOperationException", "Native", "Holder", "BatchedFunction");

    /** Methods of Object: a static method or record component of one of these names would clash with them. */
    static final Set<String> OBJECT_METHODS = Set.of("wait", "notify", "notifyAll", "getClass", "hashCode", "toString",
            "clone", "finalize", "equals");

    private JavaNames() {}

    /** {@code cl_command_queue} → {@code ClCommandQueue}, {@code NSRange} → {@code NSRange}. */
    static String className(String declared) {
        StringBuilder b = new StringBuilder();
        boolean up = true;
        for (char c : declared.toCharArray()) {
            if (c == '_') {
                up = true;
            } else {
                b.append(up ? Character.toUpperCase(c) : c);
                up = false;
            }
        }
        if (b.isEmpty() || !Character.isJavaIdentifierStart(b.charAt(0))) b.insert(0, 'T');
        return b.toString();
    }

    /** A declared identifier usable as a Java variable or member: keywords get a trailing underscore. */
    static String member(String declared) {
        return KEYWORDS.contains(declared) ? declared + "_" : declared;
    }

    /**
     * Java names for a list of declared parameter names: keywords, names of classes the generated code
     * refers to ({@code reserved}) and Object's methods get a trailing underscore, then duplicates
     * another one, so that no parameter hides a class a method body uses.
     */
    static java.util.List<String> parameters(java.util.List<String> declared, Set<String> reserved) {
        java.util.List<String> out = new java.util.ArrayList<>();
        Set<String> used = new java.util.HashSet<>();
        for (String d : declared) {
            String n = d;
            while (KEYWORDS.contains(n) || reserved.contains(n) || OBJECT_METHODS.contains(n) || used.contains(n)) n = n + "_";
            used.add(n);
            out.add(n);
        }
        return out;
    }

    /** Whether a declared identifier can be used as it is where the contract fixes the Java name. */
    static boolean usableAsIs(String declared) {
        return !KEYWORDS.contains(declared);
    }

    /** {@code clGetDeviceAndHostTimer} → {@code ClGetDeviceAndHostTimer}. */
    static String capitalized(String declared) {
        String c = className(declared);
        return c.substring(0, 1).toUpperCase(Locale.ROOT) + c.substring(1);
    }

    /** A Java string literal of {@code s} (ASCII escapes; declared names are ASCII). */
    static String literal(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                default -> {
                    if (c < 0x20 || c > 0x7e) b.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    else b.append(c);
                }
            }
        }
        return b.append('"').toString();
    }

    /** Text safe inside a javadoc or block comment. */
    static String doc(String s) {
        return s.replace("*/", "*&#47;").replace("@", "{@literal @}");
    }
}
