package dev.panamax.opencl.compute;

import dev.panamax.compute.Buffer;
import dev.panamax.compute.CommandBuffer;
import dev.panamax.compute.CommandBufferException;
import dev.panamax.compute.CommandBufferStatus;
import dev.panamax.compute.CommandQueue;
import dev.panamax.compute.ComputeDevice;
import dev.panamax.compute.ComputeEncoder;
import dev.panamax.compute.ComputePipeline;
import dev.panamax.compute.EncodingException;
import dev.panamax.compute.Library;
import dev.panamax.compute.References;
import dev.panamax.compute.Size;
import dev.panamax.compute.StorageMode;
import dev.panamax.compute.Validation;

import java.util.List;

/**
 * Run by {@link TwoDevicesTest} in a JVM whose PoCL shows two devices: uses a buffer and a pipeline
 * of one device on the other's queue, checked and unchecked, and prints what each refusal said.
 */
public final class TwoDevicesMain {
    private TwoDevicesMain() {}

    private static final String INC = "__kernel void inc(__global float* x) { x[get_global_id(0)] += 1.0f; }";

    public static void main(String[] args) {
        List<ComputeDevice> devices = ComputeDevice.all();
        System.out.println("devices " + devices.size());
        if (devices.size() < 2) System.exit(3);
        ComputeDevice a = devices.get(0), b = devices.get(1);
        try (CommandQueue queue = a.newCommandQueue(2);
             Library libA = a.newLibrary(INC); ComputePipeline incA = libA.newPipeline("inc");
             Library libB = b.newLibrary(INC); ComputePipeline incB = libB.newPipeline("inc");
             Buffer onA = a.newBuffer(256, StorageMode.SHARED); Buffer onB = b.newBuffer(256, StorageMode.SHARED)) {
            CommandBuffer checked = queue.commandBuffer().label("checked");
            try (ComputeEncoder e = checked.computeEncoder()) {
                e.setPipeline(incA);
                try {
                    e.setBuffer(0, onB);
                    System.out.println("accepted a buffer of another device");
                } catch (EncodingException refused) {
                    System.out.println("buffer refused: " + refused.getMessage());
                }
                try {
                    e.setPipeline(incB);
                    System.out.println("accepted a pipeline of another device");
                } catch (EncodingException refused) {
                    System.out.println("pipeline refused: " + refused.getMessage());
                }
            }
            for (Validation validation : Validation.values()) {
                try {
                    queue.commandBuffer(References.RETAINED, validation).label("native " + validation)
                            .encodeNative("gemm", List.of(onA, onB), on -> { });
                    System.out.println("accepted a native command's buffer of another device");
                } catch (EncodingException refused) {
                    System.out.println("native buffer refused: " + refused.getMessage());
                }
            }
            checked.commit();
            checked.waitUntilCompleted();

            CommandBuffer unchecked = queue.commandBuffer(References.RETAINED, Validation.UNCHECKED).label("unchecked");
            try (ComputeEncoder e = unchecked.computeEncoder()) {
                e.setPipeline(incA).setBuffer(0, onA).dispatchThreads(Size.of(64), Size.of(8));
                e.setPipeline(incA).setBuffer(0, onB).dispatchThreads(Size.of(64), Size.of(8));
            }
            unchecked.commit();
            CommandBufferStatus status;
            try {
                status = unchecked.waitUntilCompleted();
            } catch (CommandBufferException failed) {
                status = unchecked.status();
            }
            System.out.println("unchecked " + status + " index " + unchecked.error().map(x -> x.commandIndex()).orElse(-2)
                    + ": " + unchecked.error().map(Throwable::getMessage).orElse(""));
            System.out.println("first command ran: " + onA.contents().getAtIndex(java.lang.foreign.ValueLayout.JAVA_FLOAT, 0));
        }
        System.out.println("done");
    }
}
