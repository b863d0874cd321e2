package dev.panamax.tensor.opencl;

import dev.panamax.clblast.ClBlast;
import dev.panamax.clblast.DeviceMatrix;
import dev.panamax.clblast.GemmBatch;
import dev.panamax.clblast.GemmShape;
import dev.panamax.clblast.Transpose;
import dev.panamax.compute.Buffer;
import dev.panamax.compute.CommandBuffer;
import dev.panamax.compute.ComputeDevice;
import dev.panamax.compute.NativeQueue;
import dev.panamax.tensor.DType;
import dev.panamax.tensor.spi.Kernel;
import dev.panamax.tensor.spi.Operand;
import dev.panamax.tensor.spi.Storage;

import java.util.List;
import java.util.function.Function;

/**
 * Matrix products through CLBlast, encoded as native commands of the tensor backend's command
 * buffers, so a product runs in order with the generated kernels around it and no host round trip.
 * A product CLBlast can take directly goes there: f32 (f16 on a device with half arithmetic), every
 * size nonzero, each operand's matrices row-major or transposed with a leading dimension (CLBlast's
 * own {@code ld} and transpose flags; the batch as one strided call, a stride of 0 sharing a
 * matrix), the output row-major. Any other layout, and every product where CLBlast is not installed,
 * takes the generated tiled kernel instead.
 */
final class ClBlastProducts {
    private final boolean halves;

    private ClBlastProducts(boolean halves) {
        this.halves = halves;
    }

    /** Products for {@code device}, or null when CLBlast is not installed or the device is not OpenCL. */
    static ClBlastProducts forDevice(ComputeDevice device) {
        if (OpenClTensorSettings.CLBLAST.get() && ClBlast.unavailableReason() == null
                && device.info().backend().equalsIgnoreCase("opencl")) {
            return new ClBlastProducts(device.info().fp16());
        }
        return null;
    }

    /** How CLBlast sees one operand's matrices: transposed or not, and the leading dimension. */
    private record Plain(Transpose transpose, long ld) {}

    /**
     * {@code rows x cols} matrices with strides {@code (sRow, sCol)}: row-major (NO) when the column
     * stride is 1, column-major (YES, stored as the transpose) when the row stride is 1; null otherwise.
     */
    private static Plain plain(int rows, int cols, long sRow, long sCol) {
        if ((cols == 1 || sCol == 1) && (rows == 1 || sRow >= cols)) return new Plain(Transpose.NO, rows == 1 ? Math.max(cols, 1) : sRow);
        if ((rows == 1 || sRow == 1) && (cols == 1 || sCol >= rows)) return new Plain(Transpose.YES, cols == 1 ? Math.max(rows, 1) : sCol);
        return null;
    }

    boolean takes(Kernel.MatMul k) {
        DType t = k.out().dtype();
        if (!(t == DType.F32 || (t == DType.F16 && halves))) return false;
        int batch = k.out().shape()[0], m = k.out().shape()[1], n = k.out().shape()[2], depth = k.a().shape()[2];
        if (batch == 0 || m == 0 || n == 0 || depth == 0) return false;
        Plain c = plain(m, n, k.out().strides()[1], k.out().strides()[2]);
        if (c == null || c.transpose != Transpose.NO) return false;
        if (batch > 1 && k.out().strides()[0] <= 0) return false;
        return plain(m, depth, k.a().strides()[1], k.a().strides()[2]) != null
                && plain(depth, n, k.b().strides()[1], k.b().strides()[2]) != null
                && k.a().strides()[0] >= 0 && k.b().strides()[0] >= 0;
    }

    /** Encodes a product {@link #takes} accepted into {@code cb} as one native command. */
    void encode(CommandBuffer cb, Kernel.MatMul k, Function<Storage, Buffer> bufferOf) {
        Operand out = k.out(), a = k.a(), b = k.b();
        int batch = out.shape()[0], m = out.shape()[1], n = out.shape()[2], depth = a.shape()[2];
        Plain pa = plain(m, depth, a.strides()[1], a.strides()[2]);
        Plain pb = plain(depth, n, b.strides()[1], b.strides()[2]);
        Plain pc = plain(m, n, out.strides()[1], out.strides()[2]);
        Buffer ba = bufferOf.apply(a.storage()), bb = bufferOf.apply(b.storage()), bc = bufferOf.apply(out.storage());
        GemmShape shape = new GemmShape(pa.transpose, pb.transpose, m, n, depth);
        float beta = k.accumulate() ? 1f : 0f;
        boolean half = out.dtype() == DType.F16;
        String what = (half ? "CLBlast hgemm " : "CLBlast sgemm ") + m + "x" + n + "x" + depth + (batch > 1 ? " x" + batch : "");
        List<Buffer> uses = List.of(ba, bb, bc).stream().distinct().toList();
        cb.encodeNative(what, uses, (NativeQueue q) -> {
            DeviceMatrix ma = DeviceMatrix.of(q.bufferHandle(ba), a.offset(), pa.ld);
            DeviceMatrix mb = DeviceMatrix.of(q.bufferHandle(bb), b.offset(), pb.ld);
            DeviceMatrix mc = DeviceMatrix.of(q.bufferHandle(bc), out.offset(), pc.ld);
            if (batch == 1) {
                if (half) ClBlast.hgemm(q.handle(), shape, 1f, ma, mb, beta, mc, null);
                else ClBlast.sgemm(q.handle(), shape, 1f, ma, mb, beta, mc, null);
            } else {
                GemmBatch strided = new GemmBatch(batch, a.strides()[0], b.strides()[0], out.strides()[0]);
                if (half) ClBlast.hgemmStridedBatched(q.handle(), shape, 1f, ma, mb, beta, mc, strided, null);
                else ClBlast.sgemmStridedBatched(q.handle(), shape, 1f, ma, mb, beta, mc, strided, null);
            }
        });
    }
}
