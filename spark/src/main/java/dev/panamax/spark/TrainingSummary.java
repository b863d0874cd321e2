package dev.panamax.spark;

import java.io.Serializable;
import java.util.List;

/**
 * How a {@link PanamaxClassifier#fit} went.
 *
 * @param partitions     partitions that trained (each on its own rows)
 * @param rounds         synchronisations: each a round of local steps, a {@code treeAggregate} and a broadcast
 * @param stepsPerRound  local steps between synchronisations (K)
 * @param meanLoss       the partitions' mean training loss in each round, in order
 * @param seconds        wall time of the whole fit
 */
public record TrainingSummary(int partitions, int rounds, int stepsPerRound, List<Double> meanLoss, double seconds) implements Serializable {
    public TrainingSummary {
        meanLoss = List.copyOf(meanLoss);
    }
}
