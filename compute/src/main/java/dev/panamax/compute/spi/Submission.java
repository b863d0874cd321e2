package dev.panamax.compute.spi;

import dev.panamax.compute.CommandBufferException;
import dev.panamax.compute.References;
import dev.panamax.compute.Validation;

import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A committed command buffer as its {@link QueueDriver} receives it: the commands in order, how it
 * was made, and the call that finishes it. Its label is made only when a message needs it.
 */
public final class Submission {
    private final Supplier<String> label;
    private final List<Command> commands;
    private final References references;
    private final Validation validation;
    private final Consumer<CommandBufferException> onFinished;
    private final Runnable referenceRelease;
    private final PreparedRecording prepared;
    /** The driver's own state for this run (events, scratch memory). */
    private volatile Object driverState;
    private volatile boolean notifyOnCompletion;
    private volatile boolean finished;

    public Submission(Supplier<String> label, List<Command> commands, References references, Validation validation,
                      Consumer<CommandBufferException> onFinished) {
        this(label, commands, references, validation, onFinished, () -> { });
    }

    /**
     * As above, with {@code referenceRelease}: what drops the references the command buffer holds on
     * its resources until completion (idempotent; it refers to the resources, never to the command
     * buffer or its queue).
     */
    public Submission(Supplier<String> label, List<Command> commands, References references, Validation validation,
                      Consumer<CommandBufferException> onFinished, Runnable referenceRelease) {
        this(label, commands, references, validation, onFinished, referenceRelease, null);
    }

    /**
     * As above, for a submission of a recording: {@code prepared} is what the driver made of its
     * commands when they were recorded ({@link QueueDriver#prepare}), or null.
     */
    public Submission(Supplier<String> label, List<Command> commands, References references, Validation validation,
                      Consumer<CommandBufferException> onFinished, Runnable referenceRelease, PreparedRecording prepared) {
        this.label = label;
        this.commands = commands;
        this.references = references;
        this.validation = validation;
        this.onFinished = onFinished;
        this.referenceRelease = referenceRelease;
        this.prepared = prepared;
    }

    /** What the driver made of a recording's commands when they were recorded; null for any other command buffer. */
    public PreparedRecording prepared() {
        return prepared;
    }

    /** {@code command buffer 'step'}: how messages name it. */
    public String label() {
        return label.get();
    }

    public List<Command> commands() {
        return commands;
    }

    public References references() {
        return references;
    }

    public Validation validation() {
        return validation;
    }

    /** Whether the run must be finished when the device completes it, waiter or not (handlers, a future). */
    public boolean notifyOnCompletion() {
        return notifyOnCompletion;
    }

    /** Asks for {@link #notifyOnCompletion()}; the caller then tells the driver ({@link QueueDriver#notifyOnCompletion}). */
    public void requestNotifyOnCompletion() {
        notifyOnCompletion = true;
    }

    /**
     * Drops the references the command buffer holds on its resources, once, whoever asks first: its
     * finish, or a driver that frees a queue the GC found while this run was unfinished (nobody will
     * finish it then). A driver keeps the returned object, not the submission: it refers to the
     * resources only, so holding it keeps no queue alive.
     */
    public Runnable referenceRelease() {
        return referenceRelease;
    }

    /** Whether {@link #finished} was called. */
    public boolean isFinished() {
        return finished;
    }

    public Object driverState() {
        return driverState;
    }

    public void driverState(Object state) {
        this.driverState = state;
    }

    /** {@code command buffer 'step' command 3 (dispatch 'saxpy')}. */
    public String where(int commandIndex) {
        return label() + " command " + commandIndex + " (" + commands.get(commandIndex).describe() + ")";
    }

    /** The run is over: {@code error} is null when every command completed. Call once. */
    public void finished(CommandBufferException error) {
        finished = true;
        onFinished.accept(error);
    }
}
