package dev.panamax.opencl.compute;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The calls a replay makes for a run of commands, in order, with their parameters as raw values:
 * what {@link ReplayPlanner} produces and {@link RecordedBatch} writes into the queue's batch. A
 * queue keeps one plan and refills it for every batch, so a commit allocates nothing once the plan
 * has grown to its command buffers' size; {@link #calls()} gives the same plan as values.
 *
 * <p>Every enqueue ends in (wait count, wait list, event): the plan sets the last enqueue's event
 * to the run's completion slot ({@link #complete}) and can make the first one wait for a gate
 * ({@link #waitFirstEnqueueFor}).
 */
final class ReplayPlan {
    private static final int STRIDE = ClCall.MAX_PARAMETERS;

    private ClCall[] calls = new ClCall[64];
    private long[] params = new long[64 * STRIDE];
    /** For each entry, the command it belongs to, and for argument entries the argument index (else -1). */
    private int[] entryCommand = new int[64];
    private int[] entryArgument = new int[64];
    private int size;
    private int firstEnqueue = -1;
    private int lastEnqueue = -1;
    private int enqueues;

    /** Empties the plan for the next batch. */
    void clear() {
        size = 0;
        firstEnqueue = -1;
        lastEnqueue = -1;
        enqueues = 0;
    }

    int size() {
        return size;
    }

    ClCall call(int entry) {
        return calls[entry];
    }

    long parameter(int entry, int k) {
        return params[entry * STRIDE + k];
    }

    /** The command entry {@code entry} belongs to; -1 for the closing marker and flush. */
    int command(int entry) {
        return entryCommand[entry];
    }

    /** The argument index of a {@link ClCall#SET_ARG} entry, else -1. */
    int argument(int entry) {
        return entryArgument[entry];
    }

    /** How many enqueues the plan makes. */
    int enqueues() {
        return enqueues;
    }

    /** Whether the last entry is an enqueue. */
    boolean endsInEnqueue() {
        return lastEnqueue >= 0 && lastEnqueue == size - 1;
    }

    /** The plan as values, for tests and diagnostics. */
    List<PlannedCall> calls() {
        List<PlannedCall> out = new ArrayList<>(size);
        for (int e = 0; e < size; e++) {
            ClCall c = calls[e];
            List<Long> p = new ArrayList<>(c.parameters());
            for (int k = 0; k < c.parameters(); k++) p.add(params[e * STRIDE + k]);
            out.add(new PlannedCall(c, entryCommand[e], entryArgument[e], p));
        }
        return out;
    }

    // ------------------------------------------------------------------ for the emitter

    /** The calls' array, {@link #size()} of them valid; read only. */
    ClCall[] callArray() {
        return calls;
    }

    /** The parameters' array, {@link ClCall#MAX_PARAMETERS} slots per entry; read only. */
    long[] parameterArray() {
        return params;
    }

    // ------------------------------------------------------------------ building

    /** Adds a call; its parameters are set next. */
    int add(ClCall call, int command, int argument) {
        int e = size++;
        if (e == calls.length) grow(e + 1);
        calls[e] = call;
        entryCommand[e] = command;
        entryArgument[e] = argument;
        return e;
    }

    /** Adds an enqueue of command {@code command}; its parameters are set next. */
    int addEnqueue(ClCall call, int command) {
        int e = add(call, command, -1);
        if (firstEnqueue < 0) firstEnqueue = e;
        lastEnqueue = e;
        enqueues++;
        return e;
    }

    /** Adds the last enqueue again for commands {@code first} to {@code last}: a dispatch the encoder recorded again. */
    void repeatLastEnqueue(int first, int last) {
        int entry = lastEnqueue;
        int n = last - first + 1, from = size, to = size + n;
        if (to > calls.length) grow(to);
        Arrays.fill(calls, from, to, calls[entry]);
        Arrays.fill(entryArgument, from, to, -1);
        for (int e = from; e < to; e++) entryCommand[e] = first + (e - from);
        long[] p = params;
        int src = entry * STRIDE;
        for (int e = from; e < to; e++) System.arraycopy(p, src, p, e * STRIDE, STRIDE);
        size = to;
        lastEnqueue = to - 1;
        enqueues += n;
    }

    void set(int e, long a0) {
        params[e * STRIDE] = a0;
    }

    void set(int e, long a0, long a1, long a2, long a3) {
        int o = e * STRIDE;
        long[] p = params;
        p[o] = a0;
        p[o + 1] = a1;
        p[o + 2] = a2;
        p[o + 3] = a3;
    }

    void set(int e, long a0, long a1, long a2, long a3, long a4, long a5, long a6, long a7, long a8) {
        int o = e * STRIDE;
        long[] p = params;
        p[o] = a0;
        p[o + 1] = a1;
        p[o + 2] = a2;
        p[o + 3] = a3;
        p[o + 4] = a4;
        p[o + 5] = a5;
        p[o + 6] = a6;
        p[o + 7] = a7;
        p[o + 8] = a8;
    }

    // ------------------------------------------------------------------ closing the batch

    /**
     * Ends the batch: with {@code eventAddress} (else -1) the run's completion event goes there,
     * from the last enqueue (an in-order queue: it completes after every command before it) or
     * from a marker when nothing is enqueued; then a flush.
     *
     * @return the number of entries before the ones this added
     */
    int complete(long queue, long eventAddress) {
        int planned = size;
        if (eventAddress >= 0) {
            if (lastEnqueue >= 0) {
                params[lastEnqueue * STRIDE + calls[lastEnqueue].parameters() - 1] = eventAddress;
            } else {
                set(add(ClCall.MARKER, -1, -1), queue, 0, 0, eventAddress);
            }
        }
        set(add(ClCall.FLUSH, -1, -1), queue);
        return planned;
    }

    /** Makes the first enqueue wait for the one event whose handle lies at {@code eventListAddress}. */
    void waitFirstEnqueueFor(long eventListAddress) {
        int waitCount = calls[firstEnqueue].parameters() - 3; // every enqueue ends (count, wait list, event)
        params[firstEnqueue * STRIDE + waitCount] = 1;
        params[firstEnqueue * STRIDE + waitCount + 1] = eventListAddress;
    }

    /** Makes the first enqueue wait for nothing again. */
    void waitFirstEnqueueForNothing() {
        int waitCount = calls[firstEnqueue].parameters() - 3;
        params[firstEnqueue * STRIDE + waitCount] = 0;
        params[firstEnqueue * STRIDE + waitCount + 1] = 0;
    }

    private void grow(int entries) {
        int n = Math.max(entries, calls.length * 2);
        calls = Arrays.copyOf(calls, n);
        params = Arrays.copyOf(params, n * STRIDE);
        entryCommand = Arrays.copyOf(entryCommand, n);
        entryArgument = Arrays.copyOf(entryArgument, n);
    }
}
