package dev.panamax.tensor.contract;

import dev.panamax.tensor.Backends;
import dev.panamax.tensor.DType;
import dev.panamax.tensor.Tensor;
import dev.panamax.tensor.TensorException;
import dev.panamax.tensor.spi.Backend;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The contract over a backend that declines the fused kernels: their decompositions give what the
 * fused reference kernels give, values and gradients; a declined primitive is refused, named.
 */
class DecliningBackendContractTest extends BackendContract {
    private static final Backend DECLINING = new DecliningBackend(false);

    @Override
    protected Backend candidate() {
        return DECLINING;
    }

    @Test
    void aDeclinedPrimitiveIsRefusedWithTheBackendAndKernelNamed() {
        try (var _ = Backends.using(new DecliningBackend(true))) {
            Tensor a = Tensor.ones(2, 3).cast(DType.F16), b = Tensor.ones(3, 4).cast(DType.F16);
            var e = assertThrows(TensorException.class, () -> a.matmul(b));
            assertTrue(e.getMessage().contains(DecliningBackend.NAME) && e.getMessage().contains("matmul")
                    && e.getMessage().contains("f16") && e.getMessage().contains("a: f16 (1, 2, 3)"), e.getMessage());
        }
    }
}
