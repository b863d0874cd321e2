package dev.panamax.core.abi;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

/** Sizes and offsets of aggregates: natural layout, and an overflow refused rather than wrapped. */
class CTypeSizeTest {
    private static final CType BYTES = new CType.Array(new CType.Scalar(ScalarKind.U8), 2_000_000_000);

    @Test
    void fieldsAreLaidOutAtTheirAlignment() {
        CType.Struct s = new CType.Struct("S", List.of(new CType.Field("c", new CType.Scalar(ScalarKind.U8)),
                new CType.Field("d", new CType.Scalar(ScalarKind.F64)), new CType.Field("i", new CType.Scalar(ScalarKind.I32))));
        assertEquals(8, s.offsetOf(1));
        assertEquals(16, s.offsetOf(2));
        assertEquals(24, s.size());
    }

    @Test
    void aStructPastTwoGigabytesOverflowsLoudly() {
        CType.Struct big = new CType.Struct("Big", List.of(new CType.Field("a", BYTES), new CType.Field("b", BYTES)));
        assertThrows(ArithmeticException.class, big::size, "not a wrapped, negative size");
        assertThrows(ArithmeticException.class, () -> new CType.Struct("After", List.of(new CType.Field("a", BYTES),
                new CType.Field("b", BYTES), new CType.Field("c", new CType.Scalar(ScalarKind.U8)))).offsetOf(2));
        assertThrows(ArithmeticException.class, () -> new CType.Array(BYTES, 2).size());
    }
}
