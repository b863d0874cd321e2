package dev.panamax.compute;

import dev.panamax.core.memory.AllocatesForCaller;

import java.util.List;

/**
 * Compiled kernel source. Made by {@link ComputeDevice#newLibrary(String)}; a failing build throws
 * {@link LibraryBuildException} with the compiler's log and the failing line. Libraries are cached
 * per device by source and options while alive: asking twice for the same source compiles once.
 * The cache holds the compiled program, never the library: a library dropped unclosed is freed by
 * the GC (and reported as a leak), and the program goes with the last library that used it.
 */
@AllocatesForCaller
public abstract class Library extends Resource {
    /** For backends: {@code handle} owns the compiled program (see {@link Resource}). */
    protected Library(ComputeDevice device, dev.panamax.core.memory.NativeHandle handle) {
        super(device, handle);
    }

    /** The kernel functions it defines. */
    public abstract List<String> functionNames();

    /**
     * A pipeline for {@code function}, with its argument metadata.
     *
     * @throws IllegalArgumentException naming the functions there are, when there is none of that name
     */
    public abstract ComputePipeline newPipeline(String function);
}
