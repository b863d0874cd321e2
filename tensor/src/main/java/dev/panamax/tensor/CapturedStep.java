package dev.panamax.tensor;

import dev.panamax.tensor.spi.Backend;
import dev.panamax.tensor.spi.Capture;
import dev.panamax.tensor.spi.CapturedProgram;

import java.util.ArrayList;
import java.util.List;

/**
 * One signature's captured step ({@link StepCapture}): the static inputs the program reads, the
 * static outputs it writes, the hooks registered while capturing, and the backend's program. A run
 * copies the inputs in, runs the hooks and replays the program.
 */
final class CapturedStep implements AutoCloseable {
    private final Backend backend;
    private final Tensor[] inputs;
    private final Tensor[] outputs;
    private final List<Runnable> hooks;
    private final CapturedProgram program;

    private CapturedStep(Backend backend, Tensor[] inputs, Tensor[] outputs, List<Runnable> hooks, CapturedProgram program) {
        this.backend = backend;
        this.inputs = inputs;
        this.outputs = outputs;
        this.hooks = hooks;
        this.program = program;
    }

    /**
     * Captures {@code capture}'s step for {@code signature}: static inputs made (holding
     * {@code first}'s values), the step run once more with the backend recording, its outputs
     * copied into static outputs by the last kernels of the program. Anything the step made is
     * freed by a scope of the capture's own when the step returns (the program keeps the blocks its
     * kernels use until it closes). On failure nothing of the step has run and the capture's memory is freed.
     */
    static CapturedStep capture(StepCapture capture, StepCapture.StepSignature signature, Tensor[] first) {
        Backend backend = signature.backend();
        List<Tensor> made = new ArrayList<>();
        try {
            Tensor[] statics = new Tensor[first.length];
            for (int i = 0; i < first.length; i++) {
                Shape shape = signature.shapes().get(i);
                DType dtype = signature.dtypes().get(i);
                statics[i] = TensorScope.unscoped(() -> Tensor.empty(backend, dtype, shape));
                made.add(statics[i]);
            }
            backend.sync(); // everything before the step runs before it, not in its program
            List<Runnable> hooks = new ArrayList<>();
            Capture recording = backend.beginCapture();
            Tensor[] outputs;
            try {
                outputs = TensorScope.unscoped(() -> record(capture, hooks, statics, backend, made));
            } catch (Throwable t) {
                recording.abandon();
                throw t;
            }
            CapturedProgram program = recording.finish();
            made.clear();
            return new CapturedStep(backend, statics, outputs, hooks, program);
        } finally {
            for (Tensor t : made) t.close();
        }
    }

    /** The step under a scope of the capture's own; its outputs copied into static ones, unscoped. */
    private static Tensor[] record(StepCapture capture, List<Runnable> hooks, Tensor[] statics, Backend backend, List<Tensor> made) {
        try (TensorScope _ = TensorScope.open()) {
            Tensor[] produced = StepCapture.checkedOutputs(capture.capturing(hooks, statics), backend);
            Tensor[] outputs = new Tensor[produced.length];
            try (var _ = Autograd.noGrad()) {
                for (int i = 0; i < produced.length; i++) {
                    Tensor p = produced[i];
                    outputs[i] = TensorScope.unscoped(() -> Tensor.empty(backend, p.dtype(), p.shape()));
                    made.add(outputs[i]);
                    outputs[i].copyFrom(p);
                }
            }
            return outputs;
        }
    }

    /** Copies {@code given} into the static inputs, runs the hooks, replays the program. */
    Tensor[] run(Tensor[] given) {
        for (int i = 0; i < given.length; i++) copyIn(given[i], inputs[i]);
        for (Runnable hook : hooks) hook.run();
        program.replay();
        return outputs.clone();
    }

    private void copyIn(Tensor from, Tensor to) {
        if (from.storage == to.storage) return;
        long bytes = to.elements() * to.dtype().byteSize();
        if (from.isContiguous()) {
            backend.copy(from.storage, from.offset * from.dtype().byteSize(), to.storage, 0, bytes);
            return;
        }
        try (var _ = Autograd.noGrad(); var _ = TensorScope.open()) {
            Tensor dense = from.contiguous();
            backend.copy(dense.storage, dense.offset * dense.dtype().byteSize(), to.storage, 0, bytes);
        }
    }

    /** Frees the static tensors, then the program (which frees the blocks they and its kernels held). */
    @Override
    public void close() {
        try {
            for (Tensor t : inputs) t.close();
            for (Tensor t : outputs) t.close();
        } finally {
            program.close();
        }
    }
}
