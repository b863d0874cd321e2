package dev.panamax.core.call;

/** Which way the elements of an array parameter travel across a call. */
public enum Direction {
    /** Native code only reads the array: staged copies go in, nothing comes back. */
    IN(true, false),
    /** Native code only writes the array: staged memory starts zeroed and is copied back after the call. */
    OUT(false, true),
    /** Native code reads and writes the array: copied in before the call and back after it. */
    INOUT(true, true);

    private final boolean copiesIn;
    private final boolean copiesOut;

    Direction(boolean copiesIn, boolean copiesOut) {
        this.copiesIn = copiesIn;
        this.copiesOut = copiesOut;
    }

    /** Whether a staged copy is filled from the array before the call. */
    public boolean copiesIn() {
        return copiesIn;
    }

    /** Whether a staged copy is written back into the array after a successful call. */
    public boolean copiesOut() {
        return copiesOut;
    }
}
