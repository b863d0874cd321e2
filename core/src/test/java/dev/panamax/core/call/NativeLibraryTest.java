package dev.panamax.core.call;

import org.junit.jupiter.api.Test;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.List;

import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static org.junit.jupiter.api.Assertions.*;

class NativeLibraryTest {
    @Test
    void loadsShortNamesThroughSonames() throws Throwable {
        NativeLibrary m = NativeLibrary.load("m");
        assertTrue(m.source().contains("libm.so"), m.source());
        MethodHandle cos = m.downcall("cos", FunctionDescriptor.of(JAVA_DOUBLE, JAVA_DOUBLE), Tier.CRITICAL);
        assertEquals(Math.cos(0.5), (double) cos.invokeExact(0.5), 1e-15);
    }

    @Test
    void loadsSonamesAndPaths() {
        assertTrue(NativeLibrary.load("libc.so.6").find("getpid").isPresent());
        NativeLibrary fixtures = NativeLibrary.load(Fixtures.path().toString());
        assertEquals(Fixtures.path().toString(), fixtures.source());
        assertTrue(fixtures.find("pmxf_nop").isPresent());
    }

    @Test
    void sameNameGivesSameLibrary() {
        assertSame(NativeLibrary.load("m"), NativeLibrary.load("m"));
        assertSame(Fixtures.library(), NativeLibrary.load(Fixtures.path()));
    }

    @Test
    void symbolsAreLookedUpOnceAndCached() {
        NativeLibrary lib = Fixtures.library();
        MemorySegment a = lib.symbol("pmxf_add_i32");
        assertSame(a, lib.symbol("pmxf_add_i32"));
        assertNotEquals(0, a.address());
    }

    @Test
    void missingLibraryListsEveryCandidateTried() {
        LibraryNotFoundException e = assertThrows(LibraryNotFoundException.class,
                () -> NativeLibrary.load("pmx_no_such_library"));
        assertEquals("pmx_no_such_library", e.name());
        assertFalse(e.tried().isEmpty());
        assertTrue(e.tried().getFirst().startsWith("libpmx_no_such_library.so (system loader search)"), e.tried().toString());
        assertTrue(e.getMessage().contains("libpmx_no_such_library.so"), e.getMessage());
        assertTrue(e.getMessage().contains("searched directories"), e.getMessage());
    }

    @Test
    void missingPathNamesThePath() {
        LibraryNotFoundException e = assertThrows(LibraryNotFoundException.class,
                () -> NativeLibrary.load("/nonexistent/dir/libfoo.so"));
        assertEquals(1, e.tried().size());
        assertTrue(e.tried().getFirst().startsWith("/nonexistent/dir/libfoo.so"), e.tried().toString());
    }

    @Test
    void loadFirstFallsThroughToALoadableName() {
        NativeLibrary z = NativeLibrary.loadFirst(List.of("pmx_no_such_library", "libc.so.6"));
        assertEquals("libc.so.6", z.name());
        LibraryNotFoundException e = assertThrows(LibraryNotFoundException.class,
                () -> NativeLibrary.loadFirst(List.of("pmx_missing_a", "pmx_missing_b")));
        assertTrue(e.getMessage().contains("libpmx_missing_a.so") && e.getMessage().contains("libpmx_missing_b.so"), e.getMessage());
    }

    @Test
    void missingSymbolNamesLibraryAndSymbol() {
        NativeLibrary lib = Fixtures.library();
        SymbolNotFoundException e = assertThrows(SymbolNotFoundException.class, () -> lib.symbol("pmxf_does_not_exist"));
        assertEquals("pmxf_does_not_exist", e.symbol());
        assertEquals(Fixtures.path().toString(), e.library());
        assertTrue(e.getMessage().contains("symbol=pmxf_does_not_exist"), e.getMessage());
        assertTrue(e.getMessage().contains("library=" + Fixtures.path()), e.getMessage());
        assertTrue(lib.find("pmxf_does_not_exist").isEmpty());
    }

    @Test
    void missingSymbolSurfacesOnFirstCallOrAtOnceWithLinkNow() {
        NativeLibrary lib = Fixtures.library();
        MethodHandle lazy = lib.downcall("pmxf_missing_fn", FunctionDescriptor.of(JAVA_INT), Tier.STANDARD);
        SymbolNotFoundException first = assertThrows(SymbolNotFoundException.class, () -> {
            int ignored = (int) lazy.invokeExact();
        });
        assertEquals("pmxf_missing_fn", first.symbol());
        assertThrows(SymbolNotFoundException.class, () -> lib.function("pmxf_missing_fn").returns(JAVA_INT).linkNow());
    }

    @Test
    void equalDeclarationsShareOneHandle() {
        NativeLibrary lib = Fixtures.library();
        FunctionDescriptor d = FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT);
        MethodHandle a = lib.downcall("pmxf_add_i32", d, Tier.CRITICAL);
        assertSame(a, lib.downcall("pmxf_add_i32", d, Tier.CRITICAL));
        assertSame(a, lib.function("pmxf_add_i32").returns(JAVA_INT).params(JAVA_INT, JAVA_INT).tier(Tier.CRITICAL).link());
        assertNotSame(a, lib.downcall("pmxf_add_i32", d, Tier.STANDARD));
    }

    @Test
    void systemLibraryFindsLibcFunctions() {
        assertTrue(NativeLibrary.system().find("strlen").isPresent());
    }
}
