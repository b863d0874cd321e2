package dev.panamax.core.region;

/** The exceptions of region misuse, each with key=value details. */
final class RegionErrors {
    private RegionErrors() {}

    static WrongThreadException notOwner(Region region, String action) {
        return new WrongThreadException("region " + action + " by a thread that does not own it: thread="
                + Thread.currentThread().getName() + " " + region.describe());
    }

    static WrongThreadException ownedElsewhere(Region region) {
        return new WrongThreadException("region claim failed, it is owned by another thread: thread="
                + Thread.currentThread().getName() + " " + region.describe());
    }

    static WrongThreadException notAccessible(Region region, Thread thread) {
        return new WrongThreadException("region segment is not accessible by thread=" + thread.getName()
                + " (a confined segment cannot change threads) " + region.describe());
    }

    static IllegalStateException split(Region region, String action) {
        return new IllegalStateException("region " + action + " while split into children; combine them first: " + region.describe());
    }

    static IllegalStateException retired(Region region, String action) {
        return new IllegalStateException("region " + action + " after it was combined back into its parent: " + region.describe());
    }

    static IndexOutOfBoundsException splitPoint(Region region, long at) {
        return new IndexOutOfBoundsException("region split point out of range: at=" + at + " byteSize=" + region.byteSize()
                + " expected 0 < at < byteSize " + region.describe());
    }

    static IndexOutOfBoundsException element(Region region, String type, long index, long elementBytes) {
        return new IndexOutOfBoundsException("region " + type + " index out of range: index=" + index
                + " count=" + region.byteSize() / elementBytes + " " + region.describe());
    }

    static IllegalArgumentException sameTwice(Region region) {
        return new IllegalArgumentException("region combine given the same child twice: " + region.describe());
    }

    static IllegalArgumentException notChild(Region region) {
        return new IllegalArgumentException("region combine given a region that is not a child: " + region.describe());
    }

    static IllegalArgumentException foreign(Region a, Region b) {
        return new IllegalArgumentException("region combine given children of different splits: first={" + a.describe()
                + "} second={" + b.describe() + "}");
    }
}
