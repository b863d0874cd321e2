package dev.panamax.tensor.spi;

import java.util.StringJoiner;

/**
 * How messages name a {@link Kernel}: its family and op ({@code binary ADD}) and each operand's
 * dtype and shape, so a backend's failure (a kernel the device cannot compile, memory it cannot
 * allocate) names what was asked of it.
 */
public final class KernelText {
    private KernelText() {}

    /** The kernel's family and op: {@code binary ADD}, {@code matmul}, {@code adamStep}. */
    public static String name(Kernel kernel) {
        return switch (kernel) {
            case Kernel.Fill k -> "fill";
            case Kernel.Unary k -> "unary " + k.op();
            case Kernel.Binary k -> "binary " + k.op();
            case Kernel.BinaryScalar k -> "binary " + k.op() + " with a scalar";
            case Kernel.Where k -> "where";
            case Kernel.Reduce k -> "reduce " + k.op() + " over axis " + k.axis();
            case Kernel.MatMul k -> k.accumulate() ? "matmul (accumulating)" : "matmul";
            case Kernel.IndexSelect k -> "indexSelect";
            case Kernel.IndexAdd k -> "indexAdd";
            case Kernel.AdamStep k -> "adamStep";
            case Kernel.CrossEntropy k -> "crossEntropy";
            case Kernel.Softmax k -> "softmax";
            case Kernel.SoftmaxGrad k -> "softmaxGrad";
            case Kernel.LayerNorm k -> "layerNorm";
            case Kernel.LayerNormGrad k -> "layerNormGrad";
            case Kernel.MaxPool2d k -> "maxPool2d";
            case Kernel.MaxPool2dGrad k -> "maxPool2dGrad";
            case Kernel.BatchNorm k -> "batchNorm";
            case Kernel.BatchNormGrad k -> "batchNormGrad";
        };
    }

    /** {@code binary ADD [out: f32 (2, 3), a: f32 (2, 3), b: f32 (1, 3)]}. */
    public static String describe(Kernel kernel) {
        StringJoiner j = new StringJoiner(", ", " [", "]");
        switch (kernel) {
            case Kernel.Fill k -> add(j, "out", k.out());
            case Kernel.Unary k -> add(j, "out", k.out(), "in", k.in());
            case Kernel.Binary k -> add(j, "out", k.out(), "a", k.a(), "b", k.b());
            case Kernel.BinaryScalar k -> add(j, "out", k.out(), "a", k.a());
            case Kernel.Where k -> add(j, "out", k.out(), "cond", k.cond(), "a", k.a(), "b", k.b());
            case Kernel.Reduce k -> add(j, "out", k.out(), "in", k.in());
            case Kernel.MatMul k -> add(j, "out", k.out(), "a", k.a(), "b", k.b());
            case Kernel.IndexSelect k -> add(j, "out", k.out(), "in", k.in(), "index", k.index());
            case Kernel.IndexAdd k -> add(j, "out", k.out(), "index", k.index(), "src", k.src());
            case Kernel.AdamStep k -> add(j, "param", k.param(), "grad", k.grad());
            case Kernel.CrossEntropy k -> add(j, "logits", k.logits(), "labels", k.labels());
            case Kernel.Softmax k -> add(j, "out", k.out(), "in", k.in());
            case Kernel.SoftmaxGrad k -> add(j, "out", k.out(), "y", k.y(), "dy", k.dy());
            case Kernel.LayerNorm k -> add(j, "out", k.out(), "in", k.in(), "weight", k.weight(), "bias", k.bias());
            case Kernel.LayerNormGrad k -> add(j, "dx", k.dx(), "dy", k.dy(), "in", k.in(), "weight", k.weight());
            case Kernel.MaxPool2d k -> add(j, "out", k.out(), "indices", k.indices(), "in", k.in());
            case Kernel.MaxPool2dGrad k -> add(j, "dx", k.dx(), "dy", k.dy(), "indices", k.indices());
            case Kernel.BatchNorm k -> add(j, "out", k.out(), "in", k.in(), "weight", k.weight(), "bias", k.bias());
            case Kernel.BatchNormGrad k -> add(j, "dx", k.dx(), "dy", k.dy(), "in", k.in(), "weight", k.weight());
        }
        return name(kernel) + j;
    }

    private static void add(StringJoiner j, Object... namesAndOperands) {
        for (int i = 0; i < namesAndOperands.length; i += 2) {
            Operand o = (Operand) namesAndOperands[i + 1];
            if (o == null) continue;
            StringJoiner dims = new StringJoiner(", ", "(", o.rank() == 1 ? ",)" : ")");
            for (int d : o.shape()) dims.add(Integer.toString(d));
            j.add(namesAndOperands[i] + ": " + o.dtype().label() + " " + dims);
        }
    }
}
