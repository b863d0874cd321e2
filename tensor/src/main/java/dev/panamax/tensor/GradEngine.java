package dev.panamax.tensor;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reverse-mode differentiation: the recorded graph in reverse topological order, each node's
 * backward run once with the sum of the gradients that reached its output, leaves accumulating
 * into {@link Tensor#grad()}, and every node released as soon as it ran (its saved tensors become
 * garbage, or are freed by the enclosing scope).
 */
final class GradEngine {
    private GradEngine() {}

    static void backward(Tensor root, Tensor seed) {
        Ops.check("backward", root);
        if (!root.requiresGrad()) {
            throw TensorException.of("backward", "the tensor does not require gradients (no input requires them, or it was "
                    + "computed under Autograd.noGrad())", root);
        }
        if (seed == null) {
            if (root.elements() != 1) {
                throw TensorException.of("backward", "expected a one-element tensor (a loss), or pass the gradient explicitly", root);
            }
            seed = root.onesLike();
        } else {
            Ops.check("backward", root, seed);
            if (!seed.shape.equals(root.shape) || seed.dtype() != root.dtype()) {
                throw TensorException.of("backward", "the gradient must have the tensor's shape and dtype", root, seed);
            }
        }
        List<Tensor> order = topologicalOrder(root);
        Map<Tensor, Tensor> grads = new IdentityHashMap<>();
        grads.put(root, seed);
        try (var _ = Autograd.noGrad()) {
            for (int i = order.size() - 1; i >= 0; i--) {
                Tensor t = order.get(i);
                Tensor g = grads.remove(t);
                if (g == null) continue;
                Node node = t.node;
                if (node == null) {
                    t.accumulateGrad(g);
                    continue;
                }
                Tensor[] inputs = node.inputs();
                boolean[] need = new boolean[inputs.length];
                for (int k = 0; k < inputs.length; k++) need[k] = inputs[k] != null && inputs[k].requiresGrad();
                node.checkSaved();
                Tensor[] inputGrads = node.backward().apply(g, need);
                node.release();
                for (int k = 0; k < inputs.length; k++) {
                    if (!need[k] || inputGrads[k] == null) continue;
                    grads.merge(inputs[k], inputGrads[k], Tensor::add);
                }
            }
        }
    }

    /** Tensors reachable from {@code root} through recorded nodes, each after everything it depends on. */
    private static List<Tensor> topologicalOrder(Tensor root) {
        List<Tensor> order = new ArrayList<>();
        Set<Tensor> visited = Collections.newSetFromMap(new IdentityHashMap<>());
        Deque<Object[]> stack = new ArrayDeque<>();
        stack.push(new Object[] {root, 0});
        visited.add(root);
        while (!stack.isEmpty()) {
            Object[] frame = stack.peek();
            Tensor t = (Tensor) frame[0];
            int next = (int) frame[1];
            Tensor[] inputs = t.node == null ? new Tensor[0] : t.node.inputs();
            if (next < inputs.length) {
                frame[1] = next + 1;
                Tensor in = inputs[next];
                if (in != null && in.requiresGrad() && visited.add(in)) stack.push(new Object[] {in, 0});
            } else {
                stack.pop();
                order.add(t);
            }
        }
        return order;
    }
}
