package dev.panamax.tensor;

import dev.panamax.core.memory.NativeBuffer;
import dev.panamax.core.memory.NativeScope;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

/** A TensorScope takes the tensors made while it is open, and nothing else. */
class TensorScopeOwnershipTest {
    @Test
    void aTensorScopeTakesItsTensorsButNoOtherHandle() {
        Tensor made;
        Tensor unscoped;
        NativeBuffer other;
        try (TensorScope _ = TensorScope.open()) {
            made = Tensor.ones(4).mul(2);
            other = NativeBuffer.allocate(64);
            unscoped = TensorScope.unscoped(() -> Tensor.ones(4));
        }
        assertTrue(made.isFreed(), "a tensor made in the scope goes with it");
        assertFalse(other.isReleased(), "a handle made while the scope was open belongs to its maker");
        assertFalse(unscoped.isFreed(), "unscoped: nobody's but the GC's and whoever closes it");
        try (Tensor sum = unscoped.sum()) {
            assertEquals(4.0, sum.item(), 0.0, "readable after the scope");
        }
        other.close();
        unscoped.close();
    }

    @Test
    void scopesOpenedInsideUnscopedNestAndTheThreadsScopesComeBack() {
        Tensor outerTensor;
        Tensor innerTensor;
        try (TensorScope _ = TensorScope.open()) {
            innerTensor = TensorScope.unscoped(() -> {
                Tensor t;
                try (TensorScope _ = TensorScope.open()) {
                    t = Tensor.ones(2);
                }
                return t;
            });
            assertTrue(innerTensor.isFreed(), "the inner scope freed its own tensor");
            outerTensor = Tensor.ones(2);
        }
        assertTrue(outerTensor.isFreed(), "after unscoped, new tensors join the outer scope again");
        Tensor after = Tensor.ones(2);
        assertFalse(after.isFreed(), "no scope is left open on the thread");
        after.close();
    }

    @Test
    void aNativeScopeOpenInsideATensorScopeTakesNoTensor() {
        Tensor t;
        try (TensorScope _ = TensorScope.open()) {
            try (NativeScope natives = NativeScope.open()) {
                t = Tensor.ones(3);
                assertFalse(natives.holds(t.storage().handle()), "tensors join tensor scopes only");
            }
            assertFalse(t.isFreed());
        }
        assertTrue(t.isFreed());
    }
}
