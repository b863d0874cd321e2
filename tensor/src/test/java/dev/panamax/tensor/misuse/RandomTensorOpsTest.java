package dev.panamax.tensor.misuse;

import dev.panamax.testsupport.ChildJvm;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Runs {@link RandomTensorOps} in child JVMs (PARANOID leak detection, a fatal-error log directory of
 * their own): one per seed, {@code -Dpanamax.misuse.seeds=1,2,3} (default two seeds drawn from the
 * time, printed in the test's name), {@code -Dpanamax.misuse.ops=N} operations per thread (default
 * 300), 4 threads. A crash, a disagreement between cpu and reference or an unclear exception fails it.
 */
class RandomTensorOpsTest {
    private static final Path WORK = Path.of("target", "tensor-misuse");

    @TestFactory
    Stream<DynamicTest> randomOpsAgreeWithTheOracleOrAreRefusedClearly() {
        String ops = System.getProperty("panamax.misuse.ops", "300");
        return seeds().stream().map(seed -> DynamicTest.dynamicTest("seed=" + seed + " threads=4 opsPerThread=" + ops
                + " (rerun: -Dpanamax.misuse.seeds=" + seed + ")", () -> {
            Path dir = Files.createDirectories(WORK.resolve("seed-" + seed));
            ChildJvm c = ChildJvm.run(RandomTensorOps.class, List.of("-Dpanamax.leakDetection=PARANOID", "-Xmx512m",
                    "-XX:ErrorFile=" + dir.toAbsolutePath().resolve("hs_err_pid%p.log")), Long.toString(seed), "4", ops);
            System.out.println(c.output().lines().reduce((x, y) -> y).orElse(""));
            try (var files = Files.list(dir)) {
                List<Path> crashes = files.filter(p -> p.getFileName().toString().startsWith("hs_err")).toList();
                assertTrue(crashes.isEmpty(), () -> "the JVM crashed: " + crashes + "\n" + c.output());
            }
            assertEquals(0, c.exitCode(), c.output());
        }));
    }

    private static List<Long> seeds() {
        String given = System.getProperty("panamax.misuse.seeds");
        List<Long> seeds = new ArrayList<>();
        if (given == null || given.isBlank()) {
            Random r = new Random();
            for (int i = 0; i < 2; i++) seeds.add(r.nextLong() & Long.MAX_VALUE);
        } else {
            for (String s : given.split(",")) seeds.add(Long.parseLong(s.trim()));
        }
        return seeds;
    }
}
