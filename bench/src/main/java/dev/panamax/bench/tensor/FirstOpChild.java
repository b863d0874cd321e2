package dev.panamax.bench.tensor;

import dev.panamax.tensor.Tensor;

/**
 * One {@code tensor.startup.firstOp.ms} sample in a fresh JVM: from the first line of {@code main}
 * (JVM start excluded) to the values of a first add read back: the tensor classes, the backend's
 * discovery and creation (its native library extracted from the jar, or found in the cache, and
 * loaded with OpenBLAS and libgomp), the kernel run and the read. Prints the milliseconds.
 */
public final class FirstOpChild {
    private FirstOpChild() {}

    public static void main(String[] args) {
        long start = System.nanoTime();
        float[] sum;
        try (Tensor a = Tensor.of(new float[] {1, 2, 3, 4}, 4); Tensor b = Tensor.ones(4); Tensor c = a.add(b)) {
            sum = c.toFloatArray();
        }
        long ns = System.nanoTime() - start;
        if (sum[3] != 5f) throw new IllegalStateException("first op gave " + sum[3]);
        System.out.println(ns / 1e6);
    }
}
