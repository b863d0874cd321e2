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
    /** The address one callback was called with, and when it came. */
    private static final class Arrival {
        private final CountDownLatch called = new CountDownLatch(1);
        private final AtomicLong seen = new AtomicLong();

        void record(long address) {
            seen.set(address);
            called.countDown();
        }

        boolean arrived() {
            return called.getCount() == 0;
        }

        /** The address it was called with; fails when no call came within 30 s. */
        long await() throws InterruptedException {
            assertTrue(called.await(30, TimeUnit.SECONDS), "no destructor callback within 30 s of the release");
            return seen.get();
        }
    }

    @Test
    void aMemoryObjectsDestructorCallbackArrivesOnceWhenItsLastReferenceIsReleased() throws InterruptedException {
        Arrival arrival = new Arrival();
        int registeredBefore = ClMemDestructorNotify.registry().size();
        long address;
        try (ClMem buffer = CLApi.clCreateBuffer(context, CL.CL_MEM_READ_WRITE, 256, null)) {
            address = buffer.address();
            CLApi.clSetMemObjectDestructorCallback(buffer, memobj -> arrival.record(memobj.address()));
            ClMem second = buffer.newReference();
            second.close();
            assertFalse(arrival.arrived(), "not called while a reference is left");
        }
        assertEquals(address, arrival.await(), "the callback names the object it was set on");
        assertEquals(registeredBefore, ClMemDestructorNotify.registry().size(), "a calls: once registration is dropped after its call");
    }

    @Test
    void aContextsDestructorCallbackArrivesOnceWhenItIsReleased() throws InterruptedException {
        Arrival arrival = new Arrival();
        int registeredBefore = ClContextDestructorNotify.registry().size();
        long address;
        try (ClContext own = CLApi.clCreateContext(null, new ClDeviceId[] {device}, null)) {
            address = own.address();
            CLApi.clSetContextDestructorCallback(own, c -> arrival.record(c.address()));
        }
        assertEquals(address, arrival.await());
        assertEquals(registeredBefore, ClContextDestructorNotify.registry().size(), "a calls: once registration is dropped after its call");
    }
}
