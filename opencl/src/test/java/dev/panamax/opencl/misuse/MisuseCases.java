package dev.panamax.opencl.misuse;

import dev.panamax.core.memory.HandleReleasedException;

import java.util.List;

/**
 * Every misuse the suite runs. To add one: write a class with a {@code main} that does the misuse
 * (start from {@link Device} for OpenCL objects), and add a line here with the outcome it must end with.
 */
final class MisuseCases {
    private MisuseCases() {}

    static List<MisuseCase> all() {
        return List.of(
                new MisuseCase("typed double release", TypedDoubleRelease.class,
                        Outcome.throwsException(HandleReleasedException.class)),
                new MisuseCase("typed double release, checks off", TypedDoubleRelease.class,
                        Outcome.throwsException(HandleReleasedException.class)).withJvmOptions("-Dpanamax.checks=false"),
                new MisuseCase("typed release then close (buffer, queue)", TypedReleaseThenClose.class, Outcome.success()),
                new MisuseCase("typed release then drop, GC and cleaner", TypedReleaseThenDrop.class, Outcome.success()),
                new MisuseCase("typed call after typed release", UseAfterTypedRelease.class,
                        Outcome.throwsException(HandleReleasedException.class)),
                new MisuseCase("typed retain after close", RetainAfterClose.class,
                        Outcome.throwsException(HandleReleasedException.class)),
                new MisuseCase("newReference after close", NewReferenceAfterClose.class,
                        Outcome.throwsException(HandleReleasedException.class)),
                new MisuseCase("close racing typed calls from 4 threads, 50 rounds", CloseRacingCalls.class, Outcome.success()),
                new MisuseCase("replay of a batch whose kernel and buffer were closed", ReplayAfterClose.class, Outcome.success()),
                new MisuseCase("typed call after typed release, checks off", UseAfterTypedRelease.class,
                        Outcome.throwsException(HandleReleasedException.class)).withJvmOptions("-Dpanamax.checks=false"));
    }

    /** Compute-layer misuse: kernel arguments and sizes that used to crash or compute garbage, races on a queue. */
    static List<MisuseCase> compute() {
        String seeds = System.getProperty("panamax.misuse.seeds");
        long seed = seeds == null || seeds.isBlank() ? new java.util.Random().nextLong() & Long.MAX_VALUE
                : Long.parseLong(seeds.split(",")[0].trim());
        return List.of(
                new MisuseCase("kernel arguments of the wrong kind, size or limit, CHECKED", KernelArgumentMisuse.class, Outcome.success()),
                new MisuseCase("8 threads commit one command buffer and their own while the queue closes, seed=" + seed
                        + " (rerun: -Dpanamax.misuse.seeds=" + seed + ")", QueueRaces.class, Outcome.success())
                        .withArgs(Long.toString(seed), "8", "20"));
    }

    /**
     * The random sequences: one case per seed, {@code -Dpanamax.misuse.seeds=1,2,3} (default three seeds
     * drawn from the time, printed), {@code -Dpanamax.misuse.ops=N} operations per thread (default 1,000),
     * 8 threads.
     */
    static List<MisuseCase> randomSequences() {
        String ops = System.getProperty("panamax.misuse.ops", "1000");
        String seeds = System.getProperty("panamax.misuse.seeds");
        List<Long> list = new java.util.ArrayList<>();
        if (seeds == null || seeds.isBlank()) {
            java.util.Random r = new java.util.Random();
            for (int i = 0; i < 3; i++) list.add(r.nextLong() & Long.MAX_VALUE);
        } else {
            for (String s : seeds.split(",")) list.add(Long.parseLong(s.trim()));
        }
        return list.stream().map(seed -> new MisuseCase("random sequence seed=" + seed + " threads=8 opsPerThread=" + ops
                + " (rerun: -Dpanamax.misuse.seeds=" + seed + ")", RandomSequences.class, Outcome.success())
                .withArgs(Long.toString(seed), "8", ops)).toList();
    }
}
