package dev.panamax.bindgen.gen;

import dev.panamax.bindgen.decl.DeclarationsException;
import dev.panamax.bindgen.decl.DeclarationsParser;
import dev.panamax.core.abi.CFunctionType;
import dev.panamax.core.abi.CType;
import dev.panamax.core.abi.FfmLayouts;
import dev.panamax.core.call.Tier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.invoke.MethodHandles;
import java.lang.reflect.Method;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

/**
 * A function or callback over the JVM's 255 parameter slots is refused at its place; one at the limit
 * is generated, compiles, links and is called. The slot count bindgen uses is checked against the FFM
 * linker itself.
 */
class ParameterSlotsTest {
    static final String HEAD = "format: 1\nlibrary: c\nsonames: [libc.so.6]\npackage: org.example.slots\n";

    /** {@code getpid} declared with {@code n} parameters of {@code type}: the SysV ABI lets it ignore them all. */
    static String getpid(String type, int n, String tier) {
        StringBuilder b = new StringBuilder(HEAD + "functions:\n  - name: getpid\n    returns: i32\n    tier: " + tier
                + "\n    params: [");
        for (int i = 0; i < n; i++) b.append(i == 0 ? "" : ", ").append("[").append(type).append(", p").append(i).append("]");
        return b.append("]\n").toString();
    }

    static DeclarationsException refused(String yaml) {
        return assertThrows(DeclarationsException.class, () -> Bindgen.generate(DeclarationsParser.parse(yaml, "t.yaml")));
    }

    @Test
    void overTheLimitIsRefusedAtTheFunction() {
        DeclarationsException e = refused(getpid("i32", 300, "standard"));
        assertEquals("t.yaml:6:5: function getpid needs 303 JVM parameter slots in its downcall (300 parameters; long, double"
                + " and pointers take two, a struct by value two per 8 bytes, the FFM linker 3 of its own); expected at most 255:"
                + " pass the arguments in a struct by pointer instead", e.getMessage());
        assertTrue(refused(getpid("i64", 127, "standard")).getMessage().contains("needs 257 JVM parameter slots"));
        assertTrue(refused(getpid("ptr", 127, "standard")).getMessage().contains("needs 257 JVM parameter slots"));
        assertTrue(refused(getpid("f32*", 85, "critical_heap")).getMessage()
                .contains("needs 258 JVM parameter slots in its downcall (85 parameters; long, double and pointers take two,"
                        + " and three at tier critical_heap"));
    }

    @Test
    void aCallbackOverTheLimitIsRefusedAtItsType() {
        StringBuilder b = new StringBuilder(HEAD + "types:\n  cb:\n    callback:\n      params: [");
        for (int i = 0; i < 200; i++) b.append(i == 0 ? "" : ", ").append("[f64, p").append(i).append("]");
        b.append("]\nfunctions:\n  - {name: f, params: [[cb, c]]}\n");
        DeclarationsException e = refused(b.toString());
        assertTrue(e.getMessage().startsWith("t.yaml:7:5: callback cb needs 402 JVM parameter slots in its upcall stub (200"
                + " parameters;"), e.getMessage());
    }

    /** At the limit: generated, compiled, linked by the FFM linker and called, returning this process's id. */
    @Test
    void atTheLimitCompilesLinksAndCalls(@TempDir Path dir) throws Exception {
        record Case(String type, int n, String tier, Class<?> carrier, Object value) {}
        List<Case> cases = List.of(new Case("i32", 252, "standard", int.class, 7), new Case("i64", 126, "critical", long.class, 7L),
                new Case("ptr", 126, "standard", java.lang.foreign.MemorySegment.class, java.lang.foreign.MemorySegment.NULL));
        long pid = ProcessHandle.current().pid();
        for (Case c : cases) {
            Bindgen.Generation g = Bindgen.generate(DeclarationsParser.parse(getpid(c.type(), c.n(), c.tier()), "t.yaml"));
            Path classes = dir.resolve(c.type());
            InProcessCompiler.Outcome o = InProcessCompiler.compile(g.java(), classes);
            assertTrue(o.ok(), String.join("\n", o.errors()));
            try (URLClassLoader loader = new URLClassLoader(new java.net.URL[] {classes.toUri().toURL()}, getClass().getClassLoader())) {
                Class<?> raw = loader.loadClass("org.example.slots.C");
                Method m = raw.getMethod("getpid", Collections.nCopies(c.n(), c.carrier()).toArray(Class<?>[]::new));
                assertEquals((int) pid, m.invoke(null, Collections.nCopies(c.n(), c.value()).toArray()), c.toString());
            }
        }
    }

    /** The slot count agrees with the FFM linker: what it allows links; one parameter more does not, for scalars and pointers. */
    @Test
    void theCountIsTheLinkers() {
        Linker linker = Linker.nativeLinker();
        CType pair = new CType.Struct("pair", List.of(new CType.Field("a", CType.I64), new CType.Field("b", CType.F64)), 0);
        List<CType.Field> eight = new ArrayList<>();
        for (int i = 0; i < 8; i++) eight.add(new CType.Field("f" + i, CType.I64));
        CType wide = new CType.Struct("wide", eight, 0);
        List<Kind> kinds = List.of(new Kind(CType.I32, Tier.STANDARD, CType.VOID, true), new Kind(CType.I64, Tier.STANDARD, CType.VOID, true),
                new Kind(CType.F64, Tier.STANDARD, CType.VOID, true), new Kind(CType.I8, Tier.STANDARD, CType.VOID, true),
                new Kind(CType.POINTER, Tier.STANDARD, CType.VOID, true), new Kind(CType.POINTER, Tier.CRITICAL_HEAP, CType.VOID, true),
                new Kind(pair, Tier.STANDARD, CType.VOID, true), new Kind(wide, Tier.STANDARD, CType.VOID, true),
                new Kind(CType.I32, Tier.STANDARD, wide, true), new Kind(CType.I64, Tier.STANDARD, pair, false));
        for (Kind k : kinds) {
            int n = 1;
            while (ParameterSlots.lowered(type(k, n + 1), k.tier() == Tier.CRITICAL_HEAP, false) <= ParameterSlots.LIMIT) n++;
            FunctionDescriptor fits = FfmLayouts.descriptorOf(type(k, n));
            Linker.Option[] options = k.tier().linkerOptions().toArray(Linker.Option[]::new);
            assertDoesNotThrow(() -> linker.downcallHandle(fits, options), k + " x " + n);
            if (k.exact()) {
                FunctionDescriptor over = FfmLayouts.descriptorOf(type(k, n + 1));
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> linker.downcallHandle(over, options),
                        k + " x " + (n + 1));
                assertTrue(e.getMessage().contains("bad parameter count"), e.getMessage());
            }
            if (k.tier() == Tier.STANDARD && k.returns() == CType.VOID) {
                int m = 1;
                while (ParameterSlots.lowered(type(k, m + 1), false, true) <= ParameterSlots.LIMIT) m++;
                try (Arena arena = Arena.ofConfined()) {
                    FunctionDescriptor up = FfmLayouts.descriptorOf(type(k, m));
                    assertDoesNotThrow(() -> linker.upcallStub(MethodHandles.empty(up.toMethodType()), up, arena), "upcall " + k + " x " + m);
                    FunctionDescriptor upOver = FfmLayouts.descriptorOf(type(k, m + 1));
                    assertThrows(IllegalArgumentException.class,
                            () -> linker.upcallStub(MethodHandles.empty(upOver.toMethodType()), upOver, arena), "upcall " + k + " x " + (m + 1));
                }
            }
        }
    }

    /** {@code type} taken {@code n} times, at {@code tier}, returning {@code returns}; {@code exact}: the count is the linker's to the slot. */
    record Kind(CType type, Tier tier, CType returns, boolean exact) {}

    static CFunctionType type(Kind k, int n) {
        List<CFunctionType.Param> params = new ArrayList<>();
        for (int i = 0; i < n; i++) params.add(new CFunctionType.Param("p" + i, k.type()));
        return new CFunctionType(k.returns(), params);
    }
}
