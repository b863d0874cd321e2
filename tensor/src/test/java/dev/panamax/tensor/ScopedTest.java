package dev.panamax.tensor;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/** Runs each test in a {@link TensorScope} of its own, so what it makes is freed when it ends. */
public abstract class ScopedTest {
    private TensorScope scope;

    /** For the test classes that extend it. */
    protected ScopedTest() {}

    @BeforeEach
    final void openTensorScope() {
        scope = TensorScope.open();
    }

    @AfterEach
    final void closeTensorScope() {
        scope.close();
    }
}
