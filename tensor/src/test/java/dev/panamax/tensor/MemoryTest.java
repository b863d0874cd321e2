package dev.panamax.tensor;

import dev.panamax.core.memory.NativeMemory;
import org.junit.jupiter.api.Test;

import java.lang.ref.WeakReference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Scopes free a step's tensors and keep what is kept; backward lets go of the graph. */
class MemoryTest {
    @Test
    void scopeFreesIntermediatesAndKeepsWhatIsKept() {
        Tensor kept;
        Tensor intermediate;
        long before = NativeMemory.heldBytes();
        try (var scope = TensorScope.open()) {
            intermediate = Tensor.ones(100, 100).mul(3);
            kept = scope.keep(intermediate.sum());
            assertTrue(NativeMemory.heldBytes() >= before + 2 * 100 * 100 * 4);
        }
        assertTrue(intermediate.isFreed());
        assertFalse(kept.isFreed());
        assertEquals(30_000, kept.item());
        kept.close();
        assertEquals(before, NativeMemory.heldBytes());
    }

    @Test
    void keptTensorsMoveToTheEnclosingScope() {
        Tensor inner;
        try (var _ = TensorScope.open()) {
            try (var scope = TensorScope.open()) {
                inner = scope.keep(Tensor.ones(3));
            }
            assertFalse(inner.isFreed());
        }
        assertTrue(inner.isFreed());
    }

    @Test
    void runReturnsItsResultAndFreesTheRest() {
        Tensor[] seen = new Tensor[1];
        Tensor result = TensorScope.run(() -> {
            seen[0] = Tensor.arange(DType.F32, 0, 4, 1).exp();
            return seen[0].sum();
        });
        assertTrue(seen[0].isFreed());
        assertEquals(1 + Math.E + Math.exp(2) + Math.exp(3), result.item(), 1e-4);
        result.close();
    }

    @Test
    void gradientsOfLeavesOutliveTheStepScope() {
        Tensor w = Tensor.of(new float[] {1, 2, 3}).requiresGrad(true);
        for (int step = 0; step < 3; step++) {
            try (var _ = TensorScope.open()) {
                w.mul(w).sum().backward();
            }
        }
        assertArrayEquals(new float[] {6, 12, 18}, w.grad().toFloatArray(), "accumulated over three steps");
        w.close();
        assertTrue(w.isFreed());
        assertNull(w.grad());
    }

    @Test
    void backwardReleasesTheSavedTensors() {
        try (var _ = TensorScope.open()) {
            Tensor w = Tensor.ones(4).requiresGrad(true);
            Tensor hidden = w.mul(2).exp();
            WeakReference<Tensor> saved = new WeakReference<>(hidden.detach());
            Tensor loss = hidden.sum();
            WeakReference<Tensor> intermediate = new WeakReference<>(hidden);
            hidden = null;
            loss.backward();
            // the graph no longer reaches what exp saved
            assertTrue(loss.node.isReleased());
            for (int i = 0; i < 20 && (intermediate.get() != null || saved.get() != null); i++) System.gc();
            assertNull(intermediate.get(), "the intermediate is unreachable once backward released its node");
            assertNull(saved.get());
            assertArrayEquals(new float[] {2 * (float) Math.exp(2), 2 * (float) Math.exp(2), 2 * (float) Math.exp(2), 2 * (float) Math.exp(2)},
                    w.grad().toFloatArray(), 1e-4f);
            w.close();
        }
    }

    @Test
    void viewsShareTheirStorageAndItsLifetime() {
        try (var _ = TensorScope.open()) {
            Tensor base = Tensor.zeros(2, 3);
            Tensor view = base.t().slice(0, 1, 3);
            assertSame(base.storage(), view.storage());
            base.close();
            assertTrue(view.isFreed());
        }
    }

    @Test
    void optimizerStateBelongsToTheOptimizer() {
        Tensor w = Tensor.ones(3).requiresGrad(true);
        var adam = new dev.panamax.tensor.optim.Adam(java.util.List.of(w), 0.1);
        try (var _ = TensorScope.open()) {
            w.mul(w).sum().backward();
            adam.step();
        }
        try (var _ = TensorScope.open()) {
            adam.zeroGrad();
            w.mul(w).sum().backward();
            adam.step(); // its moments made in the first step's scope must still be alive
        }
        assertTrue(w.toFloatArray()[0] < 0.9f);
        adam.close();
        w.close();
    }
}
