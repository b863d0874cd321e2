package dev.panamax.tensor.opencl;

import dev.panamax.tensor.Backends;
import dev.panamax.tensor.Tensor;
import dev.panamax.tensor.TensorException;
import dev.panamax.tensor.TensorScope;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Indices are checked by the kernels that read them: an op with a bad index or label is refused at
 * the next read (a {@link TensorException} naming the op, the index and the bound), no memory out of
 * bounds is touched, and the backend goes on; a training step reads nothing back for its checks.
 */
class IndexChecksOnTheDeviceTest {
    private OpenClTensorBackend backend;
    private TensorScope scope;
    private Backends.Selection use;

    @BeforeEach
    void open() {
        DeviceChoice chosen = DeviceChoice.fromSettings();
        backend = new OpenClTensorBackend(chosen.device(), chosen.index());
        scope = TensorScope.open();
        use = Backends.using(backend);
    }

    @AfterEach
    void close() {
        use.close();
        scope.close();
        backend.close();
    }

    @Test
    void aLabelOutOfRangeIsRefusedAtTheNextRead() {
        Tensor logits = Tensor.zeros(4, 3);
        Tensor loss = Tensor.crossEntropy(logits, Tensor.of(new long[] {0, 1, 7, 2}));
        var e = assertThrows(TensorException.class, loss::item);
        assertTrue(e.getMessage().startsWith("crossEntropy: label 7 out of bounds; expected 0 <= label < 3"), e.getMessage());
        // reported once; the backend goes on
        assertEquals(Math.log(3), Tensor.crossEntropy(logits, Tensor.of(new long[] {0, 1, 2, 2})).item(), 1e-6);
    }

    @Test
    void anIndexOutOfRangeIsRefusedAndNothingOutOfBoundsIsTouched() {
        Tensor table = Tensor.of(new float[] {1, 2, 3, 4, 5, 6}, 3, 2);
        Tensor picked = table.indexSelect(0, Tensor.of(new long[] {2, -1, 0}));
        var e = assertThrows(TensorException.class, picked::toFloatArray);
        assertTrue(e.getMessage().startsWith("indexSelect: index -1 out of bounds; expected 0 <= index < 3"), e.getMessage());
        assertArrayEquals(new float[] {5, 6, 1, 2}, table.indexSelect(0, Tensor.of(new long[] {2, 0})).toFloatArray());
    }

    @Test
    void aTrainingStepReadsNothingBackForItsChecks() {
        Tensor x = Tensor.ones(8, 2);
        Tensor y = Tensor.of(new long[] {0, 1, 2, 0, 1, 2, 0, 1});
        Tensor w = Tensor.ones(2, 3).requiresGrad(true);
        long readsBefore = backend.counters().get("reads");
        Tensor loss = Tensor.crossEntropy(x.matmul(w), y);
        loss.backward();
        assertEquals(readsBefore, backend.counters().get("reads"), "a read inside the step: " + backend.counters());
        loss.item();
        assertEquals(readsBefore + 1, backend.counters().get("reads"));
        w.close();
    }
}
