package dev.panamax.tensor.contract;

import dev.panamax.tensor.reference.ReferenceBackend;
import dev.panamax.tensor.spi.Backend;
import dev.panamax.tensor.spi.Kernel;

/**
 * The reference kernels, but declining the fused ones ({@link Kernel.AdamStep},
 * {@link Kernel.CrossEntropy}, {@link Kernel.Softmax}, {@link Kernel.SoftmaxGrad},
 * {@link Kernel.LayerNorm}, {@link Kernel.LayerNormGrad}, {@link Kernel.MaxPool2d},
 * {@link Kernel.MaxPool2dGrad}, {@link Kernel.BatchNorm}, {@link Kernel.BatchNormGrad}), and f16 matrix products when asked: the frontend must run the fused
 * kernels' decompositions, which the whole contract then checks against the fused reference, and
 * refuse the f16 product naming this backend.
 */
final class DecliningBackend implements Backend {
    static final String NAME = "declining-reference";
    private final ReferenceBackend kernels = new ReferenceBackend();
    private final boolean declinesHalfMatmul;

    DecliningBackend(boolean declinesHalfMatmul) {
        this.declinesHalfMatmul = declinesHalfMatmul;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public boolean supports(Kernel kernel) {
        return switch (kernel) {
            case Kernel.AdamStep k -> false;
            case Kernel.CrossEntropy k -> false;
            case Kernel.Softmax k -> false;
            case Kernel.SoftmaxGrad k -> false;
            case Kernel.LayerNorm k -> false;
            case Kernel.LayerNormGrad k -> false;
            case Kernel.MaxPool2d k -> false;
            case Kernel.MaxPool2dGrad k -> false;
            case Kernel.BatchNorm k -> false;
            case Kernel.BatchNormGrad k -> false;
            case Kernel.MatMul k -> !(declinesHalfMatmul && k.out().dtype() == dev.panamax.tensor.DType.F16);
            default -> true;
        };
    }

    @Override
    public void execute(Kernel kernel) {
        if (!supports(kernel)) throw new AssertionError("the frontend ran a declined kernel: " + kernel);
        kernels.execute(kernel);
    }

    @Override
    public void sync() {}
}
