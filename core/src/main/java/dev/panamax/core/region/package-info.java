/**
 * Split/combine views of a memory segment with checked thread ownership ({@link
 * dev.panamax.core.region.Region}), and OpenMP's static schedule on top of them ({@link
 * dev.panamax.core.region.Regions#parallelFor}).
 *
 * <h2>Linear tokens, checked at run time</h2>
 * The ghc-openmp seed enforces disjoint writes to an array with linear tokens: {@code split} consumes
 * the token of a region and yields tokens for two halves, {@code combine} consumes both and gives the
 * parent's back, so the type checker proves that no two computations write the same rows and that the
 * parent is not read before recombining. Java has no linear types, so {@code Region} checks the same
 * rules when the region is used:
 * <ul>
 *   <li>the token is the owner thread: every read, write, {@code split} and {@code segment()} checks
 *       that the caller owns the region ({@code WrongThreadException} otherwise); ownership moves
 *       explicitly with {@code handOver(thread)}, or {@code relinquish()} followed by {@code claim()}
 *       (compare-and-set, one winner);</li>
 *   <li>{@code split(at)} creates two zero-copy children (slices of the same segment) and freezes the
 *       parent: any use of it, including a second split that would create overlapping children, raises
 *       {@code IllegalStateException} until {@code Region.combine(left, right)}, which accepts only the
 *       two children of the parent's current split, owned by the caller and not themselves split;
 *       combined children retire for good;</li>
 *   <li>a confined segment cannot be handed to another thread (checked with
 *       {@code isAccessibleBy}).</li>
 * </ul>
 *
 * <h2>parallelFor</h2>
 * {@code Regions.parallelFor(region, parts, unitBytes, executor, body)} cuts the region at multiples of
 * {@code unitBytes} (a matrix row, say), relinquishes each part, lets the worker that runs it claim it,
 * hands it back to the caller when the body ends, joins, and combines in reverse order. The first
 * failure of any body is thrown after recombining (others suppressed); a part a worker could not claim
 * comes back to the caller, so the region is whole again in every case except a body that keeps its
 * part split or gives it away, which is reported.
 *
 * <p>{@code segment()} gives the zero-copy view for native calls; it is checked when taken, and
 * deliberately not revoked later: revoking it would mean re-scoping the segment, which would drop the
 * original arena's liveness check that keeps a late use from crashing.
 */
package dev.panamax.core.region;
