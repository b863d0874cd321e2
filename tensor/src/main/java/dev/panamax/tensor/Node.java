package dev.panamax.tensor;

/**
 * One recorded op of the autograd graph: its inputs and the function that turns the gradient of its
 * output into gradients of its inputs (a closure holding what it saved). Released as soon as
 * backward has used it, so the saved tensors can be freed.
 */
final class Node {
    /** Gradients of the inputs from the gradient of the output; {@code need[i]} says which are wanted. */
    @FunctionalInterface
    interface Backward {
        Tensor[] apply(Tensor gradOutput, boolean[] need);
    }

    final String op;
    private Tensor[] inputs;
    private Backward backward;

    Node(String op, Tensor[] inputs, Backward backward) {
        this.op = op;
        this.inputs = inputs;
        this.backward = backward;
    }

    Tensor[] inputs() {
        if (inputs == null) throw released();
        return inputs;
    }

    Backward backward() {
        if (backward == null) throw released();
        return backward;
    }

    boolean isReleased() {
        return inputs == null;
    }

    void release() {
        inputs = null;
        backward = null;
    }

    private IllegalStateException released() {
        return new IllegalStateException("backward through the graph a second time: the saved tensors of '" + op
                + "' were released after the first backward; compute the forward pass again");
    }
}
