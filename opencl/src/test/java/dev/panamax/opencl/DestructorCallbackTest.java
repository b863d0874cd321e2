package dev.panamax.opencl;

import dev.panamax.opencl.binding.CL;
import dev.panamax.opencl.binding.CLApi;
import dev.panamax.opencl.binding.ClMem;
import dev.panamax.opencl.binding.ClMemDestructorNotify;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.*;

/** clSetMemObjectDestructorCallback through the generated registry: called once, when the last reference goes. */
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
}
