package dev.panamax.bindgen.glue;

import dev.panamax.core.abi.CFunction;
import dev.panamax.core.abi.CFunctionType;
import dev.panamax.core.abi.FfmLayouts;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.panamax.core.abi.CType.*;
import static org.junit.jupiter.api.Assertions.*;

class ThunkEmitterTest {
    static final Struct POINT = new Struct("Point", List.of(new Field("x", F32), new Field("y", F32)));

    @Test
    void thunkBodiesFollowTheClassification() {
        ThunkSources s = ThunkEmitter.emit("demo", List.of(
                new CFunction("reset", CFunctionType.of(VOID)),
                new CFunction("wrap", CFunctionType.of(POINTER, "p", POINT)),
                new CFunction("add", CFunctionType.of(I32, "a", I32, "b", I32)),
                new CFunction("dot", CFunctionType.of(F32, "a", POINT, "b", POINT))));
        assertEquals("pmx_thunks_demo.h", s.headerName());
        assertEquals("pmx_thunks_demo.c", s.sourceName());
        String c = s.source();
        assertTrue(c.contains("#include \"pmx_thunks_demo.h\""), c);
        assertTrue(c.contains("""
                extern void *pmx_vp_reset(void) __asm__("reset");
                PMX_THUNK void *pmx_thunk_reset(void *param) {
                    (void) param;
                    return pmx_vp_reset();
                }"""), c);
        assertTrue(c.contains("extern void *pmx_vp_wrap(Point) __asm__(\"wrap\");\n"), c);
        assertTrue(c.contains("    Point pmx_a0;\n    memcpy(&pmx_a0, &param, sizeof pmx_a0);\n"
                + "    return pmx_vp_wrap(pmx_a0);"), c);
        assertTrue(c.contains("memcpy(&pmx_a1, pmx_b + 4, sizeof pmx_a1);\n    return pmx_vp_add(pmx_a0, pmx_a1);"), c);
        assertFalse(c.contains("pmx_vp_dot"), "a result in the slot is returned by a plain call\n" + c);
        assertTrue(c.contains("memcpy(&pmx_a0, pmx_b + 4, sizeof pmx_a0);"), "dot: a after the 4-byte slot\n" + c);
        assertTrue(c.contains("memcpy(&pmx_a1, pmx_b + 12, sizeof pmx_a1);"), c);
        assertTrue(c.contains("float pmx_r = dot(pmx_a0, pmx_a1);\n    memcpy(pmx_b, &pmx_r, sizeof pmx_r);\n    return NULL;"), c);
        String h = s.header();
        assertTrue(h.contains("struct Point {\n    float x;\n    float y;\n};\ntypedef struct Point Point;"), h);
        assertTrue(h.contains("_Static_assert(sizeof(Point) == 8 && _Alignof(Point) == 4"), h);
        assertTrue(h.contains("int32_t add(int32_t, int32_t);"), h);
        assertTrue(h.contains("void reset(void);"), h);
    }

    @Test
    void headerOrdersNestedTypesAndEmitsAlignmentArraysAndCallbacks() {
        Struct pair = new Struct("Pair", List.of(new Field("a", I32), new Field("b", I32)), 16);
        Struct outer = new Struct("Outer", List.of(new Field("p", pair), new Field("v", new Array(new Array(F32, 3), 2)),
                new Field("cb", new FunctionPointer(CFunctionType.of(I32, "x", POINT)))));
        String h = ThunkEmitter.emit("n", List.of(new CFunction("f", CFunctionType.of(VOID, "o", outer)))).header();
        assertTrue(h.indexOf("struct __attribute__((aligned(16))) Pair {") < h.indexOf("struct Outer {"), h);
        assertTrue(h.indexOf("struct Point {") < h.indexOf("typedef int32_t (*pmx_fn0)(Point);"), h);
        assertTrue(h.contains("    float v[2][3];"), h);
        assertTrue(h.contains("    pmx_fn0 cb;"), h);
        assertTrue(h.contains("offsetof(Outer, cb) == " + outer.offsetOf(2)), h);
    }

    @Test
    void conflictsAndBadNamesAreRejected() {
        Struct other = new Struct("Point", List.of(new Field("x", F64)));
        assertThrows(IllegalArgumentException.class, () -> ThunkEmitter.emit("u", List.of(
                new CFunction("a", CFunctionType.of(VOID, "p", POINT)), new CFunction("b", CFunctionType.of(VOID, "p", other)))));
        assertThrows(IllegalArgumentException.class, () -> ThunkEmitter.emit("u", List.of(
                new CFunction("a", CFunctionType.of(VOID)), new CFunction("a", CFunctionType.of(VOID)))));
        assertThrows(IllegalArgumentException.class, () -> ThunkEmitter.emit("not a unit", List.of()));
        assertThrows(IllegalArgumentException.class, () -> new CFunction("9x", CFunctionType.of(VOID)));
        Struct keyword = new Struct("int", List.of(new Field("x", I32)));
        assertThrows(IllegalArgumentException.class, () -> ThunkEmitter.emit("u", List.of(new CFunction("a", CFunctionType.of(VOID, "k", keyword)))));
    }

    @Test
    void ffmLayoutsMatchTheModel() {
        Struct tagged = new Struct("Tagged", List.of(new Field("tag", U8), new Field("value", I64)));
        var l = FfmLayouts.layoutOf(tagged);
        assertEquals(16, l.byteSize());
        assertEquals(8, l.byteAlignment());
        assertEquals(8, l.byteOffset(java.lang.foreign.MemoryLayout.PathElement.groupElement("value")));
        Struct pair = new Struct("Pair", List.of(new Field("a", I32)), 16);
        assertEquals(16, FfmLayouts.layoutOf(pair).byteSize());
        assertFalse(FfmLayouts.isDowncallable(CFunctionType.of(VOID, "p", pair)));
        assertFalse(FfmLayouts.isDowncallable(CFunctionType.of(F80)));
        assertTrue(FfmLayouts.isDowncallable(CFunctionType.of(POINT, "t", tagged)));
    }

    /** gcc, as strict as it goes, has nothing to say about the glue: every kind of result, VOID_PTR and STRUCT alike. */
    @Test
    void theThunksCompileWithoutAWarning(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        ThunkSources s = ThunkEmitter.emit("strict", List.of(
                new CFunction("reset", CFunctionType.of(VOID)),
                new CFunction("set_i32", CFunctionType.of(VOID, "v", I32)),
                new CFunction("get_u8", CFunctionType.of(U8)),
                new CFunction("get_bool", CFunctionType.of(BOOL, "p", POINTER)),
                new CFunction("wrap", CFunctionType.of(POINTER, "p", POINT)),
                new CFunction("add", CFunctionType.of(I32, "a", I32, "b", I32)),
                new CFunction("size_of", CFunctionType.of(U64, "a", POINTER, "b", POINTER)),
                new CFunction("dot", CFunctionType.of(F32, "a", POINT, "b", POINT)),
                new CFunction("mid", CFunctionType.of(POINT, "a", POINT, "b", POINT))));
        java.nio.file.Files.writeString(dir.resolve(s.headerName()), s.header());
        java.nio.file.Path source = java.nio.file.Files.writeString(dir.resolve(s.sourceName()), s.source());
        Process gcc = new ProcessBuilder("gcc", "-O2", "-std=gnu11", "-Wall", "-Wextra", "-Werror", "-c", source.toString(),
                "-o", dir.resolve("strict.o").toString()).redirectErrorStream(true).start();
        String said = new String(gcc.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertEquals(0, gcc.waitFor(), said + "\n" + s.source());
        assertEquals("", said.strip());
    }
}
