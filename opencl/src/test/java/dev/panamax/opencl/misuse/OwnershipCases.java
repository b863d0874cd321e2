package dev.panamax.opencl.misuse;

import java.util.List;

/** The misuse cases of compute ownership: objects made inside scopes, dropped in flight, freed by the GC. */
final class OwnershipCases {
    private OwnershipCases() {}

    static List<MisuseCase> all() {
        return List.of(
                new MisuseCase("compute objects made inside a NativeScope, used after it closes", ScopedComputeObjects.class,
                        Outcome.success()).withArgs("native"),
                new MisuseCase("compute objects made inside a TensorScope, used after it closes", ScopedComputeObjects.class,
                        Outcome.success()).withArgs("tensor"));
    }

    /**
     * Random ownership sequences: one case per seed ({@code -Dpanamax.misuse.seeds}, as the handle
     * sequences), 4 threads, {@code -Dpanamax.misuse.ownershipOps=N} operations per thread (default 150).
     */
    static List<MisuseCase> randomSequences() {
        String ops = System.getProperty("panamax.misuse.ownershipOps", "150");
        return MisuseCases.randomSequences().stream()
                .map(c -> new MisuseCase("ownership sequence seed=" + c.args().getFirst() + " threads=4 opsPerThread=" + ops
                        + " (rerun: -Dpanamax.misuse.seeds=" + c.args().getFirst() + ")", OwnershipSequences.class, Outcome.success())
                        .withArgs(c.args().getFirst(), "4", ops))
                .toList();
    }
}
