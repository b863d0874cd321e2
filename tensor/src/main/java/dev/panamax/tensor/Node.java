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
    private Tensor[] saved;
    private int[] versions;

    /** {@code saved}: the tensors whose values {@code backward} reads (checked unchanged when it runs). */
    Node(String op, Tensor[] inputs, Tensor[] saved, Backward backward) {
        this.op = op;
        this.inputs = inputs;
        this.backward = backward;
        this.saved = saved;
        this.versions = new int[saved.length];
        for (int i = 0; i < saved.length; i++) versions[i] = saved[i].storage.version();
    }

    /** Fails when a saved tensor was updated in place after this op used it. */
    void checkSaved() {
        for (int i = 0; i < saved.length; i++) {
            int now = saved[i].storage.version();
            if (now != versions[i]) {
                throw new IllegalStateException("backward of '" + op + "': a tensor it saved, " + saved[i].shape + " "
                        + saved[i].dtype().label() + ", was modified in place after '" + op + "' used it (version "
                        + versions[i] + ", now " + now + "); update it after backward, or update a copy");
            }
        }
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
        saved = null;
    }

    private IllegalStateException released() {
        return new IllegalStateException("backward through the graph a second time: the saved tensors of '" + op
                + "' were released after the first backward; compute the forward pass again");
    }
}
