package dev.panamax.opencl;

import dev.panamax.opencl.binding.CL;
import dev.panamax.opencl.binding.CLApi;
import dev.panamax.opencl.binding.ClEvent;
import dev.panamax.opencl.binding.ClEventNotify;
import dev.panamax.opencl.binding.ClKernel;
import dev.panamax.opencl.binding.ClMem;
import dev.panamax.opencl.binding.ClProgram;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.*;

/** clSetEventCallback through the generated callback registry: called by PoCL's own thread, once. */
class EventCallbackTest extends PoclTestBase {
    static final String SOURCE = "__kernel void one(__global int *a) { a[get_global_id(0)] = 1; }";

    @Test
    void anEventCallbackArrivesFromTheDriversThreadThroughTheRegistry() throws InterruptedException {
        Thread test = Thread.currentThread();
        CountDownLatch called = new CountDownLatch(1);
        AtomicReference<Thread> caller = new AtomicReference<>();
        AtomicInteger status = new AtomicInteger(42);
        AtomicLong eventAddress = new AtomicLong();
        long dispatchedBefore = ClEventNotify.registry().dispatched();
        int registeredBefore = ClEventNotify.registry().size();
        try (ClProgram program = OpenCl.buildProgram(context, device, SOURCE, "");
             ClKernel kernel = CLApi.clCreateKernel(program, "one");
             ClMem buffer = CLApi.clCreateBuffer(context, CL.CL_MEM_READ_WRITE, 64 * Integer.BYTES, null);
             ClEvent gate = CLApi.clCreateUserEvent(context)) {
            OpenCl.setArg(kernel, 0, buffer);
            ClEvent[] done = new ClEvent[1];
            // the kernel waits for the user event, so it cannot finish before the callback is set
            CLApi.clEnqueueNDRangeKernel(queue, kernel, null, new long[] {64}, null, new ClEvent[] {gate}, done);
            try (ClEvent kernelDone = done[0]) {
                CLApi.clSetEventCallback(kernelDone, CL.CL_COMPLETE, (event, commandStatus) -> {
                    caller.set(Thread.currentThread());
                    status.set(commandStatus);
                    eventAddress.set(event.address());
                    called.countDown();
                });
                assertEquals(registeredBefore + 1, ClEventNotify.registry().size());
                CLApi.clSetUserEventStatus(gate, CL.CL_COMPLETE);
                assertTrue(called.await(30, TimeUnit.SECONDS), "no callback within 30 s");
                assertEquals(CL.CL_COMPLETE, status.get());
                assertEquals(kernelDone.address(), eventAddress.get(), "the callback got the event it was set on");
                CLApi.clFinish(queue);
            }
        }
        assertNotSame(test, caller.get(), "called on the test thread, not the driver's: " + caller.get());
        assertEquals(dispatchedBefore + 1, ClEventNotify.registry().dispatched());
        assertEquals(registeredBefore, ClEventNotify.registry().size(), "a calls: once registration is dropped after its call");
    }
}
