package dev.panamax.core.call;

import dev.panamax.core.abi.CFunctionType;
import dev.panamax.core.abi.CType;
import dev.panamax.core.batch.Batch;
import dev.panamax.core.batch.BatchMode;
import dev.panamax.core.batch.StatusRule;
import org.junit.jupiter.api.Test;

import java.lang.foreign.FunctionDescriptor;
import java.lang.invoke.MethodHandle;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static org.junit.jupiter.api.Assertions.*;

/**
 * Tier.BATCHED in the call layer: what it refuses and why. The fixture library of these tests has
 * no thunks; recording through generated thunks is tested with bindgen's fixture library.
 */
class BatchedTierTest {
    static final NativeLibrary LIB = Fixtures.library();
    static final CFunctionType ADD = CFunctionType.of(CType.I32, "a", CType.I32, "b", CType.I32);

    @Test
    void batchedIsTheOneTierThatDoesNotCallDirectly() {
        assertFalse(Tier.BATCHED.callsDirectly());
        assertTrue(Tier.BATCHED.linkerOptions().isEmpty());
        assertFalse(Tier.BATCHED.acceptsHeapMemory());
        for (Tier t : Tier.values()) assertEquals(t != Tier.BATCHED, t.callsDirectly(), t.name());
    }

    @Test
    void linkingABatchedFunctionForADirectCallIsRefusedWithTheWayOut() {
        for (var attempt : java.util.List.<org.junit.jupiter.api.function.Executable>of(
                () -> LIB.function("pmxf_add_i32").type(ADD).tier(Tier.BATCHED).link(),
                () -> LIB.function("pmxf_add_i32").type(ADD).tier(Tier.BATCHED).linkNow(),
                () -> LIB.function("pmxf_add_i32").returns(JAVA_INT).params(JAVA_INT, JAVA_INT).tier(Tier.BATCHED).link(),
                () -> LIB.downcall("pmxf_add_i32", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT), Tier.BATCHED))) {
            NativeLinkException e = assertThrows(NativeLinkException.class, attempt);
            String m = e.getMessage();
            assertTrue(m.startsWith("not a direct call: library=" + LIB.source() + " symbol=pmxf_add_i32 tier=BATCHED"), m);
            assertTrue(m.contains("recorder()") && m.contains("STANDARD, CRITICAL, CRITICAL_HEAP"), m);
        }
    }

    @Test
    void recorderNeedsTheBatchedTierTheCTypeAndNoErrno() {
        NativeLinkException wrongTier = assertThrows(NativeLinkException.class,
                () -> LIB.function("pmxf_add_i32").type(ADD).tier(Tier.CRITICAL).recorder());
        assertTrue(wrongTier.getMessage().contains("symbol=pmxf_add_i32 tier=CRITICAL"), wrongTier.getMessage());
        assertTrue(wrongTier.getMessage().contains("tier(Tier.BATCHED)"), wrongTier.getMessage());

        NativeLinkException layoutsOnly = assertThrows(NativeLinkException.class,
                () -> LIB.function("pmxf_add_i32").returns(JAVA_INT).params(JAVA_INT, JAVA_INT).tier(Tier.BATCHED).recorder());
        assertTrue(layoutsOnly.getMessage().contains("no C function type"), layoutsOnly.getMessage());
        assertTrue(layoutsOnly.getMessage().contains("type(CFunctionType)"), layoutsOnly.getMessage());

        NativeLinkException errno = assertThrows(NativeLinkException.class, () -> LIB.function("pmxf_add_i32").type(ADD)
                .setsErrno(ErrnoCheck.RETURNS_MINUS_ONE).tier(Tier.BATCHED).recorder());
        assertTrue(errno.getMessage().contains("errno"), errno.getMessage());
    }

    @Test
    void aFunctionIsDeclaredByLayoutsOrByItsCTypeNotBoth() {
        assertThrows(IllegalStateException.class, () -> LIB.function("pmxf_add_i32").returns(JAVA_INT).type(ADD));
        assertThrows(IllegalStateException.class, () -> LIB.function("pmxf_add_i32").type(ADD).param(JAVA_INT));
    }

    @Test
    void aCTypeDeclarationLinksADirectCallAtTheOtherTiers() throws Throwable {
        for (Tier tier : Fixtures.directTiers().toList()) {
            MethodHandle add = LIB.function("pmxf_add_i32").type(ADD).tier(tier).link();
            assertEquals(42, (int) add.invokeExact(40, 2), tier.name());
        }
        NativeLinkException f80 = assertThrows(NativeLinkException.class, () -> LIB.function("pmxf_nop")
                .type(CFunctionType.of(CType.F80, "x", CType.F80)).link());
        assertTrue(f80.getMessage().contains("long double"), f80.getMessage());
    }

    @Test
    void aMissingThunkNamesTheFunctionTheLibraryAndWhatWasExpected() {
        BatchedFunction add = LIB.function("pmxf_add_i32").type(ADD).tier(Tier.BATCHED).recorder();
        SymbolNotFoundException e = assertThrows(SymbolNotFoundException.class, add::thunk);
        assertEquals("pmx_thunk_pmxf_add_i32", e.symbol());
        assertEquals(LIB.source(), e.library());
        String m = e.getMessage();
        assertTrue(m.contains("library=" + LIB.source()) && m.contains("function=pmxf_add_i32"), m);
        assertTrue(m.contains("void *pmx_thunk_pmxf_add_i32(void *param)") && m.contains("batchable"), m);
        try (Batch batch = Batch.create(BatchMode.STANDARD)) {
            assertThrows(SymbolNotFoundException.class, () -> add.record(batch, 1, 2));
            assertEquals(0, batch.size(), "nothing is recorded");
        }
    }

    @Test
    void aStatusNeedsARegisterResult() {
        BatchedFunction dot = LIB.function("pmxf_point_dot").tier(Tier.BATCHED)
                .type(CFunctionType.of(CType.F32, "a", CType.F64)).recorder();
        NativeLinkException e = assertThrows(NativeLinkException.class, () -> dot.withStatus(StatusRule.successIs(0)));
        assertTrue(e.getMessage().contains("symbol=pmxf_point_dot"), e.getMessage());
        BatchedFunction add = LIB.function("pmxf_add_i32").type(ADD).tier(Tier.BATCHED).recorder();
        BatchedFunction checked = add.asCritical().withStatus(StatusRule.successAtLeast(0));
        assertTrue(checked.isCritical());
        assertEquals(StatusRule.successAtLeast(0), checked.statusRule());
        assertFalse(add.isCritical(), "copies leave the original as it was");
        assertNull(add.statusRule());
    }
}
