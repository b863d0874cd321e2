package dev.panamax.tensor.opencl;

import dev.panamax.tensor.DType;
import dev.panamax.tensor.spi.Operand;
import dev.panamax.tensor.spi.Storage;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The index space plan, without a device: which dimensions merge, which layouts are dense, what a kernel reads. */
class LayoutTest {
    @Test
    void contiguousOperandsMergeIntoOneDenseDimension() {
        try (Storage s = dev.panamax.tensor.spi.HostStorage.allocate(DType.F32, 25)) {
            Operand a = new Operand(s, new int[] {2, 3, 4}, new long[] {12, 4, 1}, 1);
            Layout l = Layout.of(a.shape(), a, a);
            assertArrayEquals(new long[] {24}, l.shape());
            assertTrue(l.dense());
            assertArrayEquals(new long[] {1, 24, 1, 1, 1, 1}, l.pack());
        }
    }

    @Test
    void aTransposeStaysStridedAndExtentOneDimensionsDrop() {
        try (Storage s = dev.panamax.tensor.spi.HostStorage.allocate(DType.F32, 6)) {
            Operand out = new Operand(s, new int[] {2, 1, 3}, new long[] {3, 3, 1}, 0);
            Operand t = new Operand(s, new int[] {2, 1, 3}, new long[] {1, 1, 2}, 0);
            Layout l = Layout.of(out.shape(), out, t);
            assertArrayEquals(new long[] {2, 3}, l.shape());
            assertFalse(l.dense());
            // rank, shape, then out's offset and strides, t's offset and strides
            assertArrayEquals(new long[] {2, 2, 3, 0, 3, 1, 0, 1, 2}, l.pack());
        }
    }

    @Test
    void aBroadcastRowMergesWithItsNeighboursOnlyWhereEveryOperandDoes() {
        try (Storage s = dev.panamax.tensor.spi.HostStorage.allocate(DType.F32, 12); Storage row = dev.panamax.tensor.spi.HostStorage.allocate(DType.F32, 4)) {
            Operand out = new Operand(s, new int[] {3, 4}, new long[] {4, 1}, 0);
            Operand b = new Operand(row, new int[] {3, 4}, new long[] {0, 1}, 0);
            Layout l = Layout.of(out.shape(), out, b);
            assertArrayEquals(new long[] {3, 4}, l.shape());
            assertFalse(l.dense());
            Operand scalar = new Operand(row, new int[] {3, 4}, new long[] {0, 0}, 2);
            Layout all = Layout.of(scalar.shape(), scalar, scalar);
            assertArrayEquals(new long[] {12}, all.shape());
            assertArrayEquals(new long[][] {{0}, {0}}, all.strides());
        }
    }

    @Test
    void aRankZeroOperandIsDense() {
        try (Storage s = dev.panamax.tensor.spi.HostStorage.allocate(DType.I64, 3)) {
            Operand one = new Operand(s, new int[0], new long[0], 2);
            Layout l = Layout.of(one.shape(), one);
            assertTrue(l.dense());
            assertArrayEquals(new long[] {2}, l.offsets());
        }
    }
}
