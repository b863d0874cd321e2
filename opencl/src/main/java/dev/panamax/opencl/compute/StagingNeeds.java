package dev.panamax.opencl.compute;

/**
 * What replaying a command list needs before it starts: the bytes of staging memory (the event's and
 * the gate's slots, sizes, argument values and fill patterns), the bytes of scratch the run keeps
 * until it completes (heap writes' copies, reads' destinations), and how many native commands
 * split it into batches. Worked out by {@link ReplayPlanner#needs}.
 */
record StagingNeeds(long stagingBytes, long scratchBytes, int natives) {
    StagingNeeds {
        if (stagingBytes < 0 || scratchBytes < 0 || natives < 0)
            throw new IllegalArgumentException("stagingBytes=" + stagingBytes + " scratchBytes=" + scratchBytes + " natives=" + natives
                    + ": expected none negative");
    }
}
