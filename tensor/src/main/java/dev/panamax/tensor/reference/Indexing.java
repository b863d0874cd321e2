package dev.panamax.tensor.reference;

import dev.panamax.tensor.DType;
import dev.panamax.tensor.spi.HostStorage;
import dev.panamax.tensor.spi.Operand;

import java.lang.foreign.MemorySegment;

/** index_select and its adjoint, element by element. */
final class Indexing {
    private Indexing() {}

    static void select(Operand out, Operand in, Operand index, int axis) {
        MemorySegment o = HostStorage.of(out.storage()).segment(), x = HostStorage.of(in.storage()).segment(), ix = HostStorage.of(index.storage()).segment();
        DType t = out.dtype();
        // walk out's shape with in's strides except along axis (looked up through index)
        long[] inStrides = in.strides().clone();
        inStrides[axis] = 0;
        Operand base = new Operand(in.storage(), out.shape(), inStrides, in.offset());
        for (Walk w = new Walk(out.shape(), out, base); w.hasNext(); w.advance()) {
            long picked = Elements.getLong(ix, index.dtype(), index.offset() + w.index(axis) * index.strides()[0]);
            long from = w.offsets[1] + picked * in.strides()[axis];
            if (t.isFloating()) Elements.set(o, t, w.offsets[0], Elements.get(x, t, from));
            else Elements.setLong(o, t, w.offsets[0], Elements.getLong(x, t, from));
        }
    }

    static void add(Operand out, Operand index, Operand src, int axis) {
        MemorySegment o = HostStorage.of(out.storage()).segment(), s = HostStorage.of(src.storage()).segment(), ix = HostStorage.of(index.storage()).segment();
        DType t = out.dtype();
        long[] outStrides = out.strides().clone();
        outStrides[axis] = 0;
        Operand base = new Operand(out.storage(), src.shape(), outStrides, out.offset());
        for (Walk w = new Walk(src.shape(), src, base); w.hasNext(); w.advance()) {
            long picked = Elements.getLong(ix, index.dtype(), index.offset() + w.index(axis) * index.strides()[0]);
            long to = w.offsets[1] + picked * out.strides()[axis];
            if (t.isFloating()) Elements.set(o, t, to, Elements.get(o, t, to) + Elements.get(s, t, w.offsets[0]));
            else Elements.setLong(o, t, to, Elements.getLong(o, t, to) + Elements.getLong(s, t, w.offsets[0]));
        }
    }
}
