package dev.panamax.core.call;

import java.nio.file.Path;
import java.util.stream.Stream;

/** The C fixtures of these tests (core/src/test/c), built into libpanamax_fixtures.so. */
public final class Fixtures {
    private Fixtures() {}

    public static Path path() {
        String dir = System.getProperty("panamax.test.native");
        if (dir == null) throw new IllegalStateException("system property panamax.test.native is not set (run the tests through Maven)");
        return Path.of(dir, "libpanamax_fixtures.so");
    }

    public static NativeLibrary library() {
        return NativeLibrary.load(path());
    }

    /** The tiers whose functions are linked as direct calls (every tier but BATCHED). */
    public static Stream<Tier> directTiers() {
        return Stream.of(Tier.values()).filter(Tier::callsDirectly);
    }
}
