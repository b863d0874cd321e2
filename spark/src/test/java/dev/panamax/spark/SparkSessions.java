package dev.panamax.spark;

import org.apache.spark.sql.SparkSession;

/** The test classes' Spark: two task slots, a failed task tried once more, no UI, small shuffles. */
final class SparkSessions {
    private SparkSessions() {}

    static SparkSession local() {
        return SparkSession.builder()
                .master("local[2,2]")
                .appName("panamax-spark-test")
                .config("spark.ui.enabled", "false")
                .config("spark.sql.shuffle.partitions", "2")
                .config("spark.serializer", "org.apache.spark.serializer.KryoSerializer")
                .getOrCreate();
    }
}
