package dev.panamax.cli.demo;

import dev.panamax.tensor.Autograd;
import dev.panamax.tensor.StepCapture;
import dev.panamax.tensor.Tensor;
import dev.panamax.tensor.TensorScope;
import dev.panamax.tensor.io.RestorableRandom;
import dev.panamax.tensor.optim.Adam;
import dev.panamax.tensor.optim.Gradients;
import dev.panamax.tensor.optim.LrSchedule;

/**
 * Trains a {@link CharLanguageModel} on random windows of a text with AdamW (one {@link TensorScope}
 * per step; the step captured once and replayed, {@link StepCapture}, unless the settings ask for
 * eager steps), and measures its loss on whole windows of a text.
 */
final class TextTrainer {
    /** Windows the loss is measured on, at most (spread over the text). */
    static final int EVALUATION_WINDOWS = 48;
    /** AdamW's decoupled weight decay. */
    static final double WEIGHT_DECAY = 0.01;

    private TextTrainer() {}

    /** What a training run measured: the loss of each step and the training time. */
    record Result(double[] losses, double trainingSeconds, long tokens) {
        double tokensPerSecond() {
            return trainingSeconds > 0 ? tokens / trainingSeconds : Double.NaN;
        }
    }

    /** Called after each step (its number counted from the run's first, the loss) and when a sample is due. */
    interface Listener {
        void stepDone(long step, double loss, double tokensPerSecond);

        void sampleDue(long step);
    }

    /**
     * Runs {@code s.steps()} steps from {@code firstStep} (0, or where a checkpoint left off); the
     * batches are drawn from {@code rng}.
     */
    static Result train(CharLanguageModel model, Adam adam, int[] text, TextTrainingSettings s, long firstStep, RestorableRandom rng,
                        Listener listener) {
        int context = model.config().contextLength(), batch = s.batchSize();
        long last = firstStep + s.steps();
        LrSchedule schedule = new LrSchedule.WarmupCosine(Math.min(s.warmupSteps(), Math.max(0, last - 1)), Math.max(1, last),
                s.learningRate() / 10);
        double[] losses = new double[s.steps()];
        long nanos = 0, tokens = 0;
        long[] inputs = new long[batch * context], targets = new long[batch * context];
        try (StepCapture capture = StepCapture.ofTensor(in -> step(model, adam, in[0], in[1]))) {
            for (long step = firstStep + 1; step <= last; step++) {
            for (int b = 0; b < batch; b++) {
                int start = rng.nextInt(text.length - context);
                for (int t = 0; t < context; t++) {
                    inputs[b * context + t] = text[start + t];
                    targets[b * context + t] = text[start + t + 1];
                }
            }
                long t0 = System.nanoTime();
                double loss;
                try (var _ = TensorScope.open()) {
                    schedule.apply(adam, step - 1); // a captured AdamW reads its learning rate at each replay
                    Tensor x = Tensor.of(inputs, batch, context), y = Tensor.of(targets, batch, context);
                    loss = (s.eager() ? step(model, adam, x, y) : capture.run(x, y)[0]).item();
                }
                nanos += System.nanoTime() - t0;
                tokens += (long) batch * context;
                losses[(int) (step - firstStep - 1)] = loss;
                listener.stepDone(step, loss, tokens * 1e9 / nanos);
                if (s.sampleEvery() > 0 && step % s.sampleEvery() == 0 && step < last) listener.sampleDue(step);
            }
        }
        adam.zeroGrad();
        return new Result(losses, nanos / 1e9, tokens);
    }

    /** One step on a batch, in the caller's scope: the loss, its gradients clipped to a global norm of 1, AdamW; returns the loss. */
    private static Tensor step(CharLanguageModel model, Adam adam, Tensor inputs, Tensor targets) {
        Tensor loss = model.loss(inputs, targets);
        adam.zeroGrad();
        loss.backward();
        Gradients.clipByGlobalNorm(model.parameters(), 1.0);
        adam.step();
        return loss;
    }

    /**
     * Mean cross-entropy in nats per character of predicting each character of {@code text} from
     * the ones before it, over up to {@link #EVALUATION_WINDOWS} non-overlapping windows spread over
     * the text; NaN for a text shorter than a window.
     */
    static double loss(CharLanguageModel model, int[] text, int batch) {
        int context = model.config().contextLength();
        int available = (text.length - 1) / context;
        int windows = Math.min(available, EVALUATION_WINDOWS);
        if (windows == 0) return Double.NaN;
        double total = 0;
        try (var _ = Autograd.noGrad()) {
            for (int first = 0; first < windows; first += batch) {
                int n = Math.min(batch, windows - first);
                long[] inputs = new long[n * context], targets = new long[n * context];
                for (int b = 0; b < n; b++) {
                    int start = (int) ((long) (first + b) * available / windows) * context;
                    for (int t = 0; t < context; t++) {
                        inputs[b * context + t] = text[start + t];
                        targets[b * context + t] = text[start + t + 1];
                    }
                }
                try (var _ = TensorScope.open()) {
                    total += model.loss(Tensor.of(inputs, n, context), Tensor.of(targets, n, context)).item() * n;
                }
            }
        }
        return total / windows;
    }

    /** A listener that ignores everything. */
    static final Listener NONE = new Listener() {
        @Override
        public void stepDone(long step, double loss, double tokensPerSecond) {}

        @Override
        public void sampleDue(long step) {}
    };
}
