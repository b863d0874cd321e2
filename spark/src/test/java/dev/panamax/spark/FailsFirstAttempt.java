package dev.panamax.spark;

import dev.panamax.tensor.nn.Module;
import org.apache.spark.TaskContext;

import java.util.random.RandomGenerator;

/** An architecture whose build fails in the first attempt of every task on {@code partition}, as a lost executor would. */
record FailsFirstAttempt(ModuleFactory inner, int partition) implements ModuleFactory {
    @Override
    public Module create(RandomGenerator rng) {
        TaskContext task = TaskContext.get();
        if (task != null && task.partitionId() == partition && task.attemptNumber() == 0) {
            throw new IllegalStateException("injected failure: partition " + partition + ", attempt 0");
        }
        return inner.create(rng);
    }
}
