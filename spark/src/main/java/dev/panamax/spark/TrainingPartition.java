package dev.panamax.spark;

import java.io.Serializable;

/**
 * One partition's training rows, gathered once and cached by Spark for every round: features row
 * after row, and the labels.
 *
 * @param partition the partition's index
 * @param features  {@code labels.length * width} values
 * @param labels    class indices
 * @param width     features per row
 */
record TrainingPartition(int partition, float[] features, long[] labels, int width) implements Serializable {
    int rows() {
        return labels.length;
    }

    /** Local steps in one pass over the rows in batches of {@code batchSize}. */
    int stepsPerEpoch(int batchSize) {
        return (rows() + batchSize - 1) / batchSize;
    }
}
