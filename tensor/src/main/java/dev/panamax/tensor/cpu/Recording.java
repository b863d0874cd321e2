package dev.panamax.tensor.cpu;

/**
 * One recording of one thread's {@link Recorder}: the kernels recorded from one run to the next.
 * A storage that a kernel of it writes notes the recording ({@link Track#writer}); any thread that
 * needs the storage's values (to read, free, or compute on them) and finds the recording not yet
 * {@linkplain #ran run} has it run first, under its recorder's lock. {@code ran} is written after the
 * kernels ran and read without a lock, so seeing it set also makes their results visible.
 */
final class Recording {
    final Recorder recorder;
    /** Whether every kernel of this recording has run (or the recording was dropped after a failure). */
    volatile boolean ran;
    /**
     * Whether a kernel of this recording touches storage another thread's recorder made, so that a
     * free or scope end on any thread must run it first; guarded by the recorder's lock.
     */
    boolean shared;
    /** Whether any storage notes this recording; guarded by the recorder's lock. */
    boolean noted;

    Recording(Recorder recorder) {
        this.recorder = recorder;
    }
}
