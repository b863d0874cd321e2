package dev.panamax.compute;

import dev.panamax.compute.spi.Command;
import dev.panamax.compute.spi.PreparedRecording;

import java.util.List;

/**
 * A command list kept for repeated submission ({@link CommandBuffer#record()}), as CUDA graphs
 * are instantiated once and launched many times: each {@link #submit()} hands the same commands to
 * the device again, as a command buffer of their own, in the queue's order with every other commit,
 * with no encoding or validation in Java (both were done once, when the commands were encoded).
 * What the commands read when they run (the contents of their buffers) may change between
 * submissions; what they are (pipelines, buffers, sizes, values set inline, native commands) may
 * not. A heap write repeats the bytes copied when it was encoded; a read delivers again into its
 * destination; a native command is called again, with the queue, by each submission.
 *
 * <pre>{@code
 * CommandBuffer cb = queue.commandBuffer();
 * try (ComputeEncoder e = cb.computeEncoder()) { e.setPipeline(step).setBuffer(0, state).dispatchThreads(grid, group); }
 * try (RecordedCommands step = cb.record()) {
 *     for (int i = 0; i < 100; i++) step.submit();   // in order, without waiting
 *     step.submit().waitUntilCompleted();
 * }
 * }</pre>
 *
 * <p>The recording holds a reference on every resource its commands use until it closes; closing
 * it waits for its last submission, then lets them go. Submitting is thread-safe; a closed
 * recording refuses to submit.
 */
public final class RecordedCommands implements AutoCloseable {
    private final CommandQueue queue;
    private final String label;
    private final List<Command> commands;
    private final Validation validation;
    private final Runnable resources;
    /** What the queue's backend made of the commands, once, for every submission; null when it made nothing. */
    private final PreparedRecording prepared;
    private CommandBuffer last;
    private long submissions;
    private boolean closed;

    RecordedCommands(CommandQueue queue, String label, List<Command> commands, Validation validation, Runnable resources,
                     PreparedRecording prepared) {
        this.queue = queue;
        this.label = label;
        this.commands = commands;
        this.validation = validation;
        this.resources = resources;
        this.prepared = prepared;
    }

    /** How many commands each submission runs. */
    public int commandCount() {
        return commands.size();
    }

    /** How many times it was submitted. */
    public synchronized long submissions() {
        return submissions;
    }

    /** {@code command buffer 'step'}: the recorded command buffer's label, which messages about its submissions carry. */
    public String label() {
        return label;
    }

    /**
     * Hands the commands to the device once more and returns without waiting for them (it blocks
     * only while the queue has its maximum of command buffers in flight), as {@link CommandBuffer#commit()}
     * does. The returned command buffer, already committed, is this submission: wait on it, poll its
     * status, or ask for its completion; a failing command fails it, naming the command.
     *
     * @throws IllegalStateException when the recording or its queue is closed
     */
    public CommandBuffer submit() {
        CommandBuffer run;
        synchronized (this) {
            if (closed) throw new IllegalStateException(label + ": the recording is closed");
            submissions++;
            run = CommandBuffer.ofRecording(queue, queue.nextNumber(), commands, validation, prepared,
                    label.startsWith("command buffer '") ? label.substring(0, label.length() - 1) + " (submission " + submissions + ")'"
                            : "command buffer '" + label.substring("command buffer ".length()) + " (submission " + submissions + ")'");
            run.commit();
            last = run;
        }
        return run;
    }

    /**
     * Waits for the last submission to finish (its failure, if any, is not thrown: whoever submitted
     * it sees it), then drops the references the recording holds. Idempotent.
     */
    @Override
    public void close() {
        CommandBuffer wait;
        synchronized (this) {
            if (closed) return;
            closed = true;
            wait = last;
            last = null;
        }
        try {
            if (wait != null) wait.awaitFinished();
        } finally {
            try {
                if (prepared != null) prepared.close();
            } finally {
                resources.run();
            }
        }
    }

    @Override
    public String toString() {
        return label + " [recorded, " + commands.size() + " commands, " + submissions + " submissions]";
    }
}
