package dev.panamax.tensor.opencl;

import dev.panamax.compute.ComputeDevice;
import dev.panamax.compute.ComputePipeline;
import dev.panamax.compute.Library;
import dev.panamax.compute.LibraryBuildException;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The compiled tensor kernels of one device: each {@link ProgramKey} (a family and its dtypes) is
 * generated and compiled the first time a kernel of it is asked for, and kept until {@link #close()},
 * so startup compiles nothing and a program compiles once. Thread-safe.
 *
 * <pre>{@code
 * try (KernelCache kernels = new KernelCache(device)) {
 *     KernelEncoder encoder = new KernelEncoder(kernels);
 *     ...
 * }
 * }</pre>
 */
public final class KernelCache implements AutoCloseable {
    private final ComputeDevice device;
    private final Map<ProgramKey, Library> libraries = new ConcurrentHashMap<>();
    private final Map<PipelineKey, ComputePipeline> pipelines = new ConcurrentHashMap<>();
    private volatile boolean closed;

    private record PipelineKey(ProgramKey program, String function) {}

    private final Function<ProgramKey, String> sources;

    public KernelCache(ComputeDevice device) {
        this(device, KernelSources::source);
    }

    /** A cache whose programs come from {@code sources} (tests give it source that does not compile). */
    KernelCache(ComputeDevice device, Function<ProgramKey, String> sources) {
        this.device = Objects.requireNonNull(device, "device");
        this.sources = sources;
    }

    public ComputeDevice device() {
        return device;
    }

    /** How many programs have been compiled so far. */
    public int programs() {
        return libraries.size();
    }

    /**
     * The pipeline of kernel {@code function} in program {@code key}, compiling the program first if
     * this is its first use.
     *
     * @throws KernelBuildException naming the program, kernel and device, with the build log
     */
    ComputePipeline pipeline(ProgramKey key, String function) {
        if (closed) throw new IllegalStateException("kernel cache of " + device.info().name() + " is closed (asked for " + function + " of " + key + ")");
        return pipelines.computeIfAbsent(new PipelineKey(key, function), k -> library(key, function).newPipeline(function));
    }

    private Library library(ProgramKey key, String function) {
        return libraries.computeIfAbsent(key, k -> {
            try {
                return device.newLibrary(sources.apply(k), KernelSources.OPTIONS);
            } catch (LibraryBuildException e) {
                throw new KernelBuildException("tensor kernel program '" + k + "' (kernel " + function + ") did not compile on device '"
                        + device.info().name() + "' (" + device.info().vendor() + "): " + e.getMessage() + "\nbuild log:\n" + e.log(), e);
            }
        });
    }

    /** Frees every pipeline and program (command buffers already encoded keep what they use). Idempotent. */
    @Override
    public void close() {
        closed = true;
        List<AutoCloseable> all = new ArrayList<>(pipelines.values());
        all.addAll(libraries.values());
        pipelines.clear();
        libraries.clear();
        RuntimeException failure = null;
        for (AutoCloseable c : all) {
            try {
                c.close();
            } catch (Exception e) {
                if (failure == null) failure = new IllegalStateException("closing the kernel cache of " + device.info().name(), e);
                else failure.addSuppressed(e);
            }
        }
        if (failure != null) throw failure;
    }
}
