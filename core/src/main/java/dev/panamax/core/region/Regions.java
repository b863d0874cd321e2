package dev.panamax.core.region;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.atomic.AtomicInteger;

/** Partitioned parallel work over a {@link Region}: OpenMP's static schedule, with checked ownership. */
public final class Regions {
    private Regions() {}

    private static final class DefaultPool {
        private static final AtomicInteger NEXT = new AtomicInteger();
        static final ForkJoinPool POOL = new ForkJoinPool(Runtime.getRuntime().availableProcessors(), pool -> {
            ForkJoinWorkerThread t = ForkJoinPool.defaultForkJoinWorkerThreadFactory.newThread(pool);
            t.setName("panamax-region-" + NEXT.incrementAndGet());
            return t;
        }, null, false);
    }

    /** {@link #parallelFor(Region, int, long, Executor, RegionBody)} with 8-byte units on the shared pool. */
    public static void parallelFor(Region region, int parts, RegionBody body) {
        parallelFor(region, parts, Double.BYTES, body);
    }

    /** {@link #parallelFor(Region, int, long, Executor, RegionBody)} on the shared pool (one thread per CPU). */
    public static void parallelFor(Region region, int parts, long unitBytes, RegionBody body) {
        parallelFor(region, parts, unitBytes, DefaultPool.POOL, body);
    }

    /**
     * Splits {@code region} into up to {@code parts} contiguous parts whose boundaries are multiples
     * of {@code unitBytes} (a row, say; the last part takes any remainder), hands each part to the
     * executor thread that runs {@code body} on it, waits for all, and combines the parts back. The
     * caller must own the region; it owns it again when this returns or throws.
     *
     * <p>If bodies fail, the first failure is thrown after recombining, the others attached as
     * suppressed (a checked exception wrapped in {@link CompletionException}). If a body leaves its
     * part unusable (split, or passed to yet another thread), the region cannot be recombined and
     * an {@link IllegalStateException} says so.
     *
     * <pre>{@code
     * Regions.parallelFor(c, 2, n * Double.BYTES, part -> {
     *     long firstRow = part.offset() / (n * Double.BYTES);
     *     ...  // write rows firstRow.. of the product through part.setDouble
     * });
     * }</pre>
     */
    public static void parallelFor(Region region, int parts, long unitBytes, Executor executor, RegionBody body) {
        Objects.requireNonNull(region, "region");
        Objects.requireNonNull(executor, "executor");
        Objects.requireNonNull(body, "body");
        if (parts < 1) throw new IllegalArgumentException("parallelFor parts=" + parts + ": expected parts >= 1");
        if (unitBytes < 1) throw new IllegalArgumentException("parallelFor unitBytes=" + unitBytes + ": expected unitBytes >= 1");
        region.checkUsable("run in parallel");

        long units = Math.ceilDiv(region.byteSize(), unitBytes);
        int n = (int) Math.max(1, Math.min(parts, units));
        List<Region> pieces = new ArrayList<>(n);
        Deque<Region.Split> splits = new ArrayDeque<>();
        Region rest = region;
        long perPart = units / n;
        long extra = units % n;   // the first `extra` parts get one unit more
        for (int i = 1; i < n; i++) {
            long boundary = (perPart * i + Math.min(i, extra)) * unitBytes;
            Region.Split s = rest.split(boundary - (rest.offset() - region.offset()));
            pieces.add(s.left());
            splits.push(s);
            rest = s.right();
        }
        pieces.add(rest);

        Thread caller = Thread.currentThread();
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        List<CompletableFuture<Void>> running = new ArrayList<>(n);
        for (Region piece : pieces) {
            piece.relinquish();
            try {
                running.add(CompletableFuture.runAsync(() -> runPart(piece, body, caller, failures), executor));
            } catch (RuntimeException e) {   // rejected: the part stays with the caller
                failures.add(e);
            }
        }
        CompletableFuture.allOf(running.toArray(CompletableFuture[]::new)).join();

        for (Region piece : pieces) {
            // a part no worker could claim (rejected task, inaccessible segment) comes back here
            if (piece.owner() == null && !piece.isSplit() && !piece.isRetired()) piece.claim();
        }
        Throwable recombine = null;
        while (!splits.isEmpty()) {
            try {
                splits.pop().combine();
            } catch (RuntimeException e) {
                recombine = new IllegalStateException("parallelFor could not recombine the region: a part was left split "
                        + "or owned by another thread: " + region.describe(), e);
                break;
            }
        }
        if (recombine != null) failures.add(recombine);
        if (failures.isEmpty()) return;
        Throwable first = failures.poll();
        for (Throwable other : failures) first.addSuppressed(other);
        if (first instanceof RuntimeException r) throw r;
        if (first instanceof Error e) throw e;
        throw new CompletionException(first);
    }

    private static void runPart(Region part, RegionBody body, Thread caller, ConcurrentLinkedQueue<Throwable> failures) {
        try {
            part.claim();
        } catch (RuntimeException e) {
            failures.add(e);
            return;
        }
        try {
            body.run(part);
        } catch (Throwable t) {
            failures.add(t);
        } finally {
            try {
                part.handOver(caller);
            } catch (RuntimeException e) {
                failures.add(e);
            }
        }
    }
}
