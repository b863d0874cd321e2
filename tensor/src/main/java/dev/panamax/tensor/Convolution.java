package dev.panamax.tensor;

/**
 * PyTorch's {@code conv2d} as im2col: every window's elements gathered into columns
 * ({@link Window2d#patches}), then one (batched, for groups) matmul with the flattened weight.
 * Its gradients (input, weight, bias) follow from those of indexSelect, reshape and matmul, so
 * every backend runs it with the kernels it already has.
 */
final class Convolution {
    private Convolution() {}

    static Tensor conv2d(Tensor input, Tensor weight, Tensor bias, int[] stride, int[] padding, int[] dilation, int groups) {
        String op = "conv2d";
        if (bias == null) Ops.check(op, input, weight);
        else Ops.check(op, input, weight, bias);
        Tensor[] operands = bias == null ? new Tensor[] {input, weight} : new Tensor[] {input, weight, bias};
        Ops.floating(op, operands);
        Ops.sameDtype(op, operands);
        if (input.rank() == 3) {
            // unbatched (c, h, w), as PyTorch takes it
            return conv2d(input.unsqueeze(0), weight, bias, stride, padding, dilation, groups).squeeze(0);
        }
        if (input.rank() != 4 || weight.rank() != 4) {
            throw TensorException.of(op, "expected input (n, c, h, w) or (c, h, w) and weight (out, c / groups, kh, kw)", operands);
        }
        int n = input.dim(0), channels = input.dim(1), out = weight.dim(0);
        if (groups < 1 || channels % groups != 0 || out % groups != 0) {
            throw TensorException.of(op, "groups=" + groups + " with " + channels + " input and " + out
                    + " output channels; expected groups >= 1 dividing both", operands);
        }
        if (weight.dim(1) != channels / groups) {
            throw TensorException.of(op, "weight takes " + weight.dim(1) + " channels per group but the input has " + channels
                    + " channels in " + groups + " group(s); expected weight.dim(1) = " + channels / groups, operands);
        }
        if (bias != null && (bias.rank() != 1 || bias.dim(0) != out)) {
            throw TensorException.of(op, "bias must have shape (" + out + ",), one value per output channel", operands);
        }
        Window2d window = Window2d.of(op, input.dim(2), input.dim(3), new int[] {weight.dim(2), weight.dim(3)}, stride, padding,
                dilation, operands);
        int perGroup = channels / groups * window.kernelSize(), positions = window.outputSize();
        Tensor columns = window.patches(input, 0);
        Tensor y;
        if (groups == 1) {
            y = weight.reshape(out, perGroup).matmul(columns.reshape(n, perGroup, positions));
        } else {
            y = weight.reshape(groups, out / groups, perGroup).matmul(columns.reshape(n, groups, perGroup, positions));
        }
        y = y.reshape(n, out, window.outH(), window.outW());
        return bias == null ? y : y.add(bias.reshape(1, out, 1, 1));
    }
}
