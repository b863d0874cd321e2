package dev.panamax.tensor.optim;

import dev.panamax.tensor.StepCapture;
import dev.panamax.tensor.Tensor;
import dev.panamax.tensor.TensorException;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Stochastic gradient descent with PyTorch's semantics: {@code g += weightDecay * p};
 * {@code buf = momentum * buf + g} (the first step sets {@code buf = g}); {@code p -= lr * buf},
 * with each {@link ParamGroup}'s own lr and weight decay.
 *
 * <pre>{@code
 * var sgd = new SGD(model.parameters(), 0.1, 0.9, 1e-4);
 * var tuned = SGD.withGroups(List.of(ParamGroup.of(body, 0.01), ParamGroup.of(head)), 0.1, 0.9, 0);
 * }</pre>
 */
public final class SGD extends Optimizer {
    private final double momentum;
    private final Tensor[] buffers;

    public SGD(List<Tensor> parameters, double lr) {
        this(parameters, lr, 0, 0);
    }

    public SGD(List<Tensor> parameters, double lr, double momentum, double weightDecay) {
        this(new ParamGroup[] {ParamGroup.of(parameters)}, lr, momentum, weightDecay);
    }

    /** SGD over parameter groups; a group without its own lr or weight decay takes {@code lr} and {@code weightDecay}. */
    public static SGD withGroups(List<ParamGroup> groups, double lr, double momentum, double weightDecay) {
        return new SGD(groups.toArray(ParamGroup[]::new), lr, momentum, weightDecay);
    }

    private SGD(ParamGroup[] groups, double lr, double momentum, double weightDecay) {
        super(checked(groups, lr, momentum, weightDecay), lr, weightDecay);
        this.momentum = momentum;
        this.buffers = new Tensor[this.parameters.size()];
    }

    private static List<ParamGroup> checked(ParamGroup[] groups, double lr, double momentum, double weightDecay) {
        if (!(lr > 0) || momentum < 0 || weightDecay < 0) {
            throw new IllegalArgumentException("SGD(lr=" + lr + ", momentum=" + momentum + ", weightDecay=" + weightDecay
                    + "): expected lr > 0, momentum >= 0, weightDecay >= 0");
        }
        return java.util.Arrays.asList(groups);
    }

    @Override
    protected void update() {
        if (StepCapture.isCapturing()) frozenUnderCapture();
        int i = 0;
        for (ParamGroup group : paramGroups()) {
            double lr = group.lr(), weightDecay = group.weightDecay();
            for (Tensor p : group.params()) {
                int index = i++;
                Tensor g = p.grad();
                if (g == null) continue;
                if (weightDecay != 0) g = g.add(p.mul(weightDecay));
                if (momentum != 0) {
                    if (buffers[index] == null) buffers[index] = newState(p).copyFrom(g);
                    else buffers[index].mulInPlace(momentum).addInPlace(g);
                    g = buffers[index];
                }
                p.subInPlace(g.mul(lr));
            }
        }
    }

    // ---------------------------------------------------------------- state for checkpoints

    private static final String MOMENTUM_BUFFER = "momentum_buffer";

    /** PyTorch's names: {@code state.<i>.momentum_buffer} for each parameter that has one. */
    @Override
    public OptimizerState state() {
        Map<String, Tensor> tensors = new LinkedHashMap<>();
        for (int i = 0; i < parameters.size(); i++) {
            if (buffers[i] != null) tensors.put(OptimizerState.tensorName(i, MOMENTUM_BUFFER), buffers[i]);
        }
        Map<String, String> values = new LinkedHashMap<>();
        for (int g = 0; g < paramGroups().size(); g++) {
            ParamGroup group = paramGroups().get(g);
            values.put("param_groups." + g + ".lr", Double.toString(group.lr()));
            values.put("param_groups." + g + ".momentum", Double.toString(momentum));
            values.put("param_groups." + g + ".weight_decay", Double.toString(group.weightDecay()));
        }
        return new OptimizerState(getClass().getSimpleName(), tensors, values);
    }

    @Override
    protected Set<String> stateTensorNames() {
        return Set.of(MOMENTUM_BUFFER);
    }

    /**
     * The momentum buffers. A parameter without one in {@code perParameter} starts afresh (its
     * next step sets the buffer to the gradient); its old buffer is freed.
     */
    @Override
    protected void restoreState(Map<Integer, Map<String, Tensor>> perParameter, Map<String, String> values, String source) {
        for (int i = 0; i < parameters.size(); i++) {
            Map<String, Tensor> saved = perParameter.get(i);
            if (saved != null) {
                buffers[i] = restoredState(buffers[i], i, saved.get(MOMENTUM_BUFFER));
            } else if (buffers[i] != null) {
                buffers[i].close();
                buffers[i] = null;
            }
        }
    }

    /**
     * Inside a captured step ({@link StepCapture}) the update's lr and weight decay are scalar
     * operands of its kernels, frozen into the program; a hook refuses a replay once a group's lr or
     * weight decay changed (an {@code LrSchedule}), rather than letting it apply the old values.
     */
    private void frozenUnderCapture() {
        List<ParamGroup> groups = paramGroups();
        double[] lrs = new double[groups.size()], decays = new double[groups.size()];
        for (int g = 0; g < lrs.length; g++) {
            lrs[g] = groups.get(g).lr();
            decays[g] = groups.get(g).weightDecay();
        }
        StepCapture.beforeEachRun(() -> {
            for (int g = 0; g < lrs.length; g++) {
                ParamGroup group = groups.get(g);
                if (group.lr() != lrs[g] || group.weightDecay() != decays[g]) {
                    throw new TensorException("replay", "SGD: group " + g + " has lr=" + group.lr() + ", weightDecay="
                            + group.weightDecay() + ", captured with lr=" + lrs[g] + ", weightDecay=" + decays[g]
                            + "; a captured SGD step holds them as constants: capture the step again (a new StepCapture)"
                            + " or keep them fixed");
                }
            }
        });
    }
}
