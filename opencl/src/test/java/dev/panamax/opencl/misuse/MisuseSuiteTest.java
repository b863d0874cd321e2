package dev.panamax.opencl.misuse;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Runs every {@link MisuseCases misuse case} in a child JVM and fails on a crash (an hs_err file, a
 * signal, a time-out) or on any end other than the case's expected one: success, or the expected Java
 * exception out of {@code main}.
 */
class MisuseSuiteTest {
    private static final Path WORK = Path.of("target", "misuse");

    @TestFactory
    Stream<DynamicTest> everyMisuseEndsAsExpectedWithoutACrash() {
        return MisuseCases.all().stream().map(c -> DynamicTest.dynamicTest(c.name(), () -> runAndCheck(c)));
    }

    @TestFactory
    Stream<DynamicTest> computeMisuseEndsAsExpectedWithoutACrashOrAHang() {
        return MisuseCases.compute().stream().map(c -> DynamicTest.dynamicTest(c.name(), () -> runAndCheck(c)));
    }

    @TestFactory
    Stream<DynamicTest> randomSequencesOfHandleOperationsEndWithoutACrash() {
        return MisuseCases.randomSequences().stream().map(c -> DynamicTest.dynamicTest(c.name(), () -> runAndCheck(c)));
    }

    static void runAndCheck(MisuseCase c) throws IOException, InterruptedException {
        String name = c.name().replaceAll("[^A-Za-z0-9]+", "-");
        Path dir = WORK.resolve(name.substring(0, Math.min(name.length(), 80)));
        ChildJvm.Result r = ChildJvm.run(c, dir);
        System.out.println("misuse: " + c.name() + " exit=" + r.exitCode() + " " + lastLine(r.output()));
        assertTrue(r.fatalErrorLogs().isEmpty(), () -> "the JVM crashed: " + c.name() + "\n" + head(r.fatalErrorLogs().getFirst()));
        assertFalse(r.timedOut(), () -> "the child JVM did not finish: " + c.name() + "\n" + r.output());
        switch (c.expected()) {
            case Outcome.Success s -> assertEquals(0, r.exitCode(), () -> c.name() + " did not succeed:\n" + r.output());
            case Outcome.Throws t -> {
                assertEquals(1, r.exitCode(), () -> c.name() + " did not end with " + t.type().getName() + ":\n" + r.output());
                String line = "Exception in thread \"main\" " + t.type().getName();
                assertTrue(r.output().contains(line), () -> c.name() + " did not end with " + t.type().getName() + ":\n" + r.output());
            }
        }
    }

    private static String lastLine(String out) {
        String[] lines = out.strip().split("\n");
        return lines.length == 0 ? "" : lines[lines.length - 1];
    }

    private static String head(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(0, Math.min(40, lines.size())));
        } catch (IOException e) {
            return log + ": " + e;
        }
    }
}
