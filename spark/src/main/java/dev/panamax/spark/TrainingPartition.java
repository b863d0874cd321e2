package dev.panamax.spark;

import java.io.Serializable;

/**
 * One partition's training rows, gathered once and cached by Spark for every round: features row
 * after row, and the labels. A class rather than a record: Spark's Kryo, which may spill the cached
 * partition, writes fields through {@code Unsafe}, which records refuse.
 */
final class TrainingPartition implements Serializable {
    private static final long serialVersionUID = 1L;

    private final int partition;
    private final float[] features;
    private final long[] labels;
    private final int width;

    /**
     * @param partition the partition's index
     * @param features  {@code labels.length * width} values
     * @param labels    class indices
     * @param width     features per row
     */
    TrainingPartition(int partition, float[] features, long[] labels, int width) {
        this.partition = partition;
        this.features = features;
        this.labels = labels;
        this.width = width;
    }

    int partition() {
        return partition;
    }

    float[] features() {
        return features;
    }

    long[] labels() {
        return labels;
    }

    int width() {
        return width;
    }

    int rows() {
        return labels.length;
    }

    /** Local steps in one pass over the rows in batches of {@code batchSize}. */
    int stepsPerEpoch(int batchSize) {
        return (rows() + batchSize - 1) / batchSize;
    }
}
