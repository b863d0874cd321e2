package dev.panamax.tensor;

import dev.panamax.tensor.spi.Backend;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * A training or generation step recorded once and replayed with new inputs, with no per-op Java
 * work on replay (PyTorch's CUDA graphs and tinygrad's {@code TinyJit} are the model): on the
 * {@code cpu} backend a replay is one native crossing that runs every kernel of the step.
 *
 * <pre>{@code
 * try (StepCapture step = StepCapture.of(in -> {
 *         opt.zeroGrad();
 *         Tensor loss = Loss.crossEntropy(model.forward(in[0]), in[1]);
 *         loss.backward();
 *         Gradients.clipByGlobalNorm(model.parameters(), 1.0);
 *         opt.step();
 *         return new Tensor[] {loss};
 *     })) {
 *     for (int i = 0; i < steps; i++) {
 *         Tensor loss = step.run(xBatch, yBatch)[0];     // inputs copied in, one crossing
 *         if (i % 100 == 0) System.out.println(loss.item());
 *     }
 * }
 * }</pre>
 *
 * <b>How it runs.</b> Steps are told apart by their inputs' <em>signature</em>: the backend, and
 * each input's shape and dtype. The first {@link #run} of a signature runs the step eagerly (a
 * warm-up: gradients, optimizer moments and caches get made, by kernels that must not be replayed);
 * the second captures it ({@link Backend#beginCapture()}): the step's Java code runs once more,
 * while the backend records its kernels instead of running them, on inputs of the capture's own
 * (the <em>static inputs</em>); then that call and every later one copies its inputs into the static
 * inputs, runs the hooks registered during the capture ({@link #beforeEachRun}) and replays the
 * program. A new signature (a shape change) warms up and captures again; up to
 * {@value #MAX_PROGRAMS} programs are kept, the least recently used closed beyond that.
 *
 * <p><b>Outputs.</b> From the capture on, {@code run} returns the same output tensors every time
 * (the capture's own, as CUDA graphs' static outputs): each replay overwrites them, so read or copy
 * what you need before the next {@code run}, and do not close them; they are freed by
 * {@link #close()}. The warm-up call returns the step's own outputs, which the caller owns as usual.
 *
 * <p><b>What a captured step cannot do</b> (each is a {@link TensorException} at capture time,
 * naming what was refused; the capture is abandoned, its memory freed, and nothing of it ran):
 * read a value on the host ({@code item()}, {@code toFloatArray()}, anything that reads storage);
 * write values from Java into a tensor that existed before the step or that a kernel of the step
 * already used (a constant made inside the step, such as {@code Tensor.of(...)}, is fine: the
 * program keeps reading it); hold a kernel the backend cannot put into the program (on {@code cpu},
 * one without a native kernel: integer or f16 arithmetic). Java decisions made during the capture
 * (branches, loop counts, Python-style control flow) are frozen into the program, as are scalar
 * operands: a value that changes from step to step must be an input, or written before each run by
 * a {@link #beforeEachRun} hook, which is how {@code Adam} passes its learning rate and bias
 * corrections (its {@code LrSchedule}, applied outside the step, still takes effect).
 * After a refused capture the next run of that signature tries the capture again; the refused one
 * may have left gradients holding results that were never computed (parameters and optimizer state
 * are untouched, since none of its kernels ran). A program keeps using the tensors it captured:
 * one that replaces a tensor the step uses by another (restoring a checkpoint into new tensors,
 * moving a module) must be captured again, with a new {@code StepCapture}.
 *
 * <p>Every storage the program's kernels touch stays allocated (pinned) until the program closes,
 * even if the step or its caller frees the tensor: intermediates made during the capture are freed
 * by the capture's own scope and their blocks come back when the program closes. A program therefore
 * holds every intermediate of its step at once (eager steps reuse a freed block for the next
 * tensor; a program cannot, since each kernel's addresses are fixed): its memory is the sum of the
 * step's tensors, about what the step's autograd graph holds at its peak. A step captured on
 * one thread may be run from another, one thread at a time; the capture is not thread-safe.
 *
 * <p><b>Backends.</b> {@code cpu} captures (a replay is one core {@code Batch} run, one crossing);
 * {@code opencl} captures into one recorded command buffer that each replay submits whole. The
 * {@code reference} backend refuses the capture with a {@link TensorException} naming the backend:
 * run its steps eagerly.
 */
public final class StepCapture implements AutoCloseable {
    /** Programs (signatures) kept at most; the least recently used is closed beyond. */
    public static final int MAX_PROGRAMS = 8;

    /** The hooks of the step being captured on this thread, or null. */
    private static final ThreadLocal<List<Runnable>> CAPTURING = new ThreadLocal<>();

    /** A step: the step's input tensors in, its output tensors out. */
    @FunctionalInterface
    public interface Step {
        Tensor[] apply(Tensor[] inputs);
    }

    private final Step step;
    private final Map<StepSignature, CapturedStep> programs = new LinkedHashMap<>(16, 0.75f, true);
    private final Set<StepSignature> warmedUp = new HashSet<>();
    private boolean closed;

    private StepCapture(Step step) {
        this.step = step;
    }

    /** A capture of {@code step}, which returns the tensors a run gives back. */
    public static StepCapture of(Step step) {
        if (step == null) throw new IllegalArgumentException("StepCapture.of: step is null");
        return new StepCapture(step);
    }

    /** A capture of a step with one output ({@link #run} gives it back as element 0). */
    public static StepCapture ofTensor(Function<Tensor[], Tensor> step) {
        if (step == null) throw new IllegalArgumentException("StepCapture.ofTensor: step is null");
        return new StepCapture(in -> new Tensor[] {step.apply(in)});
    }

    /**
     * Runs the step on {@code inputs}: eagerly the first time for their signature, captured the
     * second (that call's results are the program's first run), replayed after.
     *
     * @return the step's outputs; from the capture on, the capture's own tensors, overwritten by each run
     * @throws TensorException for inputs on different backends, and at capture time for what a captured step cannot do
     */
    public Tensor[] run(Tensor... inputs) {
        if (closed) throw new IllegalStateException("StepCapture is closed");
        StepSignature signature = StepSignature.of(inputs);
        CapturedStep captured = programs.get(signature);
        if (captured == null) {
            if (!warmedUp.contains(signature)) { // a warm-up that failed is not one
                Tensor[] outputs = checkedOutputs(step.apply(inputs), signature.backend());
                warmedUp.add(signature);
                return outputs;
            }
            captured = CapturedStep.capture(this, signature, inputs);
            programs.put(signature, captured);
            evict();
        }
        return captured.run(inputs);
    }

    /** How many programs (signatures) are captured now. */
    public int programs() {
        return programs.size();
    }

    /**
     * Whether a step is being captured on this thread now: what a component that keeps state across
     * steps asks to know whether it must pass changing values through {@link #beforeEachRun}.
     */
    public static boolean isCapturing() {
        return CAPTURING.get() != null;
    }

    /**
     * Registers {@code hook} with the step being captured on this thread: it runs before every run
     * of the captured program (the capturing call's too), after the inputs were copied in, in the
     * order registered. What a stateful component (an optimizer's step count, a learning rate) does
     * to write the values that change from step to step into storage the program reads, with
     * {@link Backend#write}; O(1) Java work per component per run, never per kernel.
     *
     * @throws IllegalStateException when no step is being captured on this thread
     */
    public static void beforeEachRun(Runnable hook) {
        List<Runnable> hooks = CAPTURING.get();
        if (hooks == null) throw new IllegalStateException("StepCapture.beforeEachRun: no step is being captured on this thread");
        if (hook == null) throw new IllegalArgumentException("StepCapture.beforeEachRun: hook is null");
        hooks.add(hook);
    }

    /** Frees every program, its static inputs and outputs, and the storage it held. Idempotent. */
    @Override
    public void close() {
        if (closed) return;
        closed = true;
        RuntimeException failure = null;
        for (CapturedStep s : programs.values()) {
            try {
                s.close();
            } catch (RuntimeException e) {
                if (failure == null) failure = e;
                else failure.addSuppressed(e);
            }
        }
        programs.clear();
        if (failure != null) throw failure;
    }

    /** Runs {@code step} with this thread marked as capturing, hooks going to {@code hooks}. */
    Tensor[] capturing(List<Runnable> hooks, Tensor[] staticInputs) {
        if (CAPTURING.get() != null) throw new TensorException("capture", "a step is already being captured on this thread; captures do not nest");
        CAPTURING.set(hooks);
        try {
            return step.apply(staticInputs);
        } finally {
            CAPTURING.remove();
        }
    }

    private void evict() {
        Iterator<CapturedStep> it = programs.values().iterator();
        while (programs.size() > MAX_PROGRAMS && it.hasNext()) {
            CapturedStep oldest = it.next();
            it.remove();
            oldest.close();
        }
    }

    /** The step's outputs, checked: an array of live tensors on {@code backend}. */
    static Tensor[] checkedOutputs(Tensor[] outputs, Backend backend) {
        if (outputs == null) throw new IllegalArgumentException("StepCapture: the step returned null; expected an array of tensors");
        for (int i = 0; i < outputs.length; i++) {
            Tensor o = outputs[i];
            if (o == null) throw new IllegalArgumentException("StepCapture: output " + i + " of the step is null");
            if (o.isFreed()) throw new IllegalArgumentException("StepCapture: output " + i + " " + o.shape() + " of the step was already freed");
            if (backend != null && o.backend() != backend) {
                throw new TensorException("capture", "output " + i + " " + o.shape() + " lives on the " + o.backend().name()
                        + " backend, the inputs on " + backend.name() + "; expected one backend");
            }
        }
        return outputs;
    }

    /** What tells captured programs apart: the backend and each input's shape and dtype. */
    record StepSignature(Backend backend, List<Shape> shapes, List<DType> dtypes) {
        static StepSignature of(Tensor[] inputs) {
            if (inputs == null) throw new IllegalArgumentException("StepCapture.run: inputs is null");
            Backend backend = inputs.length == 0 ? Backends.current() : null;
            List<Shape> shapes = new ArrayList<>(inputs.length);
            List<DType> dtypes = new ArrayList<>(inputs.length);
            for (int i = 0; i < inputs.length; i++) {
                Tensor t = inputs[i];
                if (t == null) throw new IllegalArgumentException("StepCapture.run: input " + i + " is null");
                if (t.isFreed()) throw new IllegalArgumentException("StepCapture.run: input " + i + " " + t.shape() + " was already freed");
                if (backend == null) backend = t.backend();
                else if (t.backend() != backend) {
                    throw TensorException.of("capture", "input " + i + " lives on the " + t.backend().name() + " backend, input 0 on "
                            + backend.name() + "; expected every input on one backend", inputs[0], t);
                }
                shapes.add(t.shape());
                dtypes.add(t.dtype());
            }
            return new StepSignature(backend, List.copyOf(shapes), List.copyOf(dtypes));
        }
    }
}
