package dev.panamax.tensor.opencl;

import dev.panamax.tensor.Backends;
import dev.panamax.tensor.Tensor;
import dev.panamax.tensor.TensorDeviceException;
import dev.panamax.tensor.TensorScope;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the opencl backend does when its device cannot do what is asked: each failure is a
 * {@link TensorDeviceException} naming the device and what was asked, the backend stays usable
 * where it can, and nothing leaks.
 */
class OpenClBackendFailuresTest {
    private static OpenClTensorBackend backend(KernelCache kernels) {
        DeviceChoice chosen = DeviceChoice.fromSettings();
        return new OpenClTensorBackend(chosen.device(), chosen.index(), kernels == null ? new KernelCache(chosen.device()) : kernels);
    }

    @Test
    void aKernelTheDeviceCannotCompileNamesTheKernelTheShapesAndTheDevice() {
        DeviceChoice chosen = DeviceChoice.fromSettings();
        try (var b = backend(new KernelCache(chosen.device(), key -> "kernel void broken( { this is not OpenCL C }"));
             var _ = TensorScope.open(); var _ = Backends.using(b)) {
            var e = assertThrows(TensorDeviceException.class, () -> Tensor.ones(2, 3));
            String m = e.getMessage();
            assertTrue(m.contains("fill") && m.contains("f32 (2, 3)") && m.contains(chosen.device().info().name()), m);
            assertInstanceOf(KernelBuildException.class, e.getCause(), m);
        }
    }

    @Test
    void deviceMemoryItCannotGetNamesTheShapeAndTheDevice() {
        try (var b = backend(null); var _ = TensorScope.open(); var _ = Backends.using(b)) {
            long floats = b.computeDevice().info().memoryBytes() / 4 + (1L << 20);
            int rows = (int) Math.min(Integer.MAX_VALUE, floats / 1024 + 1);
            var e = assertThrows(TensorDeviceException.class, () -> Tensor.zeros(rows, 1024));
            String m = e.getMessage();
            assertTrue(m.contains("(" + rows + ", 1024)") && m.contains("opencl:") && m.contains("cannot"), m);
        }
    }

    @Test
    void aTensorOfAClosedBackendFailsClearlyAndCanStillBeClosed() {
        var b = backend(null);
        Tensor t;
        try (var _ = Backends.using(b)) {
            t = Tensor.ones(4);
            t.toFloatArray();
        }
        b.close();
        var e = assertThrows(TensorDeviceException.class, () -> t.add(1.0));
        assertTrue(e.getMessage().contains("closed") && e.getMessage().contains("opencl:"), e.getMessage());
        var read = assertThrows(TensorDeviceException.class, t::toFloatArray);
        assertTrue(read.getMessage().contains("closed"), read.getMessage());
        t.close(); // its device memory still goes back
        assertTrue(t.isFreed());
    }

    @Test
    void aCommandBufferTheDeviceFailsSurfacesAtTheNextReadAndTheBackendGoesOn() {
        try (var b = backend(null); var _ = TensorScope.open(); var _ = Backends.using(b)) {
            Tensor x = Tensor.ones(8).mul(2);
            b.encodeNative("a device lost mid-run", q -> {
                throw new IllegalStateException("simulated: the device stopped answering");
            });
            Tensor y = x.add(1);
            var e = assertThrows(TensorDeviceException.class, y::toFloatArray);
            String m = e.getMessage();
            assertTrue(m.contains("a device lost mid-run") && m.contains("failed") && m.contains("opencl:"), m);
            // the next step runs
            assertArrayEquals(new float[] {5, 5, 5, 5, 5, 5, 5, 5}, Tensor.ones(8).mul(5).toFloatArray());
        }
    }
}
