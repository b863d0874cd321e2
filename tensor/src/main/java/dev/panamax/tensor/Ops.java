package dev.panamax.tensor;

import dev.panamax.tensor.spi.Kernel;
import dev.panamax.tensor.spi.Operand;

/** Checks every op makes first, and the recording of autograd nodes. */
final class Ops {
    private Ops() {}

    /** Operands must be non-null, alive and on one backend. */
    static void check(String op, Tensor... operands) {
        for (Tensor t : operands) {
            if (t == null) throw TensorException.of(op, "an operand is null", operands);
            if (t.storage.isFreed()) {
                throw TensorException.of(op, "an operand's storage was already freed (closed, or its TensorScope ended)", operands);
            }
        }
        for (Tensor t : operands) {
            if (t.backend != operands[0].backend) {
                throw TensorException.of(op, "operands live on different devices (" + where(operands[0]) + " and " + where(t)
                        + "); expected one: move one with tensor.to(\"" + operands[0].backend.name() + "\")", operands);
            }
        }
    }

    /** {@code cpu, host memory} or {@code opencl, opencl:0 (NVIDIA H200)}: a tensor's backend and device. */
    static String where(Tensor t) {
        return t.backend.name() + " on " + t.storage.device();
    }

    static void floating(String op, Tensor... operands) {
        for (Tensor t : operands) {
            if (!t.dtype().isFloating()) throw TensorException.of(op, "expected a floating dtype (f32 or f16)", operands);
        }
    }

    static void sameDtype(String op, Tensor... operands) {
        for (Tensor t : operands) {
            if (t.dtype() != operands[0].dtype()) {
                throw TensorException.of(op, "dtypes differ; expected one dtype (convert with cast)", operands);
            }
        }
    }

    /** Whether the graph should record an op over {@code inputs}. */
    static boolean recording(Tensor... inputs) {
        if (!Autograd.isEnabled()) return false;
        for (Tensor t : inputs) if (t != null && t.requiresGrad()) return true;
        return false;
    }

    /**
     * Runs {@code kernel}, whose result is {@code made}: a tensor the op made for it and handed to no
     * one yet. When the backend refuses the kernel (an input freed by another thread meanwhile),
     * {@code made} is freed before the failure goes on, not left to the GC.
     */
    static void execute(Tensor made, Kernel kernel) {
        execute(made, null, kernel);
    }

    /** As {@link #execute(Tensor, Kernel)}, for a kernel with two results made for it ({@code alsoMade} may be null). */
    static void execute(Tensor made, Tensor alsoMade, Kernel kernel) {
        try {
            run(made.backend, kernel);
        } catch (RuntimeException | Error e) {
            free(e, made, alsoMade);
            throw e;
        }
    }

    /**
     * Runs {@code kernel} on {@code backend}, or refuses it, naming the backend, its device and the
     * kernel, when the backend declines it (fused kernels are decomposed before they get here).
     */
    static void run(dev.panamax.tensor.spi.Backend backend, Kernel kernel) {
        if (!backend.supports(kernel)) {
            throw new TensorException(dev.panamax.tensor.spi.KernelText.name(kernel), "the " + backend.name() + " backend on " + backend.device()
                    + " does not run " + dev.panamax.tensor.spi.KernelText.describe(kernel) + "; run it on another backend (tensor.to(\"cpu\"))");
        }
        backend.execute(kernel);
    }

    /** {@code t}'s operand, or null for an absent optional operand (a norm's weight or bias). */
    static Operand operandOrNull(Tensor t) {
        return t == null ? null : t.operand();
    }

    /**
     * The gradients of a normalization with optional affine parameters, in its inputs' order: the
     * input's {@code dx} (reshaped to {@code inputShape}), then {@code dw} when it has a weight and
     * {@code db} when it has a bias.
     */
    static Tensor[] normGradients(Tensor dx, Shape inputShape, Tensor dw, boolean hasWeight, Tensor db, boolean hasBias) {
        Tensor[] grads = new Tensor[1 + (hasWeight ? 1 : 0) + (hasBias ? 1 : 0)];
        grads[0] = dx.reshape(inputShape.raw());
        if (hasWeight) grads[1] = dw;
        if (hasBias) grads[hasWeight ? 2 : 1] = db;
        return grads;
    }

    /** Frees tensors an op made and will not return because it failed with {@code failure}. */
    static void free(Throwable failure, Tensor... made) {
        for (Tensor t : made) {
            if (t == null) continue;
            try {
                t.close();
            } catch (RuntimeException e) {
                failure.addSuppressed(e);
            }
        }
    }

    private static final Tensor[] NOTHING = {};

    /**
     * Records {@code out} as the result of {@code op} over {@code inputs} when any needs a gradient;
     * its backward reads no tensor's values (only the gradient).
     */
    static Tensor track(Tensor out, String op, Node.Backward backward, Tensor... inputs) {
        return trackSaving(out, op, NOTHING, backward, inputs);
    }

    /** As {@link #track}, for a backward that reads the values of {@code saved}. */
    static Tensor trackSaving(Tensor out, String op, Tensor[] saved, Node.Backward backward, Tensor... inputs) {
        if (recording(inputs)) out.attach(new Node(op, inputs, saved, backward));
        return out;
    }
}
