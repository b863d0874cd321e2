package dev.panamax.opencl;

import dev.panamax.opencl.binding.CL;
import dev.panamax.opencl.binding.CLApi;
import dev.panamax.opencl.binding.ClContext;
import dev.panamax.opencl.binding.ClContextDestructorNotify;
import dev.panamax.opencl.binding.ClDeviceId;
import dev.panamax.opencl.binding.ClMem;
import dev.panamax.opencl.binding.ClMemDestructorNotify;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.*;

/** Destructor callbacks through the generated registries: called once, when the object's last reference goes. */
class DestructorCallbackTest extends PoclTestBase {
    @Test
    void aMemoryObjectsDestructorCallbackArrivesOnceWhenItsLastReferenceIsReleased() throws InterruptedException {
        CountDownLatch called = new CountDownLatch(1);
        AtomicLong seen = new AtomicLong();
        int registeredBefore = ClMemDestructorNotify.registry().size();
        long address;
        try (ClMem buffer = CLApi.clCreateBuffer(context, CL.CL_MEM_READ_WRITE, 256, null)) {
            address = buffer.address();
            CLApi.clSetMemObjectDestructorCallback(buffer, memobj -> {
                seen.set(memobj.address());
                called.countDown();
            });
            ClMem second = buffer.newReference();
            second.close();
            assertEquals(1, called.getCount(), "not called while a reference is left");
        }
        assertTrue(called.await(30, TimeUnit.SECONDS), "no destructor callback within 30 s of the release");
        assertEquals(address, seen.get(), "the callback names the object it was set on");
        assertEquals(registeredBefore, ClMemDestructorNotify.registry().size(), "a calls: once registration is dropped after its call");
    }

    @Test
    void aContextsDestructorCallbackArrivesOnceWhenItIsReleased() throws InterruptedException {
        CountDownLatch called = new CountDownLatch(1);
        AtomicLong seen = new AtomicLong();
        int registeredBefore = ClContextDestructorNotify.registry().size();
        long address;
        try (ClContext own = CLApi.clCreateContext((long[]) null, new ClDeviceId[] {device}, null)) {
            address = own.address();
            CLApi.clSetContextDestructorCallback(own, c -> {
                seen.set(c.address());
                called.countDown();
            });
        }
        assertTrue(called.await(30, TimeUnit.SECONDS), "no destructor callback within 30 s of the release");
        assertEquals(address, seen.get());
        assertEquals(registeredBefore, ClContextDestructorNotify.registry().size(), "a calls: once registration is dropped after its call");
    }
}
