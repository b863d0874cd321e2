package dev.panamax.compute;

import dev.panamax.compute.spi.Command;
import dev.panamax.compute.spi.PreparedRecording;
import dev.panamax.compute.spi.Submission;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * A list of commands recorded in Java and handed to the device in one go by {@link #commit()}.
 * Made by a {@link CommandQueue}; encoded by one thread at a time through its encoders; used once.
 *
 * <pre>{@code
 * CommandBuffer cb = queue.commandBuffer();
 * try (ComputeEncoder e = cb.computeEncoder()) {
 *     e.setPipeline(saxpy).setBuffer(0, x).setBuffer(1, y).setFloat(2, 2f).dispatchThreads(Size.of(n), Size.of(64));
 * }
 * cb.addCompletedHandler(status -> log(status));   // before commit, as Metal requires
 * cb.commit();                                     // does not block (unless the queue is full)
 * cb.completion().join();                          // or waitUntilCompleted()
 * }</pre>
 *
 * Its kind ({@link References}, {@link Validation}) is aruminium's table: a RETAINED buffer takes a
 * reference on every resource it uses at commit and keeps it until it completes (closing one
 * meanwhile is safe); a CHECKED one checks each command when encoded. Both refuse at commit a
 * resource closed since it was encoded; only an UNRETAINED UNCHECKED one trusts the caller. A failing command does not throw from {@code commit()}:
 * the status becomes {@link CommandBufferStatus#ERROR}, {@link #error()} names the command,
 * {@link #waitUntilCompleted()} throws it and {@link #completion()} fails with it.
 *
 * <p>Finishing (reads delivered, references dropped, the in-flight slot given back) happens in
 * {@link #waitUntilCompleted()}, or, when handlers or the future ask for it, as soon as the device is
 * done; a command buffer nobody waits for and nothing asked about is finished by the next commit
 * that needs its slot, or by the queue's {@code waitUntilIdle()} and {@code close()}.
 */
public final class CommandBuffer {
    /** Marks a resource as noted by one command buffer (see {@link #use}). */
    private static final AtomicLong SERIALS = new AtomicLong();
    private static final VarHandle COMMITTING;

    static {
        try {
            COMMITTING = MethodHandles.lookup().findVarHandle(CommandBuffer.class, "committing", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * Bound to the command's name while a native command runs: blocking on a command buffer or queue
     * from inside one would wait for the very commit that is calling it.
     */
    private static final ScopedValue<String> NATIVE_COMMAND = ScopedValue.newInstance();

    private final CommandQueue queue;
    private final References references;
    private final Validation validation;
    private final long number;
    private final long serial = SERIALS.incrementAndGet();
    /** Null until {@link #label(String)}: then {@code command buffer 'name'}. */
    private String label;
    private List<Command> commands;
    /** Resources used, each once (almost: see {@link #use}); RETAINED: the ones referenced from commit to completion. */
    private Resource[] used = new Resource[4];
    private int usedCount;
    private Resource lastResource;
    /** RETAINED, from commit: drops the references taken at commit, once (see {@link Submission#referenceRelease()}). */
    private ResourceLease held;
    private List<CompletedHandler> handlers;
    /** Made when asked for; guarded by this. */
    private CompletableFuture<CommandBuffer> completion;
    private boolean finished;
    private Object openEncoder;
    private volatile CommandBufferStatus status = CommandBufferStatus.NOT_ENQUEUED;
    /** Set by the one commit that hands it over (through COMMITTING), before anything else it does. */
    private volatile boolean committing;
    private volatile CommandBufferException error;
    /** Whether the future was asked for: the run is then finished when the device completes it, waiter or not. */
    private volatile boolean notify;
    private volatile Submission submission;
    /** Set by {@link #record()}: its commands went to a {@link RecordedCommands}. */
    private boolean recorded;
    /** A submission of a recording: the recording holds the resources, so commit leases nothing. */
    private boolean trusted;
    /** A submission of a recording: what the driver made of the recording's commands, or null. */
    private PreparedRecording prepared;
    /** Made for {@link #record()} only ({@link CommandQueue#commandBufferForRecording()}): each resource is pinned when first used. */
    private boolean pinsOnUse;

    CommandBuffer(CommandQueue queue, long number, References references, Validation validation) {
        this.queue = queue;
        this.number = number;
        this.references = references;
        this.validation = validation;
        this.commands = new ArrayList<>(queue.commandCapacity());
    }

    /** Names it in messages: {@code command buffer 'step 7'}. */
    public CommandBuffer label(String label) {
        this.label = "command buffer '" + label + "'";
        return this;
    }

    /** {@code command buffer #12} or {@code command buffer 'step 7'}. */
    public String label() {
        String l = label;
        return l != null ? l : "command buffer #" + number;
    }

    public References references() {
        return references;
    }

    public Validation validation() {
        return validation;
    }

    public CommandQueue queue() {
        return queue;
    }

    /** Commands encoded so far. */
    public int commandCount() {
        List<Command> c = commands;
        return c == null ? 0 : c.size();
    }

    /** An encoder for kernel dispatches; end it (close) before the next encoder or the commit. */
    public ComputeEncoder computeEncoder() {
        ensureEncodable("a compute encoder");
        ComputeEncoder e = new ComputeEncoder(this);
        openEncoder = e;
        return e;
    }

    /** An encoder for copies, fills, reads and writes; end it (close) before the next encoder or the commit. */
    public BlitEncoder blitEncoder() {
        ensureEncodable("a blit encoder");
        BlitEncoder e = new BlitEncoder(this);
        openEncoder = e;
        return e;
    }

    /**
     * Encodes a native library's work at this place in order (see {@link NativeCommand}): at commit,
     * {@code command} is called on the committing thread with the backend's {@link NativeQueue} after
     * the commands before it were handed to the device, and what it enqueues runs before the commands
     * after it. {@code uses} names every buffer it passes to the library: they are held until the
     * command buffer completes, as a dispatch's arguments are, and only they have a native handle.
     * No encoder may be open.
     *
     * <pre>{@code
     * try (ComputeEncoder e = cb.computeEncoder()) { e.setPipeline(prepare).setBuffer(0, a).dispatchThreads(grid, group); }
     * cb.encodeNative("sgemm", List.of(a, b, c), queue -> sgemm(queue, a, b, c));
     * try (ComputeEncoder e = cb.computeEncoder()) { e.setPipeline(relu).setBuffer(0, c).dispatchThreads(grid, group); }
     * cb.commit();
     * }</pre>
     *
     * @param description names the command in messages ({@code native command 'sgemm'})
     * @throws EncodingException when an encoder is open, after commit, or when an argument is missing,
     *                           a buffer is null, closed, or of another device
     */
    public CommandBuffer encodeNative(String description, List<Buffer> uses, NativeCommand command) {
        ensureEncodable("a native command");
        String where = where();
        if (description == null || description.isBlank())
            throw new EncodingException(where + " (native command): the description is " + (description == null ? "null" : "blank"));
        String what = where + " (native command '" + description + "')";
        if (command == null) throw new EncodingException(what + ": the command is null");
        if (uses == null) throw new EncodingException(what + ": the list of buffers it uses is null (List.of() for none)");
        Buffer[] buffers = uses.toArray(Buffer[]::new);
        ComputeDevice device = queue.device();
        for (int i = 0; i < buffers.length; i++) {
            Buffer b = buffers[i];
            if (b == null) throw new EncodingException(what + ": buffer " + i + " of its uses is null");
            // checked in every mode: native code gets the buffer's handle, and cannot be validated
            if (b.device() != device)
                throw new EncodingException(what + ": " + b.describe() + " belongs to another device (" + b.device().info().name()
                        + "), not this queue's (" + device.info().name() + ")");
            if (b.isClosed()) throw new EncodingException(what + ": " + b.describe() + " is closed");
        }
        for (Buffer b : buffers) use(b);
        String named = "native command '" + description + "'";
        add(new Command.Native(description, List.of(buffers), q -> ScopedValue.where(NATIVE_COMMAND, named).run(() -> command.enqueue(q))));
        return this;
    }

    /**
     * Refuses a call that would block on the compute API from inside a native command (which would
     * wait for the commit under way on this thread).
     *
     * @throws IllegalStateException inside a native command
     */
    static void refuseInsideNativeCommand(String what) {
        if (NATIVE_COMMAND.isBound())
            throw new IllegalStateException(what + " from inside " + NATIVE_COMMAND.get() + ": a native command only enqueues native "
                    + "work onto its queue; wait, commit or close after the commit that calls it has returned");
    }

    /**
     * Runs {@code handler} with the final status once the command buffer is finished, on the queue's
     * executor. Must be called before {@link #commit()} (Metal's rule).
     */
    public CommandBuffer addCompletedHandler(CompletedHandler handler) {
        if (handler == null) throw new IllegalArgumentException("handler is null");
        if (status != CommandBufferStatus.NOT_ENQUEUED)
            throw new EncodingException(label() + ": a completed handler must be added before commit (status " + status + ")");
        if (handlers == null) handlers = new ArrayList<>(2);
        handlers.add(handler);
        return this;
    }

    /**
     * Hands every command to the device in one go and returns without waiting for them (it blocks
     * only while the queue has its maximum of command buffers in flight). Committing is one atomic
     * step: of several threads committing one command buffer, exactly one hands it over.
     *
     * @throws EncodingException     when an encoder is still open, when committed twice (or by another
     *                               thread at once), or when a resource it uses was closed (RETAINED or CHECKED)
     * @throws IllegalStateException when its queue is closed
     */
    public void commit() {
        if (openEncoder != null)
            throw new EncodingException(label() + ": end the open " + openEncoder.getClass().getSimpleName() + " (close it) before commit");
        if (recorded) throw new EncodingException(label() + " was recorded; submit its RecordedCommands instead of committing it");
        if (pinsOnUse) throw new EncodingException(label() + " was made for recording; record() it instead of committing it");
        if (!COMMITTING.compareAndSet(this, false, true)) {
            CommandBufferStatus st = status;
            throw new EncodingException(label() + " was already committed" + (st == CommandBufferStatus.NOT_ENQUEUED
                    ? " (another thread is committing it now)" : " (status " + st + ")"));
        }
        try {
            queue.beginCommit(label());
            try {
                handOver();
            } finally {
                queue.endCommit();
            }
        } finally {
            // refused before the hand-over (a closed resource or queue): still NOT_ENQUEUED, and may be committed again
            if (status == CommandBufferStatus.NOT_ENQUEUED) committing = false;
        }
    }

    /** Leases the resources, takes a slot and submits; a refusal throws before any of it took effect. */
    private void handOver() {
        // RETAINED: held until completion; UNRETAINED CHECKED: held while the commands are handed over
        boolean leased = !trusted && (references == References.RETAINED || validation == Validation.CHECKED);
        Resource[] lease = used;
        int leaseCount = usedCount;
        if (leased) leaseForCommit();
        ResourceLease retained = references == References.RETAINED ? new ResourceLease(lease, leaseCount) : null;
        Submission s;
        try {
            queue.acquireSlot();
            try {
                s = prepared != null ? new Submission(this::label, commands, references, validation, this::finished, () -> { }, prepared)
                        : retained == null ? new Submission(this::label, commands, references, validation, this::finished)
                        : new Submission(this::label, commands, references, validation, this::finished, retained);
            } catch (Throwable t) {
                queue.returnSlot();
                throw t;
            }
        } catch (Throwable t) {
            if (leased) release(lease, leaseCount);
            throw t;
        }
        held = retained;
        submission = s; // before the status: a waiter that sees COMMITTED finds the submission
        status = CommandBufferStatus.COMMITTED;
        if (notify || handlers != null) s.requestNotifyOnCompletion(); // after submission: completion() on another thread sees one or the other
        queue.committed(this);
        try {
            queue.submit(s);
        } catch (Throwable t) {
            if (!s.isFinished()) s.finished(new CommandBufferException(label() + " could not be submitted: " + t, -1, t));
        } finally {
            if (leased && references == References.UNRETAINED) release(lease, leaseCount);
        }
    }

    /**
     * Instead of {@link #commit()}: keeps the commands as a {@link RecordedCommands} that
     * {@link RecordedCommands#submit()} hands to the device again and again. The recording takes a
     * reference on every resource the commands use and keeps it until it closes, whatever this
     * command buffer's {@link References}; this command buffer can then be neither committed nor
     * recorded again. Its completed handlers are not carried over: each submission is a command
     * buffer of its own, to wait on or ask about.
     *
     * @throws EncodingException when an encoder is still open, when it was committed or recorded
     *                           already, or when a resource it uses was closed
     * @throws IllegalStateException when its queue is closed
     */
    public RecordedCommands record() {
        if (openEncoder != null)
            throw new EncodingException(label() + ": end the open " + openEncoder.getClass().getSimpleName() + " (close it) before record");
        if (recorded) throw new EncodingException(label() + " was already recorded");
        if (!COMMITTING.compareAndSet(this, false, true)) {
            throw new EncodingException(label() + " was already committed (status " + status + "); record it instead of committing it");
        }
        if (queue.isClosed()) {
            committing = false;
            throw new IllegalStateException("command queue is closed");
        }
        if (!pinsOnUse) {
            try {
                leaseForCommit(); // held by the recording until it closes
            } catch (RuntimeException e) {
                committing = false;
                throw e;
            }
        }
        recorded = true;
        committing = false;
        List<Command> kept = List.copyOf(commands);
        Runnable lease = pinsOnUse ? new ResourcePins(used, usedCount) : new ResourceLease(used, usedCount);
        used = null;
        usedCount = 0;
        lastResource = null;
        commands = null;
        PreparedRecording prepared;
        try {
            prepared = queue.driver().prepare(kept);
        } catch (RuntimeException e) {
            lease.run();
            throw e;
        }
        return new RecordedCommands(queue, label(), kept, validation, lease, prepared);
    }

    /** A command buffer that pins each resource when first used, and can only be recorded. */
    static CommandBuffer forRecording(CommandQueue queue, long number, Validation validation) {
        CommandBuffer cb = new CommandBuffer(queue, number, References.UNRETAINED, validation);
        cb.pinsOnUse = true;
        return cb;
    }

    /** A command buffer of {@code recording}'s commands, its resources held by the recording. */
    static CommandBuffer ofRecording(CommandQueue queue, long number, List<Command> commands, Validation validation,
                                     PreparedRecording prepared, String label) {
        CommandBuffer cb = new CommandBuffer(queue, number, References.UNRETAINED, validation);
        cb.prepared = prepared;
        cb.commands = commands;
        cb.label = label;
        cb.trusted = true;
        return cb;
    }

    /**
     * NOT_ENQUEUED, COMMITTED, COMPLETED or ERROR. A committed buffer asks the device without
     * blocking: once the device has run it, it reads COMPLETED (or ERROR) and its resources and
     * in-flight slot are given back, whether or not anyone waits or registered a handler.
     */
    public CommandBufferStatus status() {
        CommandBufferStatus st = status;
        if (st == CommandBufferStatus.COMMITTED) {
            Submission s = submission;
            if (s != null && s.driverState() != null) {
                queue.driver().poll(s);
                st = status;
            }
        }
        return st;
    }

    /** The failure, when the status is ERROR. */
    public Optional<CommandBufferException> error() {
        return Optional.ofNullable(error);
    }

    /**
     * Blocks until the command buffer is finished. Returns COMPLETED, or throws the command buffer's
     * error; its status stays queryable ({@link #status()} is then ERROR and {@link #error()} holds
     * the failure). Its handlers may still be running. Any number of threads may wait; the first
     * one to see the device done finishes the command buffer on its own thread.
     *
     * <pre>{@code
     * cb.commit();
     * try {
     *     cb.waitUntilCompleted();
     * } catch (CommandBufferException failed) {   // names the command buffer and the failing command
     *     log(failed.getMessage(), cb.status());  // ERROR
     * }
     * }</pre>
     *
     * @throws CommandBufferException when the command buffer failed (status ERROR): a new exception
     *                                with the same message and command index, caused by {@link #error()}
     * @throws IllegalStateException  when it was never committed
     */
    public CommandBufferStatus waitUntilCompleted() {
        CommandBufferStatus st = awaitFinished();
        if (st == CommandBufferStatus.ERROR) {
            CommandBufferException e = error;
            throw new CommandBufferException(e.getMessage(), e.commandIndex(), e);
        }
        return st;
    }

    /** Blocks until finished and returns COMPLETED or ERROR, without throwing the error. */
    CommandBufferStatus awaitFinished() {
        CommandBufferStatus st = status;
        while (st == CommandBufferStatus.NOT_ENQUEUED && committing) { // another thread is handing it over
            LockSupport.parkNanos(20_000);
            st = status;
        }
        if (st == CommandBufferStatus.NOT_ENQUEUED) throw new IllegalStateException(label() + " was not committed");
        if (st.isFinished()) return st;
        refuseInsideNativeCommand("waiting for " + label());
        Submission s = submission;
        boolean interrupted = false;
        while (true) {
            try {
                queue.driver().await(s);
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) Thread.currentThread().interrupt();
        return status;
    }

    /**
     * Completes with this command buffer when it finished, or fails with its
     * {@link CommandBufferException}. Dependent stages given without an executor run on the thread
     * that finished it (the queue's executor or a waiting thread), never the driver's.
     */
    public CompletableFuture<CommandBuffer> completion() {
        CompletableFuture<CommandBuffer> f;
        boolean done;
        synchronized (this) {
            f = completion;
            if (f != null) return f;
            f = completion = new CompletableFuture<>();
            done = finished;
        }
        if (done) {
            complete(f, error);
        } else {
            notify = true;
            Submission s = submission;
            if (s != null) {
                s.requestNotifyOnCompletion();
                queue.driver().notifyOnCompletion(s);
            }
        }
        return f;
    }

    @Override
    public String toString() {
        return label() + " [" + status + ", " + commandCount() + " commands, " + references + ", " + validation + "]";
    }

    // ---------------------------------------------------------------- for the encoders

    String where() {
        return label() + " command " + commandCount();
    }

    void ensureEncodable(String what) {
        if (status != CommandBufferStatus.NOT_ENQUEUED)
            throw new EncodingException(label() + ": cannot make " + what + " after commit (status " + status + ")");
        if (openEncoder != null)
            throw new EncodingException(label() + ": end the open " + openEncoder.getClass().getSimpleName() + " (close it) before making " + what);
    }

    void ensureOpenForCommands(Object encoder) {
        if (openEncoder != encoder || status != CommandBufferStatus.NOT_ENQUEUED) refuseCommand(encoder);
    }

    private void refuseCommand(Object encoder) {
        if (status != CommandBufferStatus.NOT_ENQUEUED)
            throw new EncodingException(label() + ": cannot encode after commit (status " + status + ")");
        throw new EncodingException(label() + ": this " + encoder.getClass().getSimpleName() + " was ended; make a new encoder");
    }

    void encoderEnded(Object encoder) {
        if (openEncoder == encoder) openEncoder = null;
    }

    void add(Command c) {
        commands.add(c);
    }

    /**
     * Notes a resource the next command uses. Each is noted once: the resource remembers the last
     * command buffer that noted it. Command buffers encoded at once on other threads may make one
     * note a resource twice; it is then referenced twice and released twice, which is harmless.
     */
    void use(Resource r) {
        if (r == lastResource) return;
        lastResource = r;
        if (r.notedBy == serial) return;
        if (pinsOnUse) {
            try {
                r.handle().pin(); // the recording keeps it from now on, whatever its owner does
            } catch (RuntimeException e) {
                lastResource = null;
                throw new EncodingException(where() + ": " + r.describe() + " was already freed (" + e.getMessage() + ")");
            }
        }
        r.notedBy = serial;
        if (usedCount == used.length) used = Arrays.copyOf(used, usedCount * 2);
        used[usedCount++] = r;
    }

    // ---------------------------------------------------------------- commit and completion

    private void leaseForCommit() {
        for (int i = 0; i < usedCount; i++) {
            Resource r = used[i];
            if (!r.acquire()) {
                for (int j = 0; j < i; j++) used[j].releaseReference();
                throw new EncodingException(label() + " uses " + r.describe() + ", which was closed before commit"
                        + (references == References.RETAINED ? " (a command buffer keeps its resources from commit to completion)"
                        : " (an UNRETAINED command buffer needs its resources kept open until it completes)"));
            }
        }
    }

    static void release(Resource[] resources, int count) {
        for (int i = 0; i < count; i++) resources[i].releaseReference();
    }

    private void finished(CommandBufferException failure) {
        CompletableFuture<CommandBuffer> f;
        synchronized (this) {
            if (finished) return;
            finished = true;
            error = failure;
            status = failure == null ? CommandBufferStatus.COMPLETED : CommandBufferStatus.ERROR;
            f = completion;
        }
        if (held != null) {
            held.run();
            held = null;
        }
        used = null;
        usedCount = 0;
        lastResource = null;
        commands = null;
        queue.releaseSlot(this);
        if (handlers != null) {
            CommandBufferStatus st = status;
            String l = label();
            for (CompletedHandler h : handlers) queue.runHandler(h, st, l);
        }
        if (f != null) complete(f, failure);
    }

    private void complete(CompletableFuture<CommandBuffer> f, CommandBufferException failure) {
        if (failure == null) f.complete(this);
        else f.completeExceptionally(failure);
    }
}
