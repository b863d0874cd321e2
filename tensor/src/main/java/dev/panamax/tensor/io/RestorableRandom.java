package dev.panamax.tensor.io;

import java.util.random.RandomGenerator;

/**
 * A random generator whose whole state is one {@code long} that can be read and set in place, so a
 * {@link Checkpoint} can record it and a resumed run draws exactly the numbers the interrupted one
 * would have drawn. The algorithm is SplitMix64 (Steele, Lea and Flood), the one
 * {@link java.util.SplittableRandom} uses, whose state the JDK does not expose. Give the same
 * instance to every layer and loader that draws (dropout, shuffling) and to the checkpoint.
 *
 * <pre>{@code
 * var rng = new RestorableRandom(42);
 * var model = new Sequential(new Linear(2, 16, rng), new Dropout(0.1, rng), new Linear(16, 3, rng));
 * long saved = rng.state();
 * rng.restore(saved);    // the same numbers again from here
 * }</pre>
 */
public final class RestorableRandom implements RandomGenerator {
    /** The odd increment of SplitMix64 (the golden ratio's fraction). */
    private static final long GAMMA = 0x9e3779b97f4a7c15L;

    private long state;

    /** A generator whose state starts at {@code seed}. */
    public RestorableRandom(long seed) {
        this.state = seed;
    }

    /** The state: restoring it makes the generator repeat what it draws from now on. */
    public long state() {
        return state;
    }

    /** Sets the state to one {@link #state()} returned. */
    public void restore(long state) {
        this.state = state;
    }

    @Override
    public long nextLong() {
        long z = state += GAMMA;
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }
}
