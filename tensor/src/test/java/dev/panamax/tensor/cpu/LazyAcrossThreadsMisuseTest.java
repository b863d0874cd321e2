package dev.panamax.tensor.cpu;

import dev.panamax.testsupport.ChildJvm;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link LazyTensorsAcrossThreads} in child JVMs: random sequences of lazy tensor operations from four
 * threads over shared tensors end without a crash, a wrong value or an exception other than the one a
 * tensor freed by another thread gives, and without a tensor left to the GC (an op refused that way
 * frees the result it made).
 */
class LazyAcrossThreadsMisuseTest {
    @ParameterizedTest
    @ValueSource(longs = {1, 26, 4242})
    void randomSequencesEndWithoutACrashOrAWrongValue(long seed, @TempDir Path dir) throws Exception {
        ChildJvm child = ChildJvm.run(LazyTensorsAcrossThreads.class,
                List.of("-XX:ErrorFile=" + dir.resolve("hs_err_%p.log")), Long.toString(seed), "4", "400");
        try (var files = Files.list(dir)) {
            assertEquals(List.of(), files.toList(), "the JVM crashed:\n" + child.output());
        }
        assertEquals(0, child.exitCode(), child.output());
        assertTrue(child.output().contains("seed=" + seed + " ok "), child.output());
        // an op refused because another thread freed its input frees the result it made (PARANOID reports any the GC frees)
        assertFalse(child.output().contains("LEAK:"), "a tensor was left to the GC:\n" + child.output());
        System.out.println(child.output().strip());
    }

    @org.junit.jupiter.api.Test
    void aSecondThreadReadsWhatTheFirstRecordedWhileItWasAlone() throws Exception {
        ChildJvm child = ChildJvm.run(SecondThreadReadsWhatOneThreadRecordedAlone.class, List.of());
        assertEquals(0, child.exitCode(), child.output());
        assertTrue(child.output().contains("ok"), child.output());
    }

    @org.junit.jupiter.api.Test
    void threadsReleasedAtOnceAllReadWhatTheFirstRecordedWhileItWasAlone() throws Exception {
        ChildJvm child = ChildJvm.run(ManyThreadsReadWhatOneThreadRecordedAlone.class, List.of(), "8");
        assertEquals(0, child.exitCode(), child.output());
        assertTrue(child.output().contains("ok"), child.output());
    }
}
