package dev.panamax.tensor.cpu;

import dev.panamax.tensor.spi.Kernel;
import dev.panamax.tensor.spi.Operand;
import dev.panamax.tensor.spi.Storage;

/**
 * The storages one kernel reads and writes, gathered once per kernel (one type switch) into arrays
 * its recorder's own thread reuses, so ordering a kernel against other threads' recordings allocates
 * nothing.
 */
final class KernelOperands {
    private static final int MAX = 8;

    private final Storage[] storages = new Storage[MAX];
    private final boolean[] writes = new boolean[MAX];
    private int count;

    /** Gathers {@code k}'s operands (inputs first); the previous kernel's are forgotten. */
    KernelOperands of(Kernel k) {
        count = 0;
        switch (k) {
            case Kernel.Fill f -> add(f.out(), true);
            case Kernel.Unary u -> {
                add(u.in(), false);
                add(u.out(), true);
            }
            case Kernel.Binary b -> {
                add(b.a(), false);
                add(b.b(), false);
                add(b.out(), true);
            }
            case Kernel.BinaryScalar b -> {
                add(b.a(), false);
                add(b.out(), true);
            }
            case Kernel.Where w -> {
                add(w.cond(), false);
                add(w.a(), false);
                add(w.b(), false);
                add(w.out(), true);
            }
            case Kernel.Reduce d -> {
                add(d.in(), false);
                add(d.out(), true);
            }
            case Kernel.MatMul m -> {
                add(m.a(), false);
                add(m.b(), false);
                add(m.out(), true);
            }
            case Kernel.IndexSelect i -> {
                add(i.in(), false);
                add(i.index(), false);
                add(i.out(), true);
            }
            case Kernel.IndexAdd i -> {
                add(i.index(), false);
                add(i.src(), false);
                add(i.out(), true);
            }
            case Kernel.AdamStep a -> {
                add(a.grad(), false);
                if (a.stepScalars() != null) add(a.stepScalars(), false);
                add(a.param(), true);
                add(a.m(), true);
                add(a.v(), true);
            }
            case Kernel.CrossEntropy c -> {
                add(c.logits(), false);
                add(c.labels(), false);
                add(c.loss(), true);
                if (c.grad() != null) add(c.grad(), true);
            }
            case Kernel.Softmax s -> {
                add(s.in(), false);
                add(s.out(), true);
            }
            case Kernel.SoftmaxGrad s -> {
                add(s.y(), false);
                add(s.dy(), false);
                add(s.out(), true);
            }
            case Kernel.LayerNorm l -> {
                add(l.in(), false);
                if (l.weight() != null) add(l.weight(), false);
                if (l.bias() != null) add(l.bias(), false);
                add(l.out(), true);
                add(l.mean(), true);
                add(l.rstd(), true);
            }
            case Kernel.LayerNormGrad l -> {
                add(l.dy(), false);
                add(l.in(), false);
                add(l.mean(), false);
                add(l.rstd(), false);
                if (l.weight() != null) add(l.weight(), false);
                add(l.dx(), true);
                if (l.dweight() != null) add(l.dweight(), true);
                if (l.dbias() != null) add(l.dbias(), true);
            }
            case Kernel.MaxPool2d m -> {
                add(m.in(), false);
                add(m.out(), true);
                add(m.indices(), true);
            }
            case Kernel.BatchNorm b -> {
                add(b.in(), false);
                if (b.weight() != null) add(b.weight(), false);
                if (b.bias() != null) add(b.bias(), false);
                add(b.out(), true);
                add(b.mean(), true);
                add(b.var(), true);
            }
            case Kernel.BatchNormGrad b -> {
                add(b.dy(), false);
                add(b.in(), false);
                add(b.mean(), false);
                add(b.var(), false);
                if (b.weight() != null) add(b.weight(), false);
                add(b.dx(), true);
                if (b.dweight() != null) add(b.dweight(), true);
                if (b.dbias() != null) add(b.dbias(), true);
            }
            case Kernel.MaxPool2dGrad m -> {
                add(m.dy(), false);
                add(m.indices(), false);
                add(m.dx(), true);
            }
        }
        return this;
    }

    int count() {
        return count;
    }

    Storage storage(int i) {
        return storages[i];
    }

    boolean writes(int i) {
        return writes[i];
    }

    /** Drops the references (the storages stay reachable only through what holds them). */
    void clear() {
        for (int i = 0; i < count; i++) storages[i] = null;
        count = 0;
    }

    private void add(Operand o, boolean written) {
        storages[count] = o.storage();
        writes[count] = written;
        count++;
    }
}
