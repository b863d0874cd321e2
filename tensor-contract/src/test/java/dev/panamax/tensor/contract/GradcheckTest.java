package dev.panamax.tensor.contract;

import dev.panamax.tensor.*;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.panamax.tensor.contract.Gradcheck.check;
import static dev.panamax.tensor.contract.Gradcheck.random;
import static dev.panamax.tensor.contract.Gradcheck.uniform;

/** Every differentiable op's gradient against finite differences. */
class GradcheckTest {
    @Test
    void unary() {
        check("neg", x -> x[0].neg(), random(1, 3, 4));
        check("exp", x -> x[0].exp(), random(2, 3, 4));
        check("log", x -> x[0].log(), uniform(3, 0.5, 2, 3, 4));
        check("sqrt", x -> x[0].sqrt(), uniform(4, 0.5, 2, 3, 4));
        check("abs", x -> x[0].abs(), uniform(5, 0.1, 1, 2, 5));
        check("relu", x -> x[0].relu(), uniform(6, 0.1, 1, 5));
        check("relu negative side", x -> x[0].relu(), uniform(7, -1, -0.1, 5));
        check("gelu", x -> x[0].gelu(), random(8, 3, 4));
        check("sigmoid", x -> x[0].sigmoid(), random(9, 3, 4));
        check("tanh", x -> x[0].tanh(), random(10, 3, 4));
        check("cast", x -> x[0].cast(DType.F16).cast(DType.F32).mul(x[0]), random(11, 4));
    }

    @Test
    void binaryWithBroadcasting() {
        check("add", x -> x[0].add(x[1]), random(1, 3, 4), random(2, 4));
        check("sub", x -> x[0].sub(x[1]), random(3, 3, 1), random(4, 1, 4));
        check("mul", x -> x[0].mul(x[1]), random(5, 2, 3, 4), random(6, 3, 1));
        check("div", x -> x[0].div(x[1]), random(7, 3, 4), uniform(8, 0.5, 2, 4));
        check("pow", x -> x[0].pow(x[1]), uniform(9, 0.5, 2, 3, 4), random(10, 3, 4));
        check("maximum", x -> x[0].maximum(x[1]), random(11, 3, 4), random(12, 3, 4));
        check("minimum", x -> x[0].minimum(x[1]), random(13, 3, 4), random(14, 4));
        check("scalars", x -> x[0].add(2).sub(0.5).mul(3).div(4), random(15, 5));
        check("pow scalar", x -> x[0].pow(3), random(16, 5));
        check("where", x -> Tensor.where(Tensor.of(new int[] {1, 0, 0, 1}), x[0], x[1]).exp(), random(18, 3, 4), random(19, 4));
    }

    @Test
    void reductions() {
        check("sum", x -> x[0].sum(), random(1, 3, 4));
        check("sum axis", x -> x[0].sum(1, false), random(2, 3, 4, 2));
        check("sum axes keepdim", x -> x[0].sum(new int[] {0, 2}, true), random(3, 3, 4, 2));
        check("mean", x -> x[0].mean(-1, true), random(4, 3, 4));
        check("max", x -> x[0].max(1, false), random(5, 3, 4));
        check("min", x -> x[0].min(0, true), random(6, 3, 4));
        check("max all", x -> x[0].max(), random(7, 3, 4));
    }

    @Test
    void matmul() {
        check("matmul", x -> x[0].matmul(x[1]), random(1, 3, 4), random(2, 4, 2));
        check("matmul transposed", x -> x[0].t().matmul(x[1]), random(3, 4, 3), random(4, 4, 2));
        check("matmul batched", x -> x[0].matmul(x[1]), random(5, 2, 3, 4), random(6, 2, 4, 2));
        check("matmul broadcast", x -> x[0].matmul(x[1]), random(7, 2, 3, 4), random(8, 4, 2));
        check("matmul vectors", x -> x[0].matmul(x[1]), random(9, 4), random(10, 4, 3));
        check("dot", x -> x[0].matmul(x[1]), random(11, 4), random(12, 4));
    }

    @Test
    void movement() {
        check("reshape", x -> x[0].reshape(4, 3).mul(x[0].reshape(4, 3)), random(1, 3, 4));
        check("permute", x -> x[0].permute(2, 0, 1).exp(), random(2, 2, 3, 4));
        check("slice", x -> x[0].slice(1, 1, 4, 2).exp(), random(3, 3, 5));
        check("select", x -> x[0].select(1, 2).exp(), random(4, 3, 5));
        check("unsqueeze squeeze", x -> x[0].unsqueeze(0).squeeze(0).tanh(), random(5, 3));
        check("expand", x -> x[0].expand(3, 4).mul(x[1]), random(6, 1, 4), random(7, 3, 4));
        check("contiguous", x -> x[0].t().contiguous().exp(), random(8, 3, 4));
        check("concat", x -> Tensor.concat(List.of(x[0], x[1]), 1).exp(), random(9, 2, 3), random(10, 2, 2));
        check("stack", x -> Tensor.stack(List.of(x[0], x[1]), 0).exp(), random(11, 2, 3), random(12, 2, 3));
        check("indexSelect", x -> x[0].indexSelect(0, Tensor.of(new long[] {2, 0, 2, 1})).exp(), random(13, 3, 2));
    }

    @Test
    void composites() {
        check("softmax", x -> x[0].softmax(1), random(1, 3, 4));
        check("logSoftmax", x -> x[0].logSoftmax(0), random(2, 3, 4));
        check("layerNorm", x -> x[0].layerNorm(x[1], x[2], 1e-5), random(3, 3, 5), random(4, 5), random(5, 5));
        check("crossEntropy", x -> Tensor.crossEntropy(x[0], Tensor.of(new long[] {2, 0, 1})), random(6, 3, 4));
        check("mse", x -> dev.panamax.tensor.nn.Loss.mse(x[0], x[1]), random(7, 3, 4), random(8, 3, 4));
        check("linear", x -> Tensor.linear(x[0], x[1], x[2]).tanh(), random(9, 4, 3), random(10, 2, 3), random(11, 2));
        check("relu", x -> x[0].relu().mul(x[0]), random(12, 3, 5));
    }
}
