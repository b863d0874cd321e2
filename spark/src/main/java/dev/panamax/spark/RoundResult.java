package dev.panamax.spark;

import java.io.Serializable;

/**
 * What partitions send back after a round of local steps, summed by {@code treeAggregate}: their
 * states added up, how many there were, and their losses added up.
 *
 * @param state      the sum of the partitions' states; null in the zero value
 * @param partitions partitions summed
 * @param lossSum    the sum of each partition's mean loss over its steps
 */
record RoundResult(ModelState state, int partitions, double lossSum) implements Serializable {
    static final RoundResult NONE = new RoundResult(null, 0, 0);

    /** The sum of two encoded results ({@link Wire}), encoded; an empty array is the zero value. */
    static byte[] plus(byte[] a, byte[] b) {
        if (a.length == 0) return b;
        if (b.length == 0) return a;
        return Wire.encode(Wire.decode(a, RoundResult.class).plus(Wire.decode(b, RoundResult.class)));
    }

    RoundResult plus(RoundResult other) {
        if (other.state == null) return this;
        if (state == null) return other;
        return new RoundResult(state.plus(other.state), partitions + other.partitions, lossSum + other.lossSum);
    }

    /** The partitions' mean state. */
    ModelState mean() {
        return state.times(1.0 / partitions);
    }

    double meanLoss() {
        return lossSum / partitions;
    }
}
