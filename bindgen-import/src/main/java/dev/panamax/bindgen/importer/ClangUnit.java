package dev.panamax.bindgen.importer;

import dev.panamax.bindgen.importer.clang.CXCursorVisitor;
import dev.panamax.bindgen.importer.clang.CXIndex;
import dev.panamax.bindgen.importer.clang.CXTranslationUnit;
import dev.panamax.bindgen.importer.clang.CXUnsavedFile;
import dev.panamax.bindgen.importer.clang.Clang;
import dev.panamax.bindgen.importer.clang.ClangApi;
import dev.panamax.core.NativeEnvironment;
import dev.panamax.core.upcall.UpcallStub;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One translation unit parsed by libclang, and the few questions the importer asks of its cursors and
 * types, over the raw layer of the libclang binding. Cursors, types and locations are libclang's small
 * structs, held as segments of this unit's arena; they are valid while the unit is open.
 */
final class ClangUnit implements AutoCloseable {
    /** {@code clang_Type_getSizeOf}'s answer for an incomplete type. */
    static final long INCOMPLETE = -2;

    private final Arena arena = Arena.ofConfined();
    private final CXIndex index;
    private final CXTranslationUnit unit;
    private final UpcallStub visitor;
    private final Map<Long, String> fileNames = new HashMap<>();
    private List<MemorySegment> sink;

    private ClangUnit(CXIndex index, CXTranslationUnit unit) {
        this.index = index;
        this.unit = unit;
        this.visitor = CXCursorVisitor.stub(arena, (cursor, parent, data) -> {
            sink.add(arena.allocate(32, 8).copyFrom(cursor));
            return Clang.CXChildVisit_Continue;
        });
    }

    /**
     * Parses {@code source} (the text of a file named {@code name}, not on disk) with the compiler
     * arguments {@code args}.
     *
     * @throws ImportException when libclang cannot parse at all (not for errors in the code: see {@link #errors})
     */
    static ClangUnit parse(String name, String source, List<String> args, int options) {
        // Unless told not to, clang_createIndex enables LLVM's crash recovery, which replaces the JVM's
        // SIGSEGV handler: a signal the JVM raises on purpose in any thread (implicit null checks,
        // safepoint polls) would then kill the process. With the variable set libclang installs no
        // handler at all, so there is no window between creating the index and turning recovery off.
        NativeEnvironment.setIfUnset("LIBCLANG_DISABLE_CRASH_RECOVERY", "1");
        CXIndex index = ClangApi.clang_createIndex(0, 0);
        Clang.clang_toggleCrashRecovery(0);
        try (Arena a = Arena.ofConfined()) {
            byte[] bytes = source.getBytes(java.nio.charset.StandardCharsets.UTF_8);
            CXUnsavedFile file = CXUnsavedFile.allocate(a);
            file.Filename(a.allocateFrom(name));
            file.Contents(a.allocateFrom(ValueLayout.JAVA_BYTE, bytes));
            file.Length(bytes.length);
            CXTranslationUnit[] out = new CXTranslationUnit[1];
            int status = ClangApi.clang_parseTranslationUnit2(index, name, args.toArray(String[]::new), args.size(),
                    file, 1, options, out);
            if (status != Clang.CXError_Success || out[0] == null) {
                throw new ImportException("libclang could not parse " + name + " (CXErrorCode " + status + ") with arguments "
                        + args);
            }
            return new ClangUnit(index, out[0]);
        } catch (RuntimeException | Error e) {
            index.close();
            throw e;
        }
    }

    /** The unit's diagnostics of severity error or fatal, formatted {@code file:line:column: error: message}. */
    List<String> errors() {
        List<String> out = new ArrayList<>();
        int n = Clang.clang_getNumDiagnostics(unit.handle());
        for (int i = 0; i < n; i++) {
            MemorySegment d = Clang.clang_getDiagnostic(unit.handle(), i);
            try {
                if (Clang.clang_getDiagnosticSeverity(d) >= Clang.CXDiagnostic_Error) {
                    out.add(string(Clang.clang_formatDiagnostic(arena, d,
                            Clang.CXDiagnostic_DisplaySourceLocation | Clang.CXDiagnostic_DisplayColumn)));
                }
            } finally {
                Clang.clang_disposeDiagnostic(d);
            }
        }
        return out;
    }

    /**
     * A diagnostic of the unit: where it is (the expansion location: for code a macro expanded to, the
     * place the macro is used), its severity ({@code Clang.CXDiagnostic_Warning} ...), its message, and the
     * warning option that enables it ({@code -Winteger-overflow}; empty for an error).
     */
    record Diagnostic(Place place, int severity, String message, String option) {}

    /** The unit's diagnostics of severity {@code minimum} and above. */
    List<Diagnostic> diagnostics(int minimum) {
        List<Diagnostic> out = new ArrayList<>();
        int n = Clang.clang_getNumDiagnostics(unit.handle());
        for (int i = 0; i < n; i++) {
            MemorySegment d = Clang.clang_getDiagnostic(unit.handle(), i);
            try {
                int severity = Clang.clang_getDiagnosticSeverity(d);
                if (severity < minimum) continue;
                out.add(new Diagnostic(placeOf(Clang.clang_getDiagnosticLocation(arena, d)), severity,
                        string(Clang.clang_getDiagnosticSpelling(arena, d)),
                        string(Clang.clang_getDiagnosticOption(arena, d, MemorySegment.NULL))));
            } finally {
                Clang.clang_disposeDiagnostic(d);
            }
        }
        return out;
    }

    MemorySegment root() {
        return Clang.clang_getTranslationUnitCursor(arena, unit.handle());
    }

    /** The direct children of {@code cursor}, in order. */
    List<MemorySegment> children(MemorySegment cursor) {
        List<MemorySegment> previous = sink;
        sink = new ArrayList<>();
        try {
            Clang.clang_visitChildren(cursor, visitor.address(), MemorySegment.NULL);
            return sink;
        } finally {
            sink = previous;
        }
    }

    // ------------------------------------------------------------------ cursors

    static int kind(MemorySegment cursor) {
        return Clang.clang_getCursorKind(cursor);
    }

    String spelling(MemorySegment cursor) {
        return string(Clang.clang_getCursorSpelling(arena, cursor));
    }

    MemorySegment type(MemorySegment cursor) {
        return Clang.clang_getCursorType(arena, cursor);
    }

    /** Where {@code cursor} is (its expansion location): the file's name, line and column. */
    Place place(MemorySegment cursor) {
        return placeOf(Clang.clang_getCursorLocation(arena, cursor));
    }

    /** The file, line and column of source location {@code loc} (its expansion location). */
    private Place placeOf(MemorySegment loc) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment file = a.allocate(ValueLayout.ADDRESS);
            MemorySegment line = a.allocate(ValueLayout.JAVA_INT);
            MemorySegment column = a.allocate(ValueLayout.JAVA_INT);
            Clang.clang_getExpansionLocation(loc, file, line, column, MemorySegment.NULL);
            MemorySegment f = file.get(ValueLayout.ADDRESS, 0);
            String name = f.equals(MemorySegment.NULL) ? "" : fileNames.computeIfAbsent(f.address(),
                    k -> string(Clang.clang_getFileName(arena, f)));
            return new Place(name, line.get(ValueLayout.JAVA_INT, 0), column.get(ValueLayout.JAVA_INT, 0));
        }
    }

    /** A place in a header. */
    record Place(String file, int line, int column) {
        @Override
        public String toString() {
            return file + ":" + line + ":" + column;
        }
    }

    boolean isBitField(MemorySegment cursor) {
        return Clang.clang_Cursor_isBitField(cursor) != 0;
    }

    boolean isDefinition(MemorySegment cursor) {
        return Clang.clang_isCursorDefinition(cursor) != 0;
    }

    boolean isAnonymous(MemorySegment cursor) {
        return Clang.clang_Cursor_isAnonymous(cursor) != 0;
    }

    boolean isFunctionLikeMacro(MemorySegment cursor) {
        return Clang.clang_Cursor_isMacroFunctionLike(cursor) != 0;
    }

    /** {@code static} (2: CX_SC_Static... see Index.h: None 1, Extern 2, Static 3). */
    boolean isStatic(MemorySegment cursor) {
        return Clang.clang_Cursor_getStorageClass(cursor) == 3;
    }

    int argumentCount(MemorySegment cursor) {
        return Clang.clang_Cursor_getNumArguments(cursor);
    }

    MemorySegment argument(MemorySegment cursor, int i) {
        return Clang.clang_Cursor_getArgument(arena, cursor, i);
    }

    long enumValue(MemorySegment cursor) {
        return Clang.clang_getEnumConstantDeclValue(cursor);
    }

    MemorySegment enumIntegerType(MemorySegment cursor) {
        return Clang.clang_getEnumDeclIntegerType(arena, cursor);
    }

    MemorySegment typedefUnderlying(MemorySegment cursor) {
        return Clang.clang_getTypedefDeclUnderlyingType(arena, cursor);
    }

    /** The body of a macro definition, as token spellings (the macro's name left out). */
    List<String> macroBody(MemorySegment cursor) {
        MemorySegment range = Clang.clang_getCursorExtent(arena, cursor);
        try (Arena a = Arena.ofConfined()) {
            MemorySegment tokens = a.allocate(ValueLayout.ADDRESS);
            MemorySegment count = a.allocate(ValueLayout.JAVA_INT);
            Clang.clang_tokenize(unit.handle(), range, tokens, count);
            int n = count.get(ValueLayout.JAVA_INT, 0);
            MemorySegment array = tokens.get(ValueLayout.ADDRESS, 0).reinterpret(24L * n);
            List<String> out = new ArrayList<>(n);
            try {
                for (int i = 1; i < n; i++) {
                    out.add(string(Clang.clang_getTokenSpelling(a, unit.handle(), array.asSlice(24L * i, 24))));
                }
            } finally {
                if (n > 0) Clang.clang_disposeTokens(unit.handle(), array, n);
            }
            return out;
        }
    }

    /** The value clang computes for an initialized variable: a Long, a Double, or null when it is neither. */
    Number evaluate(MemorySegment cursor) {
        MemorySegment r = Clang.clang_Cursor_Evaluate(cursor);
        if (r.equals(MemorySegment.NULL)) return null;
        try {
            return switch (Clang.clang_EvalResult_getKind(r)) {
                case Clang.CXEval_Int -> Clang.clang_EvalResult_isUnsignedInt(r) != 0
                        ? Clang.clang_EvalResult_getAsUnsigned(r) : Clang.clang_EvalResult_getAsLongLong(r);
                case Clang.CXEval_Float -> Clang.clang_EvalResult_getAsDouble(r);
                default -> null;
            };
        } finally {
            Clang.clang_EvalResult_dispose(r);
        }
    }

    // ------------------------------------------------------------------ types

    static int typeKind(MemorySegment type) {
        return type.get(ValueLayout.JAVA_INT, 0);
    }

    String typeSpelling(MemorySegment type) {
        return string(Clang.clang_getTypeSpelling(arena, type));
    }

    MemorySegment canonical(MemorySegment type) {
        return Clang.clang_getCanonicalType(arena, type);
    }

    MemorySegment pointee(MemorySegment type) {
        return Clang.clang_getPointeeType(arena, type);
    }

    MemorySegment result(MemorySegment functionType) {
        return Clang.clang_getResultType(arena, functionType);
    }

    int argTypeCount(MemorySegment functionType) {
        return Clang.clang_getNumArgTypes(functionType);
    }

    MemorySegment argType(MemorySegment functionType, int i) {
        return Clang.clang_getArgType(arena, functionType, i);
    }

    boolean isVariadic(MemorySegment functionType) {
        return Clang.clang_isFunctionTypeVariadic(functionType) != 0;
    }

    boolean isConst(MemorySegment type) {
        return Clang.clang_isConstQualifiedType(type) != 0;
    }

    MemorySegment declaration(MemorySegment type) {
        return Clang.clang_getTypeDeclaration(arena, type);
    }

    MemorySegment namedType(MemorySegment elaborated) {
        return Clang.clang_Type_getNamedType(arena, elaborated);
    }

    MemorySegment element(MemorySegment arrayType) {
        return Clang.clang_getArrayElementType(arena, arrayType);
    }

    static long arraySize(MemorySegment arrayType) {
        return Clang.clang_getArraySize(arrayType);
    }

    static long sizeOf(MemorySegment type) {
        return Clang.clang_Type_getSizeOf(type);
    }

    static long alignOf(MemorySegment type) {
        return Clang.clang_Type_getAlignOf(type);
    }

    // ------------------------------------------------------------------

    /** Reads and frees a CXString. */
    private static String string(MemorySegment cxString) {
        try {
            MemorySegment chars = Clang.clang_getCString(cxString);
            return chars.equals(MemorySegment.NULL) ? "" : chars.reinterpret(Long.MAX_VALUE).getString(0);
        } finally {
            Clang.clang_disposeString(cxString);
        }
    }

    @Override
    public void close() {
        try {
            unit.close();
            index.close();
        } finally {
            arena.close();
        }
    }
}
