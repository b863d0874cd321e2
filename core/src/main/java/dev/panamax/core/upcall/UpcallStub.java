package dev.panamax.core.upcall;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;

/**
 * A native function pointer that calls a Java target, made by {@link Upcalls}. Valid until the
 * arena it was created in closes; native code must not call it after that.
 */
public final class UpcallStub {
    private final String name;
    private final FunctionDescriptor descriptor;
    private final MemorySegment address;
    private final FailureSink failures;

    UpcallStub(String name, FunctionDescriptor descriptor, MemorySegment address, FailureSink failures) {
        this.name = name;
        this.descriptor = descriptor;
        this.address = address;
        this.failures = failures;
    }

    /** The function pointer to hand to native code. */
    public MemorySegment address() {
        return address;
    }

    /** The name given when it was created (used in reports of caught exceptions). */
    public String name() {
        return name;
    }

    /** The native signature. */
    public FunctionDescriptor descriptor() {
        return descriptor;
    }

    /** Exceptions thrown by the target and caught at the boundary so far. */
    public long exceptionCount() {
        return failures.count();
    }

    @Override
    public String toString() {
        return "UpcallStub[name=" + name + " address=0x" + Long.toHexString(address.address()) + " descriptor=" + descriptor + "]";
    }
}
