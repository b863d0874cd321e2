package dev.panamax.tensor;

import dev.panamax.tensor.spi.Backend;
import dev.panamax.tensor.spi.HostStorage;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Moves a tensor's values between backends (and so between devices) through the backends' copies
 * only: host memory is handed to a device backend's {@link Backend#write} or filled by its
 * {@link Backend#read} directly; between two device backends the values pass through host memory
 * a chunk at a time. The bytes arrive unchanged: a tensor moved cpu → opencl → cpu is bit for bit
 * the same.
 */
final class Transfer {
    /** The most bytes staged in host memory at once between two device backends. */
    private static final long STAGE_BYTES = 64L << 20;

    private Transfer() {}

    /** {@code t} on {@code target}, as a graph op: the gradient moves back to {@code t}'s backend. */
    static Tensor to(Tensor t, Backend target) {
        Ops.check("to", t);
        if (target == null) throw TensorException.of("to", "the target backend is null", t);
        if (t.backend == target) return t;
        Backend source = t.backend;
        return Ops.track(move(t, target), "to", (g, need) -> new Tensor[] {move(g, source)}, t);
    }

    /** A contiguous copy of {@code t}'s values on {@code target}, outside the graph. */
    static Tensor move(Tensor t, Backend target) {
        Tensor dense = t.isContiguous() ? t : Movement.copyAs(t, t.dtype());
        try {
            Tensor out = Tensor.empty(target, t.dtype(), t.shape);
            try {
                copy(dense, out);
            } catch (RuntimeException | Error e) {
                Ops.free(e, out);
                throw e;
            }
            return out;
        } finally {
            if (dense != t) dense.storage.close();
        }
    }

    /** The values of contiguous {@code from} into new contiguous {@code to} of one dtype and shape. */
    private static void copy(Tensor from, Tensor to) {
        long bytes = from.elements() * from.dtype().byteSize();
        if (bytes == 0) return;
        long at = from.offset * from.dtype().byteSize();
        if (to.storage instanceof HostStorage h) {
            // new storage: nothing was submitted on it, so the source's backend may fill it directly
            from.backend.read(from.storage, at, h.segment().asSlice(0, bytes));
        } else if (from.storage instanceof HostStorage h) {
            from.backend.sync(h);
            h.handle().pin(); // a close on another thread cannot hand the block on while it is copied
            try {
                to.backend.write(to.storage, 0, h.segment().asSlice(at, bytes));
            } finally {
                h.handle().unpin();
            }
        } else {
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment stage = arena.allocate(Math.min(bytes, STAGE_BYTES), 64);
                for (long done = 0; done < bytes; done += stage.byteSize()) {
                    MemorySegment part = stage.asSlice(0, Math.min(stage.byteSize(), bytes - done));
                    from.backend.read(from.storage, at + done, part);
                    to.backend.write(to.storage, done, part);
                }
            }
        }
    }

    /**
     * Moves a leaf's values to {@code target} in place (what {@code Module.to} does to each
     * parameter): the tensor keeps its identity, its old storage is freed, and its gradient is
     * dropped (the next backward makes one on the new backend).
     */
    static void relocate(Tensor leaf, Backend target) {
        Ops.check("to", leaf);
        if (!leaf.isLeaf()) {
            throw TensorException.of("to", "only a leaf (a parameter or a tensor made by the user) moves in place; "
                    + "an op's result moves with tensor.to(backend), which returns a new tensor", leaf);
        }
        if (leaf.backend == target) return;
        Tensor moved = TensorScope.unscoped(() -> move(leaf, target)); // a parameter belongs to no scope
        leaf.zeroGrad();
        Backend old = leaf.backend;
        var oldStorage = leaf.storage;
        leaf.replaceStorage(target, moved.storage, moved.strides, moved.offset);
        old.sync(oldStorage);
        oldStorage.close();
    }
}
