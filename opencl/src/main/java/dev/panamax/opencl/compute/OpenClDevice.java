package dev.panamax.opencl.compute;

import dev.panamax.compute.Buffer;
import dev.panamax.compute.CommandQueue;
import dev.panamax.compute.ComputeDevice;
import dev.panamax.compute.DeviceInfo;
import dev.panamax.compute.DeviceMemoryStats;
import dev.panamax.compute.Library;
import dev.panamax.compute.Size;
import dev.panamax.compute.StorageMode;
import dev.panamax.core.JvmSignalHandlers;
import dev.panamax.core.memory.AllocatesForCaller;
import dev.panamax.core.memory.MemoryBudget;
import dev.panamax.opencl.binding.CL;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;

/**
 * An OpenCL device as a {@link ComputeDevice}: one {@code cl_context} for the life of the JVM, a
 * memory budget and buffer pool, the program cache, and the replay lock that makes kernel
 * argument state safe to share between threads ({@code clSetKernelArg} is not thread-safe on one
 * kernel; every command buffer sets the arguments it needs inside its replay).
 */
@AllocatesForCaller
final class OpenClDevice implements ComputeDevice {
    static final String MEMORY_LIMIT_PROPERTY = OpenClSettings.MEMORY_LIMIT.name();

    private final MemorySegment id;
    private final MemorySegment context;
    private final DeviceInfo info;
    private final DevicePool pool;
    private final ProgramCache programs = new ProgramCache(this);
    private final ReentrantLock replayLock = new ReentrantLock();

    OpenClDevice(MemorySegment id, String platformName) {
        this.id = id;
        this.info = readInfo(id, platformName);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment err = arena.allocate(ValueLayout.JAVA_INT);
            MemorySegment devices = arena.allocate(ValueLayout.ADDRESS);
            devices.set(ValueLayout.ADDRESS, 0, id);
            // lives as long as the JVM, like the device
            this.context = Cl.created(CL.clCreateContext(MemorySegment.NULL, 1, devices, MemorySegment.NULL, MemorySegment.NULL, err),
                    err, "clCreateContext");
        }
        JvmSignalHandlers.restore(); // a driver may start its compiler with its first context
        this.pool = new DevicePool(this, MemoryBudget.create("device " + info.name(), memoryLimit(info.memoryBytes())));
    }

    MemorySegment id() {
        return id;
    }

    MemorySegment context() {
        return context;
    }

    DevicePool pool() {
        return pool;
    }

    ProgramCache programs() {
        return programs;
    }

    ReentrantLock replayLock() {
        return replayLock;
    }

    /**
     * The generation of the kernels' argument caches ({@link OpenClPipeline#setBits}): a replay that
     * failed part-way bumps it, so every pipeline sets its arguments afresh. Under the replay lock.
     */
    long argumentsEpoch;

    @Override
    public DeviceInfo info() {
        return info;
    }

    @Override
    public CommandQueue newCommandQueue(int maxCommandBuffersInFlight) {
        if (maxCommandBuffersInFlight < 1)
            throw new IllegalArgumentException("maxCommandBuffersInFlight must be at least 1: got " + maxCommandBuffersInFlight);
        return new CommandQueue(this, new OpenClQueue(this), maxCommandBuffersInFlight, null);
    }

    @Override
    public Buffer newBuffer(long length, StorageMode mode) {
        if (length <= 0) throw new IllegalArgumentException("a buffer needs a positive length: got " + length);
        if (mode == null) throw new IllegalArgumentException("storage mode is required (SHARED or PRIVATE)");
        return new OpenClBuffer(this, length, mode);
    }

    @Override
    public Library newLibrary(String source, String options) {
        if (source == null || source.isBlank()) throw new IllegalArgumentException("kernel source is empty");
        refuseNul("kernel source", source);
        if (options != null) refuseNul("build options", options);
        return new OpenClLibrary(this, programs.acquire(source, options), new TypeSizes(this, source, options));
    }

    /** OpenCL reads the source and the options as C strings: whatever follows a NUL would be dropped without a word. */
    private static void refuseNul(String what, String text) {
        int at = text.indexOf('\0');
        if (at < 0) return;
        long line = text.substring(0, at).chars().filter(c -> c == '\n').count() + 1;
        throw new IllegalArgumentException(what + " has a NUL character at offset " + at + " (line " + line + "): OpenCL would read "
                + "only what comes before it and drop the rest (" + (text.length() - at - 1) + " characters); expected text without NUL");
    }

    @Override
    public DeviceMemoryStats memoryStats() {
        MemoryBudget b = pool.budget();
        return new DeviceMemoryStats(b.limit(), b.reserved(), b.peak(), pool.liveCount(), b.waits(), pool.metrics());
    }

    @Override
    public void onMemoryPressure(Runnable relieve) {
        Objects.requireNonNull(relieve, "relieve");
        pool.budget().addPressureHook(() -> {
            relieve.run();
            return 0; // what it lets go is freed by the GC the budget then waits for
        });
    }

    @Override
    public String toString() {
        return "OpenClDevice[" + info.name() + "]";
    }

    /**
     * {@code -Dpanamax.compute.memoryLimit} ({@code 1g}, {@code 512m}, bytes) or the device's global memory.
     *
     * @throws IllegalArgumentException naming the property, its value and what is expected, when it is
     *                                  not a positive size that fits a long
     */
    static long memoryLimit(long deviceMemory) {
        String v = OpenClSettings.MEMORY_LIMIT.raw();
        if (v == null || v.isBlank()) return deviceMemory;
        String s = v.strip().toLowerCase(Locale.ROOT);
        long unit = switch (s.charAt(s.length() - 1)) {
            case 'k' -> 1L << 10;
            case 'm' -> 1L << 20;
            case 'g' -> 1L << 30;
            case 't' -> 1L << 40;
            default -> 1;
        };
        try {
            long n = Long.parseLong(unit == 1 ? s : s.substring(0, s.length() - 1).strip());
            if (n <= 0) throw new NumberFormatException();
            return Math.multiplyExact(n, unit);
        } catch (NumberFormatException | ArithmeticException e) {
            throw new IllegalArgumentException("bad device memory limit: property=" + MEMORY_LIMIT_PROPERTY + " value=" + v
                    + " expected=a positive size such as 1g, 512m or 1048576");
        }
    }

    private static DeviceInfo readInfo(MemorySegment id, String platformName) {
        String extensions = Cl.deviceString(id, CL.CL_DEVICE_EXTENSIONS);
        long[] itemSizes = Cl.deviceSizes(id, CL.CL_DEVICE_MAX_WORK_ITEM_SIZES, 3);
        long gridLimit = 0xFFFF_FFFFL;
        return new DeviceInfo(
                Cl.deviceString(id, CL.CL_DEVICE_NAME),
                Cl.deviceString(id, CL.CL_DEVICE_VENDOR) + " (" + platformName + ")",
                "opencl",
                (int) Cl.deviceNumber(id, CL.CL_DEVICE_MAX_COMPUTE_UNITS, 4),
                Cl.deviceNumber(id, CL.CL_DEVICE_GLOBAL_MEM_SIZE, 8),
                Cl.deviceNumber(id, CL.CL_DEVICE_MAX_WORK_GROUP_SIZE, 8),
                new Size(gridLimit, itemSizes.length > 1 ? gridLimit : 1, itemSizes.length > 2 ? gridLimit : 1),
                Cl.deviceNumber(id, CL.CL_DEVICE_MAX_PARAMETER_SIZE, 8),
                Math.max(1, Cl.deviceNumber(id, CL.CL_DEVICE_MEM_BASE_ADDR_ALIGN, 4) / 8),
                Cl.deviceNumber(id, CL.CL_DEVICE_LOCAL_MEM_SIZE, 8),
                extensions.contains("cl_khr_fp16"),
                extensions.contains("cl_khr_fp64"),
                Cl.deviceNumber(id, CL.CL_DEVICE_HOST_UNIFIED_MEMORY, 4) != 0);
    }
}
