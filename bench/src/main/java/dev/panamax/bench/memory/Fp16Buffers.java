package dev.panamax.bench.memory;

import dev.panamax.core.fp16.Fp16;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import static java.lang.foreign.ValueLayout.JAVA_FLOAT;

/** 64 MiB of floats and their halves, as native segments and as heap arrays, for the fp16 benchmarks. */
@State(Scope.Benchmark)
public class Fp16Buffers {
    static final long FP32_BYTES = 64L << 20;
    static final int COUNT = (int) (FP32_BYTES / Float.BYTES);

    Arena arena;
    MemorySegment floats, halves, floatsOut, copyOut;
    float[] floatArray, floatArrayOut, copyArrayOut;
    short[] halfArray;
    /** A second thread for the two-thread JDK loop. */
    ExecutorService second;

    @Setup(Level.Trial)
    public void setup() {
        arena = Arena.ofShared();
        floats = arena.allocate(FP32_BYTES, 64);
        halves = arena.allocate(FP32_BYTES / 2, 64);
        floatsOut = arena.allocate(FP32_BYTES, 64);
        copyOut = arena.allocate(FP32_BYTES, 64);
        floatArray = new float[COUNT];
        floatArrayOut = new float[COUNT];
        copyArrayOut = new float[COUNT];
        halfArray = new short[COUNT];
        for (int i = 0; i < COUNT; i++) floatArray[i] = (i % 4099) * 0.37f - 700f;
        MemorySegment.copy(floatArray, 0, floats, JAVA_FLOAT, 0, COUNT);
        Fp16.toHalf(floats, 0, halves, 0, COUNT);
        Fp16.toHalf(floatArray, 0, halfArray, 0, COUNT);
        floatsOut.fill((byte) 1);   // every destination page resident before the first measurement
        copyOut.fill((byte) 1);
        second = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "fp16-bench-second");
            t.setDaemon(true);
            return t;
        });
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        second.shutdownNow();
        arena.close();
    }
}
