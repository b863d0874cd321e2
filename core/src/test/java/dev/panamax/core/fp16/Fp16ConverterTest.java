package dev.panamax.core.fp16;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.stream.Stream;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;
import static java.lang.foreign.ValueLayout.JAVA_SHORT_UNALIGNED;
import static org.junit.jupiter.api.Assertions.*;

/** Every bulk path, on every operand kind, agrees bit for bit with the JDK's scalar conversions. */
class Fp16ConverterTest {
    private static float[] floats;
    private static short[] expectedHalves;
    private static short[] halves;
    private static int[] expectedFloatBits;

    @BeforeAll
    static void expectations() {
        floats = Fp16Samples.floats();
        expectedHalves = new short[floats.length];
        for (int i = 0; i < floats.length; i++) expectedHalves[i] = Float.floatToFloat16(floats[i]);
        // every half 16 times over, in a scrambled order (the multiplier is odd, so each run of
        // 65,536 indices hits every half once), and a length that is not a multiple of any vector
        halves = new short[65536 * 16 + 7];
        for (int i = 0; i < halves.length; i++) halves[i] = (short) (i * 40503);
        expectedFloatBits = new int[halves.length];
        for (int i = 0; i < halves.length; i++) expectedFloatBits[i] = Float.floatToRawIntBits(Float.float16ToFloat(halves[i]));
    }

    static Stream<Fp16Converter> converters() {
        return Stream.of(Fp16Converter.auto(),
                Fp16Converter.of(Fp16Strategy.AUTO, 1),
                Fp16Converter.of(Fp16Strategy.JAVA, 1),
                Fp16Converter.of(Fp16Strategy.NATIVE, 1),
                Fp16Converter.of(Fp16Strategy.NATIVE, 2),
                Fp16Converter.of(Fp16Strategy.NATIVE_STREAMING, 1),
                Fp16Converter.of(Fp16Strategy.NATIVE_STREAMING, 3));
    }

    @ParameterizedTest
    @MethodSource("converters")
    void tenMillionFloatsToHalfMatchTheJdk(Fp16Converter c) {
        int n = floats.length;
        short[] h = new short[n];
        c.toHalf(floats, 0, h, 0, n);
        assertHalves(c + " array->array", h);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment fs = arena.allocate(4L * n, 64);
            MemorySegment hs = arena.allocate(2L * n, 64);
            MemorySegment.copy(floats, 0, fs, JAVA_FLOAT, 0, n);
            c.toHalf(fs, 0, hs, 0, n);
            assertHalves(c + " segment->segment", hs.toArray(JAVA_SHORT));
            hs.fill((byte) 0);
            c.toHalf(floats, 0, hs, 0, n);
            assertHalves(c + " array->segment", hs.toArray(JAVA_SHORT));
            Arrays.fill(h, (short) 0);
            c.toHalf(fs, 0, h, 0, n);
            assertHalves(c + " segment->array", h);
        }
    }

    @ParameterizedTest
    @MethodSource("converters")
    void everyHalfToFloatMatchesTheJdk(Fp16Converter c) {
        int n = halves.length;
        float[] f = new float[n];
        c.toFloat(halves, 0, f, 0, n);
        assertFloats(c + " array->array", f);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment hs = arena.allocate(2L * n, 64);
            MemorySegment fs = arena.allocate(4L * n, 64);
            MemorySegment.copy(halves, 0, hs, JAVA_SHORT, 0, n);
            c.toFloat(hs, 0, fs, 0, n);
            assertFloats(c + " segment->segment", fs.toArray(JAVA_FLOAT));
            fs.fill((byte) 0);
            c.toFloat(halves, 0, fs, 0, n);
            assertFloats(c + " array->segment", fs.toArray(JAVA_FLOAT));
            Arrays.fill(f, 0f);
            c.toFloat(hs, 0, f, 0, n);
            assertFloats(c + " segment->array", f);
        }
    }

    @ParameterizedTest
    @MethodSource("converters")
    void unalignedOffsetsAndOddLengthsTouchExactlyTheirRange(Fp16Converter c) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment src = arena.allocate(4 * 2000 + 8, 64);
            MemorySegment dst = arena.allocate(4 * 2000 + 8, 64);
            for (int srcOffset = 0; srcOffset < 4; srcOffset++) {
                for (int dstOffset = 0; dstOffset < 4; dstOffset++) {
                    for (int count : new int[] {0, 1, 7, 8, 9, 31, 32, 33, 100, 1999}) {
                        String where = c + " srcOffset=" + srcOffset + " dstOffset=" + dstOffset + " count=" + count;
                        for (int i = 0; i < count; i++) src.set(JAVA_FLOAT_UNALIGNED, srcOffset + 4L * i, floats[i * 7919 % floats.length]);
                        dst.fill((byte) 0x5a);
                        c.toHalf(src, srcOffset, dst, dstOffset, count);
                        for (int i = 0; i < count; i++) {
                            assertEquals(expectedHalves[i * 7919 % floats.length], dst.get(JAVA_SHORT_UNALIGNED, dstOffset + 2L * i), where);
                        }
                        assertUntouched(dst, dstOffset, 2L * count, where);

                        for (int i = 0; i < count; i++) src.set(JAVA_SHORT_UNALIGNED, srcOffset + 2L * i, halves[i * 31]);
                        dst.fill((byte) 0x5a);
                        c.toFloat(src, srcOffset, dst, dstOffset, count);
                        for (int i = 0; i < count; i++) {
                            assertEquals(expectedFloatBits[i * 31], Float.floatToRawIntBits(dst.get(JAVA_FLOAT_UNALIGNED, dstOffset + 4L * i)), where);
                        }
                        assertUntouched(dst, dstOffset, 4L * count, where);
                    }
                }
            }
        }
    }

    @Test
    void arrayIndicesOffsetTheRange() {
        float[] f = {1f, 2f, 3f, 4f, 5f};
        short[] h = new short[6];
        Fp16.toHalf(f, 1, h, 2, 3);
        assertArrayEquals(new short[] {0, 0, Fp16.toHalf(2f), Fp16.toHalf(3f), Fp16.toHalf(4f), 0}, h);
        float[] back = new float[4];
        Fp16.toFloat(h, 2, back, 1, 3);
        assertArrayEquals(new float[] {0f, 2f, 3f, 4f}, back);
        assertArrayEquals(new float[] {2f, 3f, 4f}, Fp16.toFloat(Fp16.toHalf(new float[] {2f, 3f, 4f})));
    }

    @Test
    void portableKernelMatchesTheJdk() {
        int n = floats.length;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment fs = arena.allocate(4L * n, 64);
            MemorySegment hs = arena.allocate(2L * n, 64);
            MemorySegment.copy(floats, 0, fs, JAVA_FLOAT, 0, n);
            for (int threads : new int[] {1, 2}) {
                hs.fill((byte) 0);
                Fp16Native.toHalf(fs, hs, n, Fp16Native.PORTABLE | Fp16Native.STREAM, threads, false);
                assertHalves("portable threads=" + threads, hs.toArray(JAVA_SHORT));
            }
            int m = halves.length;
            MemorySegment hin = arena.allocate(2L * m, 64);
            MemorySegment fout = arena.allocate(4L * m, 64);
            MemorySegment.copy(halves, 0, hin, JAVA_SHORT, 0, m);
            Fp16Native.toFloat(hin, fout, m, Fp16Native.PORTABLE, 1, false);
            assertFloats("portable", fout.toArray(JAVA_FLOAT));
        }
    }

    @Test
    void nativeKernelReportsF16cWhenTheCpuHasIt() {
        var cpu = dev.panamax.core.CoreLibrary.cpuFeatures();
        assertEquals(cpu.f16c() && cpu.avx(), Fp16Native.f16c());
    }

    private static void assertHalves(String where, short[] actual) {
        for (int i = 0; i < expectedHalves.length; i++) {
            if (actual[i] != expectedHalves[i]) {
                fail(where + ": index=" + i + " float=0x" + Integer.toHexString(Float.floatToRawIntBits(floats[i]))
                        + " expected=0x" + Integer.toHexString(expectedHalves[i] & 0xffff)
                        + " actual=0x" + Integer.toHexString(actual[i] & 0xffff));
            }
        }
    }

    private static void assertFloats(String where, float[] actual) {
        for (int i = 0; i < expectedFloatBits.length; i++) {
            int bits = Float.floatToRawIntBits(actual[i]);
            if (bits != expectedFloatBits[i]) {
                fail(where + ": index=" + i + " half=0x" + Integer.toHexString(halves[i] & 0xffff)
                        + " expected=0x" + Integer.toHexString(expectedFloatBits[i]) + " actual=0x" + Integer.toHexString(bits));
            }
        }
    }

    private static void assertUntouched(MemorySegment dst, long offset, long length, String where) {
        for (long i = 0; i < dst.byteSize(); i++) {
            if (i < offset || i >= offset + length) assertEquals((byte) 0x5a, dst.get(JAVA_BYTE, i), where + " byte=" + i);
        }
    }
}
