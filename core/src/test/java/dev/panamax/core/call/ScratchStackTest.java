package dev.panamax.core.call;

import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_CHAR;
import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;
import static org.junit.jupiter.api.Assertions.*;

class ScratchStackTest {
    /** One array of each element type, {@code n} elements long, each element distinct. */
    private record Samples(byte[] b, short[] s, char[] c, int[] i, float[] fl, long[] l, double[] d) {
        static Samples of(int n) {
            Samples x = new Samples(new byte[n], new short[n], new char[n], new int[n], new float[n], new long[n], new double[n]);
            for (int k = 0; k < n; k++) {
                x.b[k] = (byte) (k * 37 + 1);
                x.s[k] = (short) (k * 1009 - 7);
                x.c[k] = (char) ('A' + k);
                x.i[k] = k * 100_003 - 5;
                x.fl[k] = k * 1.5f - 0.25f;
                x.l[k] = k * 0x1_0000_0001L - 3;
                x.d[k] = k * -2.75;
            }
            return x;
        }
    }

    @Test
    void framesBumpAllocateAndGiveEverythingBackOnClose() {
        assertEquals(0, ScratchStack.used());
        try (ScratchStack.Frame f = ScratchStack.push()) {
            MemorySegment a = f.allocate(JAVA_INT);
            MemorySegment b = f.allocate(JAVA_LONG, 3);
            assertEquals(0, b.address() % 8, "aligned for its layout");
            assertTrue(b.address() >= a.address() + 4, "no overlap");
            assertEquals(24, b.byteSize());
            long used = ScratchStack.used();
            assertTrue(used >= 28, "used=" + used);
            try (ScratchStack.Frame inner = ScratchStack.push()) {
                MemorySegment c = inner.allocate(64, 64);
                assertEquals(0, c.address() % 64);
                assertEquals(2, ScratchStack.depth());
            }
            assertEquals(used, ScratchStack.used(), "inner frame gave its memory back");
            assertEquals(1, ScratchStack.depth());
        }
        assertEquals(0, ScratchStack.used());
        assertEquals(0, ScratchStack.depth());
    }

    @Test
    void memoryIsReusedByTheNextFrame() {
        long first;
        try (ScratchStack.Frame f = ScratchStack.push()) {
            first = f.allocate(JAVA_LONG).address();
        }
        try (ScratchStack.Frame f = ScratchStack.push()) {
            assertEquals(first, f.allocate(JAVA_LONG).address());
        }
    }

    @Test
    void allocationsTooLargeForTheStackComeFromTheFramesArenaAndAreFreedWithIt() {
        MemorySegment big;
        try (ScratchStack.Frame f = ScratchStack.push()) {
            MemorySegment small = f.allocate(16);
            big = f.allocate(ScratchStack.capacity() * 2, 8);
            assertEquals(ScratchStack.capacity() * 2, big.byteSize());
            big.set(JAVA_LONG, big.byteSize() - 8, 42L);
            assertEquals(42L, big.get(JAVA_LONG, big.byteSize() - 8));
            MemorySegment after = f.allocate(16);
            assertEquals(small.address() + 16, after.address(), "the stack keeps serving small allocations");
        }
        assertFalse(big.scope().isAlive(), "the frame's arena closed with it");
    }

    @Test
    void arraysOfEveryLengthAndElementTypeAreCopiedElementForElement() {
        for (int n : new int[] {0, 1, 2, 7, 8, 9, 100}) {
            try (ScratchStack.Frame f = ScratchStack.push()) {
                Samples x = Samples.of(n);
                byte[] b = x.b();
                short[] s = x.s();
                char[] c = x.c();
                int[] i = x.i();
                float[] fl = x.fl();
                long[] l = x.l();
                double[] d = x.d();
                MemorySegment sb = f.allocateFrom(JAVA_BYTE, b);
                MemorySegment ss = f.allocateFrom(JAVA_SHORT, s);
                MemorySegment sc = f.allocateFrom(JAVA_CHAR, c);
                MemorySegment si = f.allocateFrom(JAVA_INT, i);
                MemorySegment sf = f.allocateFrom(JAVA_FLOAT, fl);
                MemorySegment sl = f.allocateFrom(JAVA_LONG, l);
                MemorySegment sd = f.allocateFrom(JAVA_DOUBLE, d);
                assertArrayEquals(b, sb.toArray(JAVA_BYTE), "byte[" + n + "]");
                assertArrayEquals(s, ss.toArray(JAVA_SHORT), "short[" + n + "]");
                assertArrayEquals(c, sc.toArray(JAVA_CHAR), "char[" + n + "]");
                assertArrayEquals(i, si.toArray(JAVA_INT), "int[" + n + "]");
                assertArrayEquals(fl, sf.toArray(JAVA_FLOAT), "float[" + n + "]");
                assertArrayEquals(l, sl.toArray(JAVA_LONG), "long[" + n + "]");
                assertArrayEquals(d, sd.toArray(JAVA_DOUBLE), "double[" + n + "]");
                assertEquals(0, sl.address() % 8, "aligned for its layout");
            }
        }
    }

    @Test
    void copiesGivenAsAddressesHoldTheArraysOfEveryTypeAlignedAndInNativeOrder() {
        MemorySegment all = MemorySegment.NULL.reinterpret(Long.MAX_VALUE);
        for (int n : new int[] {0, 1, 3, 16, 17, 100}) {
            Samples x = Samples.of(n);
            byte[] b = x.b();
            short[] s = x.s();
            char[] c = x.c();
            int[] i = x.i();
            float[] fl = x.fl();
            long[] l = x.l();
            double[] d = x.d();
            long used = ScratchStack.used();
            try (ScratchStack.Frame f = ScratchStack.push()) {
                long ab = f.addressOfCopy(b);
                long as = f.addressOfCopy(s);
                long ac = f.addressOfCopy(c);
                long ai = f.addressOfCopy(i);
                long af = f.addressOfCopy(fl);
                long al = f.addressOfCopy(l);
                long ad = f.addressOfCopy(d);
                assertArrayEquals(b, all.asSlice(ab, n).toArray(JAVA_BYTE), "byte[" + n + "]");
                assertArrayEquals(s, all.asSlice(as, 2L * n).toArray(JAVA_SHORT), "short[" + n + "]");
                assertArrayEquals(c, all.asSlice(ac, 2L * n).toArray(JAVA_CHAR), "char[" + n + "]");
                assertArrayEquals(i, all.asSlice(ai, 4L * n).toArray(JAVA_INT), "int[" + n + "]");
                assertArrayEquals(fl, all.asSlice(af, 4L * n).toArray(JAVA_FLOAT), "float[" + n + "]");
                assertArrayEquals(l, all.asSlice(al, 8L * n).toArray(JAVA_LONG), "long[" + n + "]");
                assertArrayEquals(d, all.asSlice(ad, 8L * n).toArray(JAVA_DOUBLE), "double[" + n + "]");
                assertEquals(0, al % 8, "aligned for its type");
                assertEquals(0, ai % 4, "aligned for its type");
                assertTrue(ScratchStack.used() >= used + 29L * n, "taken from the stack: used=" + ScratchStack.used());
                assertEquals(0, f.addressOfCopy((long[]) null), "null is address 0");
            }
            assertEquals(used, ScratchStack.used(), "given back when the frame closes");
        }
    }

    @Test
    void anAddressTooLargeForTheStackComesFromTheFramesArenaAndAClosedFrameRefusesToGiveOne() {
        ScratchStack.Frame closed;
        try (ScratchStack.Frame f = ScratchStack.push()) {
            long[] many = new long[(int) (ScratchStack.capacity() / Long.BYTES) + 1];
            many[many.length - 1] = 42L;
            long at = f.addressOfCopy(many);
            assertEquals(42L, MemorySegment.NULL.reinterpret(Long.MAX_VALUE).get(JAVA_LONG, at + 8L * (many.length - 1)));
            assertEquals(0, ScratchStack.used(), "the stack itself was not used");
            closed = f;
        }
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> closed.addressOfCopy(new int[] {1}));
        assertTrue(e.getMessage().contains("closed"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> {
            try (ScratchStack.Frame f = ScratchStack.push()) {
                f.allocateAddress(8, 3);
            }
        });
    }

    @Test
    void aLayoutsByteOrderIsHonoured() {
        ValueLayout.OfInt bigEndian = JAVA_INT.withOrder(ByteOrder.BIG_ENDIAN);
        for (int n : new int[] {1, 8, 9, 40}) {
            int[] values = IntStream.range(0, n).map(k -> 0x01020304 + k).toArray();
            try (ScratchStack.Frame f = ScratchStack.push()) {
                MemorySegment copy = f.allocateFrom(bigEndian, values);
                for (int k = 0; k < n; k++) {
                    assertEquals(0x01, copy.get(JAVA_BYTE, 4L * k), "most significant byte first, n=" + n);
                    assertEquals(values[k], copy.getAtIndex(bigEndian, k));
                }
            }
        }
    }

    @Test
    void singleValuesOfEveryTypeAreWrittenInTheirLayoutsOrder() {
        ByteOrder other = ByteOrder.nativeOrder() == ByteOrder.BIG_ENDIAN ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN;
        for (ByteOrder order : new ByteOrder[] {ByteOrder.nativeOrder(), other}) {
            try (ScratchStack.Frame f = ScratchStack.push()) {
                MemorySegment b = f.allocateFrom(JAVA_BYTE.withOrder(order), (byte) -7);
                MemorySegment s = f.allocateFrom(JAVA_SHORT.withOrder(order), (short) 0x1234);
                MemorySegment c = f.allocateFrom(JAVA_CHAR.withOrder(order), 'Ж');
                MemorySegment i = f.allocateFrom(JAVA_INT.withOrder(order), 0x01020304);
                MemorySegment fl = f.allocateFrom(JAVA_FLOAT.withOrder(order), -1.5f);
                MemorySegment l = f.allocateFrom(JAVA_LONG.withOrder(order), 0x0102030405060708L);
                MemorySegment d = f.allocateFrom(JAVA_DOUBLE.withOrder(order), Math.PI);
                assertEquals(-7, b.get(JAVA_BYTE, 0));
                assertEquals((short) 0x1234, s.get(JAVA_SHORT.withOrder(order), 0));
                assertEquals('Ж', c.get(JAVA_CHAR.withOrder(order), 0));
                assertEquals(0x01020304, i.get(JAVA_INT.withOrder(order), 0));
                assertEquals(order == ByteOrder.BIG_ENDIAN ? 0x01 : 0x04, i.get(JAVA_BYTE, 0), "first byte, " + order);
                assertEquals(-1.5f, fl.get(JAVA_FLOAT.withOrder(order), 0));
                assertEquals(0x0102030405060708L, l.get(JAVA_LONG.withOrder(order), 0));
                assertEquals(Math.PI, d.get(JAVA_DOUBLE.withOrder(order), 0));
                assertEquals(8, l.byteSize());
                assertEquals(0, d.address() % 8, "aligned for its layout");
            }
        }
        try (ScratchStack.Frame f = ScratchStack.push()) {
            MemorySegment target = f.allocate(JAVA_LONG);
            MemorySegment slot = f.allocateFrom(ValueLayout.ADDRESS, target);
            assertEquals(target.address(), slot.get(ValueLayout.ADDRESS, 0).address());
            assertThrows(IllegalArgumentException.class, () -> f.allocateFrom(ValueLayout.ADDRESS, MemorySegment.ofArray(new int[1])),
                    "a heap segment has no address to store");
        }
    }

    @Test
    void zeroedRoomIsZeroOverMemoryAnEarlierFrameLeftDirty() {
        for (int n : new int[] {1, 3, 7, 8, 9, 17, 64, 65, 1000}) {
            try (ScratchStack.Frame f = ScratchStack.push()) {
                f.allocate(JAVA_BYTE, n + 16).fill((byte) 0x5A);
            }
            try (ScratchStack.Frame f = ScratchStack.push()) {
                MemorySegment bytes = f.allocateZeroed(JAVA_BYTE, n);
                assertEquals(n, bytes.byteSize());
                assertArrayEquals(new byte[n], bytes.toArray(JAVA_BYTE), "byte[" + n + "]");
            }
            try (ScratchStack.Frame f = ScratchStack.push()) {
                f.allocate(JAVA_INT, n + 4).fill((byte) 0x5A);
            }
            try (ScratchStack.Frame f = ScratchStack.push()) {
                MemorySegment ints = f.allocateZeroed(JAVA_INT, n);
                assertArrayEquals(new int[n], ints.toArray(JAVA_INT), "int[" + n + "]");
            }
        }
        try (ScratchStack.Frame f = ScratchStack.push()) {
            MemorySegment big = f.allocateZeroed(JAVA_LONG, ScratchStack.capacity() / 4);
            assertEquals(0, big.get(JAVA_LONG, big.byteSize() - 8), "from the frame's arena, zeroed as well");
            assertThrows(IllegalArgumentException.class, () -> f.allocateZeroed(JAVA_INT, -1));
        }
    }

    @Test
    void aClosedFrameSaysSo() {
        ScratchStack.Frame f = ScratchStack.push();
        f.close();
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> f.allocate(8));
        assertTrue(e.getMessage().contains("closed"), e.getMessage());
        assertEquals(0, ScratchStack.depth());
    }

    @Test
    void framesMustCloseInnermostFirst() {
        ScratchStack.Frame outer = ScratchStack.push();
        ScratchStack.Frame inner = ScratchStack.push();
        IllegalStateException e = assertThrows(IllegalStateException.class, outer::close);
        assertTrue(e.getMessage().contains("innermost first"), e.getMessage());
        assertThrows(IllegalStateException.class, () -> outer.allocate(8));
        inner.close();
        outer.close();
        assertThrows(IllegalStateException.class, outer::close, "closed twice");
        assertEquals(0, ScratchStack.depth());
    }

    @Test
    void aFrameBelongsToItsThread() throws InterruptedException {
        try (ScratchStack.Frame f = ScratchStack.push()) {
            AtomicReference<Throwable> seen = new AtomicReference<>();
            Thread t = Thread.ofPlatform().start(() -> {
                try {
                    f.allocate(8);
                } catch (Throwable e) {
                    seen.set(e);
                }
            });
            t.join();
            assertInstanceOf(IllegalStateException.class, seen.get());
            assertTrue(seen.get().getMessage().contains("another thread"), seen.get().getMessage());
        }
    }

    @Test
    void virtualThreadsUseTheFramesArena() throws InterruptedException {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread t = Thread.ofVirtual().start(() -> {
            try (ScratchStack.Frame f = ScratchStack.push()) {
                MemorySegment s = f.allocate(JAVA_INT, 4);
                s.set(JAVA_INT, 12, 9);
                assertEquals(9, s.get(JAVA_INT, 12));
                assertArrayEquals(new long[] {1, 2}, f.allocateFrom(JAVA_LONG, 1L, 2L).toArray(JAVA_LONG));
                assertEquals(2.5f, f.allocateFrom(JAVA_FLOAT, 2.5f).get(JAVA_FLOAT, 0));
                assertArrayEquals(new int[3], f.allocateZeroed(JAVA_INT, 3).toArray(JAVA_INT));
                assertEquals(0, ScratchStack.used());
            } catch (Throwable e) {
                failure.set(e);
            }
        });
        t.join();
        assertNull(failure.get());
    }

    @Test
    void badArgumentsAreRefused() {
        try (ScratchStack.Frame f = ScratchStack.push()) {
            assertThrows(IllegalArgumentException.class, () -> f.allocate(-1, 8));
            assertThrows(IllegalArgumentException.class, () -> f.allocate(8, 3));
        }
    }
}
