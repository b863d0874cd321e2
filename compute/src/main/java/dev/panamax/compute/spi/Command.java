package dev.panamax.compute.spi;

import dev.panamax.compute.Buffer;
import dev.panamax.compute.ComputePipeline;
import dev.panamax.compute.NativeCommand;
import dev.panamax.compute.Size;

import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.function.Consumer;

/**
 * One recorded command of a command buffer, as its backend replays it at commit. Commands are
 * immutable snapshots: a dispatch carries the whole argument table as it was when encoded.
 */
public sealed interface Command {
    /** What it is, for messages: {@code dispatch 'saxpy'}, {@code copy}. */
    String describe();

    /**
     * A kernel run of {@code grid} threads in groups of {@code threadgroup}; the encoder has checked
     * that the grid is a whole number of groups in every dimension. {@code exactGrid}: encoded by
     * {@code dispatchThreads} (the grid given in threads), else by {@code dispatchThreadgroups}.
     */
    record Dispatch(ComputePipeline pipeline, Argument[] arguments, Size grid, Size threadgroup, boolean exactGrid) implements Command {
        @Override
        public String describe() {
            return "dispatch '" + pipeline.name() + "'";
        }
    }

    /** {@code bytes} from one buffer to another. */
    record Copy(Buffer source, long sourceOffset, Buffer destination, long destinationOffset, long bytes) implements Command {
        @Override
        public String describe() {
            return "copy of " + bytes + " bytes";
        }
    }

    /** {@code bytes} of a buffer set to {@code value}. */
    record Fill(Buffer buffer, long offset, long bytes, byte value) implements Command {
        @Override
        public String describe() {
            return "fill of " + bytes + " bytes";
        }
    }

    /** {@code data} (a snapshot taken when encoded, or the caller's native segment) written into a buffer. */
    record Write(Buffer buffer, long offset, MemorySegment data) implements Command {
        @Override
        public String describe() {
            return "write of " + data.byteSize() + " bytes";
        }
    }

    /** {@code bytes} of a buffer read; {@code deliver} receives them when the command buffer completes. */
    record Read(Buffer buffer, long offset, long bytes, Consumer<MemorySegment> deliver) implements Command {
        @Override
        public String describe() {
            return "read of " + bytes + " bytes";
        }
    }

    /** Later commands see the memory effects of earlier ones. */
    record Barrier() implements Command {
        @Override
        public String describe() {
            return "memory barrier";
        }
    }

    /**
     * A native library's work, enqueued by {@code command} onto the backend's native queue at this
     * place in order; {@code uses}: the buffers it may name, held until the command buffer completes
     * (an unmodifiable list, each buffer of the queue's device).
     */
    record Native(String description, List<Buffer> uses, NativeCommand command) implements Command {
        @Override
        public String describe() {
            return "native command '" + description + "'";
        }
    }
}
