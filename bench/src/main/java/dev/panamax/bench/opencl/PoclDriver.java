package dev.panamax.bench.opencl;

/**
 * The two CPU drivers PoCL ships, chosen for a JVM with {@code POCL_DEVICES}. The dispatch figures are
 * measured on both:
 * <ul>
 *   <li>{@link #PTHREAD}, PoCL's default: worker threads run the kernels, so a round trip is two
 *   thread wake-ups (40-90 µs on a shared 2-core VM) and a binding's own nanoseconds sit far below the
 *   host's resolution;</li>
 *   <li>{@link #BASIC}: the calling thread runs the kernels when the queue is flushed or finished, with
 *   no other thread involved, so a round trip is under a microsecond and what the binding adds to each
 *   call shows.</li>
 * </ul>
 */
enum PoclDriver {
    PTHREAD("pthread", ""),
    BASIC("basic", "basic.");

    /** The value of {@code POCL_DEVICES}; PoCL's device names begin with it and a dash. */
    final String name;
    /** What the figure names carry after {@code <binding>.dispatch.}: nothing for the default driver. */
    final String namePart;

    PoclDriver(String name, String namePart) {
        this.name = name;
        this.namePart = namePart;
    }

    /** Whether {@code deviceName} (CL_DEVICE_NAME) is a device of this driver. */
    boolean drives(String deviceName) {
        return deviceName.startsWith(name + "-");
    }
}
