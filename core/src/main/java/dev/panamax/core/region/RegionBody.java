package dev.panamax.core.region;

/** The work {@link Regions#parallelFor} runs on each part; the part is owned by the running thread. */
@FunctionalInterface
public interface RegionBody {
    /** Works on {@code part}; may throw, the failure reaches the caller of parallelFor. */
    void run(Region part) throws Exception;
}
