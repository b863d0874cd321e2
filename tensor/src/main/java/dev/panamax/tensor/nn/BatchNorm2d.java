package dev.panamax.tensor.nn;

import dev.panamax.tensor.Autograd;
import dev.panamax.tensor.DType;
import dev.panamax.tensor.Tensor;
import dev.panamax.tensor.TensorException;
import dev.panamax.tensor.TensorScope;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Batch normalization over the channels of {@code (n, c, h, w)}, as PyTorch's {@code nn.BatchNorm2d}:
 * a learned scale (ones) and shift (zeros); in training mode (the default) the batch's statistics,
 * which also move the running ones; in evaluation mode ({@code setTraining(false)}) the running
 * ones. The running mean, variance and the count of batches seen are buffers: not trained, but saved
 * and moved with the model under PyTorch's names ({@code running_mean}, {@code running_var},
 * {@code num_batches_tracked}).
 *
 * <pre>{@code
 * var bn = new BatchNorm2d(16);
 * Tensor y = bn.forward(x);      // x (8, 16, 32, 32), normalized per channel
 * bn.setTraining(false);         // inference: the running statistics
 * }</pre>
 */
public final class BatchNorm2d implements Module {
    private final Tensor weight;
    private final Tensor bias;
    private final Tensor runningMean;
    private final Tensor runningVar;
    private final Tensor batchesTracked;
    private final double momentum;
    private final double eps;
    private boolean training = true;

    public BatchNorm2d(int channels) {
        this(channels, 1e-5, 0.1);
    }

    public BatchNorm2d(int channels, double eps, double momentum) {
        if (channels <= 0 || !(eps >= 0) || !(momentum >= 0 && momentum <= 1)) {
            throw new IllegalArgumentException("BatchNorm2d(" + channels + ", eps=" + eps + ", momentum=" + momentum
                    + "): expected positive channels, eps >= 0 and 0 <= momentum <= 1");
        }
        this.weight = Parameters.full(1, channels);
        this.bias = Parameters.full(0, channels);
        this.runningMean = TensorScope.unscoped(() -> Tensor.zeros(channels));
        this.runningVar = TensorScope.unscoped(() -> Tensor.ones(channels));
        this.batchesTracked = TensorScope.unscoped(() -> Tensor.zeros(DType.I64));
        this.eps = eps;
        this.momentum = momentum;
    }

    @Override
    public Tensor forward(Tensor input) {
        if (input.rank() != 4) {
            throw new TensorException("BatchNorm2d", "expected an input (n, c, h, w) [a: " + input.shape() + " " + input.dtype().label() + "]");
        }
        Tensor y = Tensor.batchNorm(input, runningMean, runningVar, weight, bias, training, momentum, eps);
        if (training) {
            try (var _ = Autograd.noGrad()) {
                batchesTracked.addInPlace(1L);
            }
        }
        return y;
    }

    @Override
    public void setTraining(boolean training) {
        this.training = training;
    }

    public Tensor runningMean() {
        return runningMean;
    }

    public Tensor runningVar() {
        return runningVar;
    }

    @Override
    public Map<String, Tensor> namedParameters() {
        Map<String, Tensor> m = new LinkedHashMap<>();
        m.put("weight", weight);
        m.put("bias", bias);
        return m;
    }

    @Override
    public Map<String, Tensor> namedBuffers() {
        Map<String, Tensor> m = new LinkedHashMap<>();
        m.put("running_mean", runningMean);
        m.put("running_var", runningVar);
        m.put("num_batches_tracked", batchesTracked);
        return m;
    }
}
