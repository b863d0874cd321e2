package dev.panamax.tensor.optim;

import dev.panamax.tensor.Autograd;
import dev.panamax.tensor.Backends;
import dev.panamax.tensor.StepCapture;
import dev.panamax.tensor.Tensor;
import dev.panamax.tensor.TensorException;
import dev.panamax.tensor.TensorScope;
import dev.panamax.tensor.spi.Kernel;

import java.lang.foreign.MemorySegment;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Adam (Kingma and Ba) with PyTorch's defaults (betas 0.9, 0.999, eps 1e-8) and bias correction;
 * {@code weightDecay} is added to the gradient (L2), or, with {@code decoupled} (AdamW), taken
 * from the parameter directly: {@code p -= lr * weightDecay * p}.
 *
 * <pre>{@code
 * var adam = new Adam(model.parameters(), 1e-3);
 * var adamW = Adam.w(model.parameters(), 1e-3, 0.01);
 * }</pre>
 */
public final class Adam extends Optimizer {
    private final double beta1, beta2, eps;
    private final boolean decoupled;
    private final Tensor[] m, v;
    /** Per group, the f32 {@code [lr, lr / c1, 1 / c2]} a captured step's kernels read; made by the first capture. */
    private Tensor[] stepScalars;
    private int t;

    public Adam(List<Tensor> parameters, double lr) {
        this(parameters, lr, 0.9, 0.999, 1e-8, 0, false);
    }

    public Adam(List<Tensor> parameters, double lr, double beta1, double beta2, double eps, double weightDecay, boolean decoupled) {
        this(new ParamGroup[] {ParamGroup.of(parameters)}, lr, beta1, beta2, eps, weightDecay, decoupled);
    }

    /**
     * Adam over parameter groups; a group without its own lr or weight decay takes {@code lr} and
     * {@code weightDecay} (betas, eps and {@code decoupled} hold for every group).
     */
    public static Adam withGroups(List<ParamGroup> groups, double lr, double beta1, double beta2, double eps, double weightDecay,
                                  boolean decoupled) {
        return new Adam(groups.toArray(ParamGroup[]::new), lr, beta1, beta2, eps, weightDecay, decoupled);
    }

    private Adam(ParamGroup[] groups, double lr, double beta1, double beta2, double eps, double weightDecay, boolean decoupled) {
        super(checked(groups, lr, beta1, beta2, eps, weightDecay), lr, weightDecay);
        this.beta1 = beta1;
        this.beta2 = beta2;
        this.eps = eps;
        this.decoupled = decoupled;
        this.m = new Tensor[this.parameters.size()];
        this.v = new Tensor[this.parameters.size()];
    }

    private static List<ParamGroup> checked(ParamGroup[] groups, double lr, double beta1, double beta2, double eps, double weightDecay) {
        if (!(lr > 0) || !(beta1 >= 0 && beta1 < 1) || !(beta2 >= 0 && beta2 < 1) || !(eps > 0) || weightDecay < 0) {
            throw new IllegalArgumentException("Adam(lr=" + lr + ", betas=(" + beta1 + ", " + beta2 + "), eps=" + eps + ", weightDecay="
                    + weightDecay + "): expected lr > 0, 0 <= beta < 1, eps > 0, weightDecay >= 0");
        }
        return java.util.Arrays.asList(groups);
    }

    /** AdamW: decoupled weight decay, PyTorch's {@code AdamW} defaults otherwise. */
    public static Adam w(List<Tensor> parameters, double lr, double weightDecay) {
        return new Adam(parameters, lr, 0.9, 0.999, 1e-8, weightDecay, true);
    }

    /**
     * Each parameter's whole update is one fused kernel ({@link Kernel.AdamStep}): it reads the
     * parameter, its gradient and both moments once and writes the three back, where the same
     * arithmetic as separate tensor ops makes about a dozen passes and as many temporaries.
     */
    @Override
    protected void update() {
        if (StepCapture.isCapturing()) {
            capturedUpdate();
            return;
        }
        t++;
        int i = 0;
        for (ParamGroup group : paramGroups()) {
            for (Tensor p : group.params()) update(i++, p, group.lr(), group.weightDecay());
        }
    }

    private void update(int i, Tensor p, double lr, double weightDecay) {
        Tensor g = p.grad();
        if (g == null) return;
        if (m[i] == null) {
            m[i] = newState(p);
            v[i] = newState(p);
        }
        if (p.isFreed() || g.isFreed() || m[i].isFreed() || v[i].isFreed()) {
            throw new IllegalStateException("Adam.step: parameter " + i + " " + p.shape()
                    + ", its gradient or its moments were already freed (closed parameter, or a closed optimizer)");
        }
        var fused = new Kernel.AdamStep(p.operand(), g.operand(), m[i].operand(), v[i].operand(), lr, beta1, beta2, eps,
                weightDecay, decoupled, t);
        if (p.backend().supports(fused)) p.backend().execute(fused);
        else decomposed(p, g, m[i], v[i], lr, weightDecay);
        p.storage().markModified();
        m[i].storage().markModified();
        v[i].storage().markModified();
    }

    /**
     * The update inside a captured step ({@link StepCapture}): each parameter's fused kernel reads
     * its lr and bias corrections from its group's step-scalars tensor, which a hook writes (after
     * counting the step) before every run of the program, so the replayed kernels see each step's
     * values, bit for bit what the eager update computes. The moments must exist already (the
     * capture's eager warm-up made them): made here, their zero fill would be replayed every step.
     */
    private void capturedUpdate() {
        List<ParamGroup> groups = paramGroups();
        if (stepScalars == null) stepScalars = new Tensor[groups.size()];
        boolean[] used = new boolean[groups.size()];
        int i = 0;
        for (int gi = 0; gi < groups.size(); gi++) {
            ParamGroup group = groups.get(gi);
            for (Tensor p : group.params()) {
                int index = i++;
                Tensor g = p.grad();
                if (g == null) continue;
                if (m[index] == null) {
                    throw new TensorException("capture", "Adam: parameter " + index + " " + p.shape() + " has no moments yet, and"
                            + " making them inside a captured step would zero them on every replay; run the step eagerly once first"
                            + " (StepCapture's first run of each signature does)");
                }
                if (p.isFreed() || g.isFreed() || m[index].isFreed() || v[index].isFreed()) {
                    throw new IllegalStateException("Adam.step: parameter " + index + " " + p.shape()
                            + ", its gradient or its moments were already freed (closed parameter, or a closed optimizer)");
                }
                Tensor scalars = stepScalars(gi, p);
                used[gi] = true;
                var fused = new Kernel.AdamStep(p.operand(), g.operand(), m[index].operand(), v[index].operand(), group.lr(), beta1, beta2,
                        eps, group.weightDecay(), decoupled, t + 1, scalars.operand());
                if (!p.backend().supports(fused)) {
                    throw new TensorException("capture", "Adam: the " + p.backend().name() + " backend declines the fused update, which a"
                            + " captured step needs (its lr and step count change every replay)");
                }
                p.backend().execute(fused);
                p.storage().markModified();
                m[index].storage().markModified();
                v[index].storage().markModified();
            }
        }
        Tensor[] scalars = stepScalars;
        StepCapture.beforeEachRun(() -> {
            t++;
            for (int gi = 0; gi < groups.size(); gi++) {
                if (!used[gi]) continue;
                Tensor s = scalars[gi];
                float[] values = Kernel.AdamStep.stepScalars(groups.get(gi).lr(), beta1, beta2, t);
                s.backend().write(s.storage(), 0, MemorySegment.ofArray(values));
            }
        });
    }

    /** Group {@code gi}'s step scalars on {@code p}'s backend, made (from Java, no kernel) when first needed. */
    private Tensor stepScalars(int gi, Tensor p) {
        Tensor s = stepScalars[gi];
        if (s == null || s.isFreed()) {
            try (var _ = Backends.using(p.backend())) {
                s = keepState(TensorScope.unscoped(() -> Tensor.of(new float[3], 3)));
            }
            stepScalars[gi] = s;
        }
        return s;
    }

    /**
     * The update of {@link Kernel.AdamStep} as separate tensor ops, for a backend that declines the
     * fused kernel: the same arithmetic, a dozen passes and their temporaries (freed at once).
     */
    private void decomposed(Tensor p, Tensor g, Tensor m, Tensor v, double lr, double weightDecay) {
        double c1 = 1 - Math.pow(beta1, t), c2 = 1 - Math.pow(beta2, t);
        try (var _ = Autograd.noGrad(); var _ = TensorScope.open()) {
            Tensor gi = g;
            if (decoupled) p.mulInPlace(1 - lr * weightDecay);
            else if (weightDecay != 0) gi = g.add(p.mul(weightDecay));
            m.mulInPlace(beta1).addInPlace(gi.mul(1 - beta1));
            v.mulInPlace(beta2).addInPlace(gi.mul(gi).mul(1 - beta2));
            p.subInPlace(m.mul(lr / c1).div(v.div(c2).sqrt().add(eps)));
        }
    }

    // ---------------------------------------------------------------- state for checkpoints

    private static final String EXP_AVG = "exp_avg", EXP_AVG_SQ = "exp_avg_sq";

    /** PyTorch's names: {@code state.<i>.exp_avg}, {@code state.<i>.exp_avg_sq}, {@code step}. */
    @Override
    public OptimizerState state() {
        Map<String, Tensor> tensors = new LinkedHashMap<>();
        for (int i = 0; i < parameters.size(); i++) {
            if (m[i] == null) continue;
            tensors.put(OptimizerState.tensorName(i, EXP_AVG), m[i]);
            tensors.put(OptimizerState.tensorName(i, EXP_AVG_SQ), v[i]);
        }
        Map<String, String> values = new LinkedHashMap<>();
        values.put("step", Integer.toString(t));
        for (int g = 0; g < paramGroups().size(); g++) {
            ParamGroup group = paramGroups().get(g);
            values.put("param_groups." + g + ".lr", Double.toString(group.lr()));
            values.put("param_groups." + g + ".betas", "[" + beta1 + ", " + beta2 + "]");
            values.put("param_groups." + g + ".eps", Double.toString(eps));
            values.put("param_groups." + g + ".weight_decay", Double.toString(group.weightDecay()));
            values.put("param_groups." + g + ".decoupled", Boolean.toString(decoupled));
        }
        return new OptimizerState(getClass().getSimpleName(), tensors, values);
    }

    @Override
    protected Set<String> stateTensorNames() {
        return Set.of(EXP_AVG, EXP_AVG_SQ);
    }

    /** The moments and the step count; the hyperparameters stay this optimizer's own. */
    @Override
    protected void restoreState(Map<Integer, Map<String, Tensor>> perParameter, Map<String, String> values, String source) {
        String step = values.get("step");
        int restoredStep;
        try {
            restoredStep = step == null ? -1 : Integer.parseInt(step);
        } catch (NumberFormatException e) {
            restoredStep = -1;
        }
        if (restoredStep < 0) {
            throw new IllegalArgumentException(source + ": Adam step is " + (step == null ? "missing" : "'" + step + "'")
                    + "; expected the number of steps taken (a non-negative integer)");
        }
        for (int i = 0; i < parameters.size(); i++) {
            Map<String, Tensor> saved = perParameter.get(i);
            if (saved == null) {
                if (m[i] != null) {
                    m[i].fill(0); // zero moments are what a parameter without state starts from
                    v[i].fill(0);
                }
                continue;
            }
            m[i] = restoredState(m[i], i, saved.get(EXP_AVG));
            v[i] = restoredState(v[i], i, saved.get(EXP_AVG_SQ));
        }
        t = restoredStep;
    }
}
