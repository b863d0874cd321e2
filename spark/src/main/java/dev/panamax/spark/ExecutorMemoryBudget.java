package dev.panamax.spark;

import org.apache.spark.SparkConf;

import java.io.Serializable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The native memory Panamax may use on one executor, from Spark's own settings: the Panamax setting
 * {@link SparkSettings#EXECUTOR_MEMORY} when set, else {@code spark.executor.memoryOverhead}, else
 * Spark's default overhead (10% of {@code spark.executor.memory}, at least 384 MiB). The model is
 * loaded once per executor; what is left is shared by its task slots ({@code spark.executor.cores},
 * or the N of {@code local[N]}), each running one batch at a time.
 *
 * @param bytes     the executor's native budget
 * @param source    where it came from, as a setting and its value
 * @param taskSlots tasks that run at once on the executor
 */
public record ExecutorMemoryBudget(long bytes, String source, int taskSlots) implements Serializable {
    private static final long MIB = 1L << 20;
    private static final Pattern LOCAL = Pattern.compile("local\\[(\\d+|\\*)(?:,\\s*\\d+)?]");

    public ExecutorMemoryBudget {
        if (bytes <= 0) throw new IllegalArgumentException("executor memory budget bytes=" + bytes + " (" + source + "), expected > 0");
        if (taskSlots < 1) throw new IllegalArgumentException("executor task slots=" + taskSlots + ", expected at least 1");
    }

    /** The budget Spark's configuration {@code conf} (and the Panamax setting, if set) gives. */
    public static ExecutorMemoryBudget from(SparkConf conf) {
        int slots = taskSlots(conf);
        Long panamax = SparkSettings.EXECUTOR_MEMORY.get();
        if (panamax != null) return new ExecutorMemoryBudget(panamax, SparkSettings.EXECUTOR_MEMORY.name() + "=" + panamax, slots);
        if (conf.contains("spark.executor.memoryOverhead")) {
            long mib = conf.getSizeAsMb("spark.executor.memoryOverhead");
            return new ExecutorMemoryBudget(mib * MIB, "spark.executor.memoryOverhead=" + conf.get("spark.executor.memoryOverhead"), slots);
        }
        long executorMib = conf.getSizeAsMb("spark.executor.memory", "1g");
        double factor = conf.getDouble("spark.executor.memoryOverheadFactor", 0.10);
        long mib = Math.max(384, (long) (executorMib * factor));
        return new ExecutorMemoryBudget(mib * MIB, "Spark's default spark.executor.memoryOverhead=" + mib + "m (" + factor
                + " of spark.executor.memory=" + executorMib + "m, at least 384m)", slots);
    }

    private static int taskSlots(SparkConf conf) {
        if (conf.contains("spark.executor.cores")) return Math.max(1, conf.getInt("spark.executor.cores", 1));
        Matcher local = LOCAL.matcher(conf.get("spark.master", ""));
        if (local.matches()) return local.group(1).equals("*") ? Runtime.getRuntime().availableProcessors() : Integer.parseInt(local.group(1));
        return 1;
    }

    /** Bytes each task may use for its batch once the model is loaded. */
    public long perTaskBytes(long modelBytes) {
        return Math.max(0, bytes - modelBytes) / taskSlots;
    }

    /**
     * Checks that a batch of {@code batchSize} rows of {@code bytesPerRow} fits beside a model of
     * {@code modelBytes}.
     *
     * @throws BatchTooLargeException naming the batch, its need, the budget and the largest batch that fits
     */
    public void check(int batchSize, long bytesPerRow, long modelBytes) {
        long perTask = perTaskBytes(modelBytes);
        long need = Math.multiplyHigh(batchSize, bytesPerRow) != 0 ? Long.MAX_VALUE : (long) batchSize * bytesPerRow;
        if (need <= perTask) return;
        long fits = bytesPerRow == 0 ? 0 : perTask / bytesPerRow;
        throw new BatchTooLargeException("a batch of " + batchSize + " rows needs " + need + " bytes of native memory (" + bytesPerRow
                + " per row); each of the executor's " + taskSlots + " task slots has " + perTask + " bytes: " + bytes
                + " from " + source + ", less the model's " + modelBytes + " bytes, shared by " + taskSlots
                + " slots. Expected a batch size of at most " + fits + ", or raise spark.executor.memoryOverhead (or -D"
                + SparkSettings.EXECUTOR_MEMORY.name() + ")");
    }
}
