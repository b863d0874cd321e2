package dev.panamax.core.memory;

import org.junit.jupiter.api.Test;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The in-call guard: a release while a call has the handle published is deferred until the call ends,
 * on the closing thread or another; a pin keeps the object past the release until it goes; a released
 * handle is refused before a call and leaves nothing published; callbacks nest.
 */
class CallGuardTest {
    /** A handle whose release only counts, at a made-up address. */
    static final class Counted extends NativeHandle {
        private static long next = 0x7000_0000L;
        final AtomicInteger freed;

        private Counted(long address, AtomicInteger freed) {
            super(address, -1, true, SegmentAccess.SHARED, (a, s) -> freed.incrementAndGet());
            this.freed = freed;
        }

        static synchronized Counted make() {
            next += 64;
            return new Counted(next, new AtomicInteger());
        }
    }

    private static void awaitFreed(Counted h) throws InterruptedException {
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (h.freed.get() == 0 && System.nanoTime() < deadline) Thread.sleep(1);
        assertEquals(1, h.freed.get(), "freed once, after the call ended");
    }

    @Test
    void aCloseOnAnotherThreadDuringACallWaitsForTheCallToEnd() throws Exception {
        Counted h = Counted.make();
        CallSlot in = CallGuard.enter();
        long address = CallGuard.use(in, h);
        assertNotEquals(0, address);
        Thread closer = Thread.ofPlatform().start(h::close);
        closer.join();
        assertTrue(h.isReleased(), "the handle is released for Java at once");
        Thread.sleep(20);
        assertEquals(0, h.freed.get(), "the object is not freed while the call is using it");
        assertEquals(1, CallGuard.deferredReleases());
        CallGuard.exit(in, h);
        awaitFreed(h);
        assertEquals(0, CallGuard.deferredReleases());
    }

    @Test
    void aCloseOnTheCallingThreadItselfIsDeferredToo() throws Exception {
        Counted h = Counted.make();
        CallSlot in = CallGuard.enter();
        CallGuard.use(in, h);
        h.close(); // as a callback running inside the call would
        assertEquals(0, h.freed.get());
        CallGuard.exit(in);
        awaitFreed(h);
    }

    @Test
    void aReleasedHandleIsRefusedAndLeavesNothingPublished() throws Exception {
        Counted released = Counted.make();
        released.close();
        assertEquals(1, released.freed.get());
        CallSlot in = CallGuard.enter();
        assertThrows(HandleReleasedException.class, () -> CallGuard.use(in, released));
        // nothing of the refused call is left: a close of another handle now frees at once
        Counted other = Counted.make();
        other.close();
        assertEquals(1, other.freed.get());
    }

    @Test
    void handlesPublishedTogetherAreHeldUntilTheCallEnds() throws Exception {
        Counted a = Counted.make(), b = Counted.make(), c = Counted.make();
        CallSlot in = CallGuard.enter();
        assertEquals(a.rawAddress(), CallGuard.use(in, a, b, c));
        assertEquals(b.rawAddress(), CallGuard.address(in, b));
        assertEquals(0, CallGuard.address(in, null));
        Thread closer = Thread.ofPlatform().start(() -> {
            a.close();
            c.close();
        });
        closer.join();
        Thread.sleep(20);
        assertEquals(0, a.freed.get() + c.freed.get(), "not freed while the call holds them");
        CallGuard.exit(in, a);
        awaitFreed(a);
        awaitFreed(c);
        b.close();
        assertEquals(1, b.freed.get(), "after the call's end a close frees at once");
    }

    @Test
    void aReleasedHandleAmongSeveralIsRefusedByNameAndNoneStaysPublished() {
        Counted live = Counted.make(), released = Counted.make();
        released.close();
        CallSlot in = CallGuard.enter();
        HandleReleasedException e = assertThrows(HandleReleasedException.class, () -> CallGuard.use(in, live, null, released));
        assertTrue(e.getMessage().contains(Long.toHexString(released.rawAddress())), e.getMessage());
        live.close(); // no call is under way: the refused call left nothing published
        assertEquals(1, live.freed.get());
    }

    @Test
    void withChecksOffTheAddressOfAReleasedHandleIsRefused() {
        Counted released = Counted.make();
        released.close();
        Counted live = Counted.make();
        assertEquals(live.rawAddress(), CallGuard.use(null, live, released)); // nothing is published without a slot
        assertThrows(HandleReleasedException.class, () -> CallGuard.address(null, released));
        assertThrows(HandleReleasedException.class, () -> CallGuard.use(null, released, live));
        live.close();
    }

    @Test
    void whatAnExceptionLeftIsDroppedByTheNextCall() throws Exception {
        Counted h = Counted.make();
        CallSlot in = CallGuard.enter();
        CallGuard.use(in, h);
        // the call threw here: no exit
        CallSlot next = CallGuard.enter();
        CallGuard.exit(next);
        h.close();
        assertEquals(1, h.freed.get(), "the next call's end dropped the entry the exception left");
    }

    @Test
    void aPinKeepsTheObjectPastItsReleaseUntilTheLastUnpin() throws Exception {
        Counted h = Counted.make();
        h.pin();
        h.pin();
        h.close();
        assertEquals(0, h.freed.get());
        h.unpin();
        assertEquals(0, h.freed.get());
        h.unpin();
        awaitFreed(h); // by the last unpin, or by the releaser thread if it took the release first
        assertThrows(HandleReleasedException.class, h::pin);
        assertThrows(IllegalStateException.class, h::unpin);
    }

    static void callAgain(Counted inner) {
        CallSlot in = CallGuard.enter();
        CallGuard.use(in, inner);
        CallGuard.exit(in, inner);
    }

    @Test
    void aCallMadeInsideACallbackEndsAtTheOuterCallsHandles() throws Throwable {
        Counted outer = Counted.make();
        Counted inner = Counted.make();
        MethodHandle callback = CallGuard.upcallScope(MethodHandles.lookup().findStatic(CallGuardTest.class, "callAgain",
                MethodType.methodType(void.class, Counted.class)));
        CallSlot in = CallGuard.enter();
        CallGuard.use(in, outer);
        callback.invokeExact(inner); // a callback that makes a typed call of its own, inside the outer call
        outer.close();
        assertEquals(0, outer.freed.get(), "the outer call still holds its handle after the callback's call ended");
        inner.close();
        assertEquals(1, inner.freed.get());
        CallGuard.exit(in, outer);
        awaitFreed(outer);
    }
}
