package dev.panamax.opencl.compute;

import dev.panamax.core.JvmSignalHandlers;
import dev.panamax.core.memory.AllocatesForCaller;
import dev.panamax.opencl.binding.CL;
import dev.panamax.opencl.binding.ClProgram;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A device's built programs by the hash of source and options, shared by the libraries made from
 * them while any is alive: a program is built once however many libraries ask for it, and released
 * when the last one closes.
 */
@AllocatesForCaller
final class ProgramCache {
    /** Every program is built with argument metadata, which pipelines report and checks use. */
    static final String ALWAYS = "-cl-kernel-arg-info";

    /** A built program and how many libraries use it. */
    static final class Shared {
        final String key;
        final ClProgram program;
        final AtomicInteger users = new AtomicInteger(1);

        Shared(String key, ClProgram program) {
            this.key = key;
            this.program = program;
        }
    }

    private final OpenClDevice device;
    private final ConcurrentHashMap<String, Shared> programs = new ConcurrentHashMap<>();

    ProgramCache(OpenClDevice device) {
        this.device = device;
    }

    /** The program of {@code source} and {@code options}, built now or shared with a live library. */
    synchronized Shared acquire(String source, String options) {
        String key = hash(source, options);
        Shared s = programs.get(key);
        if (s != null) {
            s.users.incrementAndGet();
            return s;
        }
        s = new Shared(key, build(source, options));
        programs.put(key, s);
        return s;
    }

    synchronized void release(Shared s) {
        if (s.users.decrementAndGet() == 0) {
            programs.remove(s.key, s);
            s.program.close();
        }
    }

    /** Programs built and alive. */
    int size() {
        return programs.size();
    }

    private ClProgram build(String source, String options) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment err = arena.allocate(ValueLayout.JAVA_INT);
            MemorySegment strings = arena.allocate(ValueLayout.ADDRESS);
            strings.set(ValueLayout.ADDRESS, 0, arena.allocateFrom(source));
            MemorySegment object = Cl.created(CL.clCreateProgramWithSource(device.context(), 1, strings, MemorySegment.NULL, err),
                    err, "clCreateProgramWithSource");
            ClProgram program = ClProgram.owned(object);
            try {
                MemorySegment devices = arena.allocate(ValueLayout.ADDRESS);
                devices.set(ValueLayout.ADDRESS, 0, device.id());
                String all = options == null || options.isBlank() ? ALWAYS : ALWAYS + " " + options;
                int status = CL.clBuildProgram(object, 1, devices, arena.allocateFrom(all), MemorySegment.NULL, MemorySegment.NULL);
                JvmSignalHandlers.restore(); // a compiler the build started may have installed its crash handlers
                if (status == CL.CL_BUILD_PROGRAM_FAILURE || status == CL.CL_INVALID_BUILD_OPTIONS) {
                    String log = buildLog(object, arena);
                    throw BuildFailure.of(source, options, log, status);
                }
                Cl.check(status, "clBuildProgram");
                return program;
            } catch (Throwable t) {
                program.close();
                throw t;
            }
        }
    }

    private String buildLog(MemorySegment program, Arena arena) {
        MemorySegment size = arena.allocate(ValueLayout.JAVA_LONG);
        Cl.check(CL.clGetProgramBuildInfo(program, device.id(), CL.CL_PROGRAM_BUILD_LOG, 0, MemorySegment.NULL, size), "clGetProgramBuildInfo");
        MemorySegment log = arena.allocate(Math.max(1, size.get(ValueLayout.JAVA_LONG, 0)));
        Cl.check(CL.clGetProgramBuildInfo(program, device.id(), CL.CL_PROGRAM_BUILD_LOG, log.byteSize(), log, MemorySegment.NULL),
                "clGetProgramBuildInfo");
        return log.getString(0).strip();
    }

    private static String hash(String source, String options) {
        try {
            MessageDigest d = MessageDigest.getInstance("SHA-256");
            d.update(source.getBytes(StandardCharsets.UTF_8));
            d.update((byte) 0);
            d.update((options == null ? "" : options).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
