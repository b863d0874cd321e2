package dev.panamax.opencl.misuse;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.util.stream.Stream;

/** Runs the {@link OwnershipCases} in child JVMs, as {@link MisuseSuiteTest} runs the handle cases. */
class OwnershipMisuseTest {
    @TestFactory
    Stream<DynamicTest> computeObjectsOutliveScopesAndInFlightWorkKeepsItsBuffers() {
        return OwnershipCases.all().stream().map(c -> DynamicTest.dynamicTest(c.name(), () -> MisuseSuiteTest.runAndCheck(c)));
    }

    @TestFactory
    Stream<DynamicTest> randomOwnershipSequencesEndWithoutACrashOrAWrongValue() {
        return OwnershipCases.randomSequences().stream().map(c -> DynamicTest.dynamicTest(c.name(), () -> MisuseSuiteTest.runAndCheck(c)));
    }
}
