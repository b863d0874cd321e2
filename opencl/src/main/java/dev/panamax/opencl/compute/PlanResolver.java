package dev.panamax.opencl.compute;

import dev.panamax.compute.Buffer;
import dev.panamax.compute.CommandBufferException;
import dev.panamax.compute.spi.Command;

/**
 * What {@link ReplayPlanner} asks of the queue it plans for: the device objects behind a command's
 * pipeline and buffers, and the buffers a command makes for the run. The planner itself makes no
 * OpenCL call; {@link Replay} answers against the device (holding each buffer for the run), a golden
 * test with names. Each method refuses with a {@link CommandBufferException} naming the command.
 */
interface PlanResolver {
    /** The pipeline a dispatch runs, refused unless it is one of this device's. */
    OpenClPipeline pipeline(Command.Dispatch dispatch, int command);

    /** The {@code cl_mem} of {@code buffer}, held until the run completes; refused unless it is one of this device's. */
    long buffer(Buffer buffer, int command);

    /** A {@code cl_mem} viewing {@code buffer} (whose {@code cl_mem} is {@code mem}) from {@code offset} on, released after the call. */
    long bufferView(long mem, Buffer buffer, long offset, int command, int argument);

    /** A read-only {@code cl_mem} holding a copy of {@code bytes} at {@code hostAddress}, released after the call. */
    long transientBuffer(long hostAddress, long bytes, int command, int argument);

    /** A read whose data will lie at {@code scratchOffset} of the run's scratch when the run completes. */
    void read(Command.Read read, long scratchOffset);
}
