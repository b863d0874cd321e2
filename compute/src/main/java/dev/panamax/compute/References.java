package dev.panamax.compute;

/** Whether a command buffer keeps the resources it uses alive until it completes. */
public enum References {
    /**
     * Every buffer and pipeline encoded is kept alive from commit to completion: closing one
     * meanwhile only drops the caller's reference, and the memory goes when the command buffer is
     * done with it. One closed before commit is refused at commit, with its name.
     */
    RETAINED,
    /**
     * Cheaper: the caller keeps the resources alive until completion. A {@link Validation#CHECKED}
     * command buffer still refuses, at commit, a resource that was closed: an exception, never a crash.
     */
    UNRETAINED
}
