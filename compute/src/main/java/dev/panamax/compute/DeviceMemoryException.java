package dev.panamax.compute;

/**
 * A buffer that would pass the device's memory budget even after the GC freed what was
 * unreachable: the message gives the request, the budget and what is held, by where it was
 * allocated (sites are recorded at {@code -Dpanamax.leakDetection=PARANOID}, and one in 128 at SAMPLED).
 */
public final class DeviceMemoryException extends ComputeException {
    private static final long serialVersionUID = 1L;
    public DeviceMemoryException(String message) {
        super(message, null);
    }
}
