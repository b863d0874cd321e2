package dev.panamax.bench.bindgen;

import dev.panamax.core.batch.Batch;
import dev.panamax.core.batch.BatchMode;

/**
 * One startup measurement in a fresh JVM, through a binding bindgen generated for the 2,000 startup
 * fixtures (its classes on the class path, with {@link StartupCalls}' plain static calls): {@code thunks}
 * records every function once through the generated {@code StartupThunks} and runs the batch; {@code raw}
 * calls every function once through the generated raw layer {@code Startup} (a downcall linked per
 * function). Prints the milliseconds from the first use of the binding to the last call's return.
 */
public final class GeneratedStartupChild {
    private GeneratedStartupChild() {}

    public static void main(String[] args) throws Exception {
        Class<?> calls = Class.forName("org.example.startup.StartupCalls", false,
                GeneratedStartupChild.class.getClassLoader());   // loaded, not initialized: nothing of the binding yet
        long start = System.nanoTime();
        switch (args[0]) {
            case "thunks" -> {
                try (Batch batch = Batch.create(BatchMode.STANDARD)) {
                    calls.getMethod("thunks", Batch.class).invoke(null, batch);
                    batch.run();
                }
            }
            case "raw" -> calls.getMethod("raw").invoke(null);
            default -> throw new IllegalArgumentException("mode: thunks | raw");
        }
        System.out.println((System.nanoTime() - start) / 1e6);
    }
}
