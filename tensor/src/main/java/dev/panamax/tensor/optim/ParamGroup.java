package dev.panamax.tensor.optim;

import dev.panamax.tensor.Tensor;

import java.util.List;

/**
 * Parameters an optimizer updates with a learning rate and weight decay of their own, as an entry of
 * PyTorch's {@code param_groups}. A group made without a learning rate or weight decay takes the
 * optimizer's; both can be changed between steps ({@link LrSchedule} does, per group).
 *
 * <pre>{@code
 * var adam = Adam.withGroups(List.of(
 *         ParamGroup.of(backbone.parameters(), 1e-4),        // its own lr, the optimizer's decay
 *         ParamGroup.of(head.parameters())),                 // the optimizer's lr and decay
 *         1e-3, 0.9, 0.999, 1e-8, 0.01, true);
 * adam.paramGroups().get(1).setLr(5e-4);
 * }</pre>
 */
public final class ParamGroup {
    private final List<Tensor> params;
    private double lr;
    private double weightDecay;
    private double initialLr;
    private boolean claimed;

    private ParamGroup(List<Tensor> params, double lr, double weightDecay) {
        if (params == null) throw new IllegalArgumentException("ParamGroup: params is null");
        this.params = java.util.Collections.unmodifiableList(new java.util.ArrayList<>(params)); // nulls kept: the optimizer names them
        if (!Double.isNaN(lr)) checkLr("ParamGroup", lr);
        if (!Double.isNaN(weightDecay)) checkWeightDecay("ParamGroup", weightDecay);
        this.lr = lr;
        this.weightDecay = weightDecay;
        this.initialLr = lr;
    }

    /** A group taking the optimizer's learning rate and weight decay. */
    public static ParamGroup of(List<Tensor> params) {
        return new ParamGroup(params, Double.NaN, Double.NaN);
    }

    /** A group with its own learning rate, the optimizer's weight decay. */
    public static ParamGroup of(List<Tensor> params, double lr) {
        return new ParamGroup(params, lr, Double.NaN);
    }

    /** A group with its own learning rate and weight decay. */
    public static ParamGroup of(List<Tensor> params, double lr, double weightDecay) {
        return new ParamGroup(params, lr, weightDecay);
    }

    public List<Tensor> params() {
        return params;
    }

    /** The learning rate the next step uses. */
    public double lr() {
        return lr;
    }

    /** Sets the learning rate of the next steps ({@code >= 0}, finite). */
    public void setLr(double lr) {
        checkLr("setLr", lr);
        this.lr = lr;
    }

    /** The learning rate the group started with (PyTorch's {@code initial_lr}): what a schedule scales. */
    public double initialLr() {
        return initialLr;
    }

    public double weightDecay() {
        return weightDecay;
    }

    /** Sets the weight decay of the next steps ({@code >= 0}, finite). */
    public void setWeightDecay(double weightDecay) {
        checkWeightDecay("setWeightDecay", weightDecay);
        this.weightDecay = weightDecay;
    }

    /** Joins an optimizer: what the group left open comes from the optimizer; a group joins one optimizer only. */
    void join(double defaultLr, double defaultWeightDecay, int index) {
        if (claimed) {
            throw new IllegalArgumentException("param group index=" + index + " already belongs to an optimizer; expected a group per optimizer");
        }
        claimed = true;
        if (Double.isNaN(lr)) {
            lr = defaultLr;
            initialLr = defaultLr;
        }
        if (Double.isNaN(weightDecay)) weightDecay = defaultWeightDecay;
    }

    static void checkLr(String what, double lr) {
        if (!(lr >= 0) || Double.isInfinite(lr)) throw new IllegalArgumentException(what + ": lr=" + lr + "; expected a finite lr >= 0");
    }

    static void checkWeightDecay(String what, double weightDecay) {
        if (!(weightDecay >= 0) || Double.isInfinite(weightDecay)) {
            throw new IllegalArgumentException(what + ": weightDecay=" + weightDecay + "; expected a finite weightDecay >= 0");
        }
    }

    @Override
    public String toString() {
        return "ParamGroup[params=" + params.size() + ", lr=" + lr + ", weightDecay=" + weightDecay + "]";
    }
}
