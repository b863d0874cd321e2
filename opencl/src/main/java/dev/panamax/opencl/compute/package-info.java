/**
 * The OpenCL backend of the compute API ({@link dev.panamax.opencl.compute.OpenClBackend}, found by
 * ServiceLoader).
 *
 * <h2>Replay: how a committed command buffer reaches the device</h2>
 * A commit hands the queue a submission, a list of recorded commands. Under the device's replay lock
 * the queue's {@code Replay} turns it into OpenCL calls in four small steps, each in a class of its own:
 * <ol>
 *   <li><b>Plan</b> ({@code ReplayPlanner}, pure): the command list in, a {@code ReplayPlan} out: each
 *       call ({@code ClCall}: {@code clSetKernelArg}, an enqueue, a marker, a flush) with its parameters
 *       as raw values. A dispatch sets only the kernel arguments whose value differs from what the
 *       {@code cl_kernel} holds; the same dispatch recorded again repeats its enqueue; sizes, argument
 *       values and fill patterns go into the queue's staging memory, a heap write's copy and a read's
 *       destination into the run's scratch. The planner makes no OpenCL call: device objects come
 *       from a {@code PlanResolver}, so plans are golden-tested as exact call lists
 *       ({@code ReplayPlannerGoldenTest}), as the JDK tests its call arranger's recipes.</li>
 *   <li><b>Close the batch</b> ({@code ReplayPlan.complete}): the last enqueue gives the run's
 *       completion event (a marker when nothing was enqueued), then a flush.</li>
 *   <li><b>Gate</b> ({@code GatingAndRecovery}): a batch of {@code ReplayPlanner.GATED_FROM} enqueues or
 *       more waits on a user event set after the last enqueue, so the device receives the whole list
 *       at once, as Metal runs a committed command buffer.</li>
 *   <li><b>Emit and run</b> ({@code RecordedBatch}): the plan is written into the queue's core
 *       {@code Batch}, only the parameters that differ when the batch already records the same calls
 *       (the same command buffer shape as the previous commit), and runs in one crossing.</li>
 * </ol>
 * When a call fails, the calls after it did not run: every kernel's argument state is forgotten,
 * the error names the command (and argument), and a marker still tells when the commands enqueued
 * before it are done. A submission with native commands runs as batches around them, each native
 * command called with the queue between two batches. {@code Run} then follows the completion event.
 *
 * <h2>Recordings: planned once</h2>
 * A recorded command list ({@code CommandBuffer.record()}) is planned once, when it is recorded, by
 * {@code RecordingPlan}: each batch between its native commands planned with every kernel argument set
 * (other command buffers change the same kernels' arguments between its submissions), its values and
 * heap writes' copies in host memory of its own, and written into a core {@code Batch} of its own. A
 * submission ({@code Replay.replay(Submission, RecordingPlan)}) plans and writes nothing: it gates a
 * large batch as a commit does, runs each batch in one crossing, calls the native commands between
 * them, and moves the device's argument epoch on, since the queue's plans no longer know what the
 * kernels hold; failures are handled as a commit's. A list with a read, or one the device refuses, is
 * replayed as commits are. Golden-tested in {@code RecordingPlanTest}.
 *
 * <h2>Program builds on PoCL</h2>
 * PoCL compiles each OpenCL program with LLVM and caches the result in {@code $POCL_CACHE_DIR}. Measured
 * on 2 cores with PoCL 3.1 and a one-line kernel: the first build in a process took 1.1 s with an empty
 * cache (LLVM's start-up included), 52 ms from the cache in a fresh process, ~40 ms for each further
 * build in the same process. The {@code panamax} launcher exports a writable default when it is unset:
 * {@code ${XDG_CACHE_HOME:-~/.cache}/panamax/pocl}, or {@code target/pocl-cache} when the home
 * directory is not writable; tests and JMH forks inherit it.
 */
package dev.panamax.opencl.compute;
