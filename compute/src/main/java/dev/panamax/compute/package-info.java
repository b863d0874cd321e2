/// The backend-neutral compute API and how its OpenCL backend runs it.
///
/// **Recording.** A `CommandBuffer` records sealed `Command` records in Java (`spi.Command`: dispatch,
/// copy, fill, write, read, barrier, native); a dispatch carries a snapshot of the encoder's argument table
/// (sealed `spi.Argument`: buffer and offset, a scalar, bytes, threadgroup memory), so the table
/// persists across dispatches as in Metal. CHECKED encoding checks each command against the
/// pipeline's argument metadata and the device's limits (grid, threadgroup, offsets inside buffers and
/// aligned to `CL_DEVICE_MEM_BASE_ADDR_ALIGN`); messages name the command buffer, the command's index,
/// the pipeline, the argument (index, name, type), what was given and what was expected. The metadata
/// comes from `clGetKernelArgInfo` (programs are always built with `-cl-kernel-arg-info`): the address
/// qualifier and type name make each argument's `AddressSpace` (a buffer, threadgroup memory, a value,
/// or an image, sampler or other object, which the API does not bind and refuses whatever is given:
/// binding a buffer to an `image2d_t` or a long to a `sampler_t` used to crash the driver) and, for a
/// value, its `ValueType` and size: a typed scalar must match (`setInt` on a `float` is refused;
/// `setBytes` of the right size fits any value). The size of a struct or typedef argument, which
/// OpenCL does not report and PoCL's `clSetKernelArg` does not check, is measured once per library by
/// a probe kernel built from its source that writes `sizeof` of each such type (`TypeSizes`); a type it
/// cannot measure is checked by kind only, and a driver without argument metadata gives `UNKNOWN`
/// arguments, checked by count only. Threadgroup memory is checked against
/// `CL_DEVICE_LOCAL_MEM_SIZE`: each length in every mode (16 GiB used to abort the driver), the total
/// with the kernel's own `CL_KERNEL_LOCAL_MEM_SIZE` under CHECKED. What each argument accepts is
/// precomputed per pipeline as a bit mask and an expected size, so the one-pass check reads two arrays. Measured facts of PoCL 3.1 shape the backend:
/// `cl_khr_command_buffer` (0.9.0: slower than plain enqueues, and it reads kernel arguments at replay) is not used; `setBytes` on a buffer argument makes
/// a transient buffer; an offset binds a sub-buffer. A grid that is not a whole number of threadgroups
/// is refused in every validation mode (PoCL has no non-uniform groups, and letting the driver pick
/// the group size silently broke kernels written for theirs); `Size.threadgroupsCovering` rounds the
/// group count up for a kernel that bounds-checks. Thread counts (groups x group size) are computed
/// with overflow checks, never wrapped.
///
/// **Recording cost.** An encoder snapshots its argument table only when it changed since the last
/// dispatch (dispatches that change nothing share one snapshot), and in a CHECKED command buffer checks
/// the arguments once per snapshot (one pass without messages; only a refusal runs the checks that
/// name the argument) and the grid once per grid, threadgroup and pipeline. A dispatch that repeats
/// the last one (same pipeline, snapshot and sizes) records the same immutable command again, so a
/// loop of identical dispatches allocates nothing per dispatch. A command
/// buffer notes each resource it uses once (the resource remembers the last command buffer that noted
/// it) and makes its label, handler list and future only when asked for.
///
/// **Commit.** Each queue has one `Replay`, used under the device's replay lock, so its memory is
/// reused by every commit: it plans the submission in typed form (which function, its arguments as raw
/// values, in plain arrays), then writes the plan into the queue's own core `Batch` (STANDARD mode):
/// when the plan calls the same functions as the batch's recording (a command buffer of the same shape
/// as the previous commit) only the arguments are written into the recorded entries, otherwise the
/// batch is recorded afresh; a vectorised compare of the planned arguments against the ones the batch
/// holds finds the entries to write. A run of repeated dispatches is planned as copies of one enqueue
/// and stages nothing. The plan holds, for each dispatch, only the `clSetKernelArg`s whose value
/// differs from what the `cl_kernel` holds, across command buffers (each `OpenClPipeline` keeps the
/// raw values it last set, never the Java objects, so no buffer is kept reachable; a transient buffer
/// or a sub-buffer is always set again, and a replay that fails part-way invalidates every kernel's
/// record); then the enqueue; at the end a flush. The last enqueue's event (whatever the command: every
/// enqueue's last parameter) is the run's completion event (an in-order queue). A submission of 64
/// enqueues or more is gated, as a committed Metal command buffer reaches the GPU whole: its first
/// command waits for a user event that the replay sets after the batch has run (also when a command
/// failed part-way, so the commands before it run), and the device then runs the whole chain without
/// the host's enqueues waking it for each command and competing with it (on PoCL's CPU device 1,000
/// tiny dispatches take about 0.8x the ungated time; below about 40 commands the gate costs more than
/// it saves, as the first enqueue no longer wakes the device early). Sizes, values and fill patterns go into the replay's staging memory
/// (the driver reads them during the call); data read after the call (a read's destination, a copy of
/// a heap array to write) goes into scratch memory the run keeps until it completes, recycled by the
/// queue. Because the lock is held, `clSetKernelArg`'s kernel state is never shared between threads
/// and pipelines are thread-safe without a kernel per thread. A command the driver refuses stops the
/// batch; the commands before it still complete (a marker gives their event), and the command buffer
/// finishes with status ERROR and a `CommandBufferException` naming the command and the argument.
///
/// **Native commands.** A native library that enqueues onto the backend's own queue (CLBlast's GEMM
/// takes a `cl_command_queue*` and `cl_mem`s) runs inside a command buffer, in order with its kernels
/// and without a host round trip, as Metal Performance Shaders encode into an `MTLCommandBuffer`:
///
/// ```java
/// try (ComputeEncoder e = cb.computeEncoder()) { e.setPipeline(prepare).setBuffer(0, a).dispatchThreads(grid, group); }
/// cb.encodeNative("sgemm", List.of(a, b, c), queue -> {           // a NativeCommand
///     int status = CLBlastSgemm(..., queue.bufferHandle(a), ..., queue.handlePointer(), MemorySegment.NULL);
///     if (status != 0) throw new IllegalStateException("CLBlastSgemm returned " + status);
/// });
/// try (ComputeEncoder e = cb.computeEncoder()) { e.setPipeline(relu).setBuffer(0, c).dispatchThreads(grid, group); }
/// cb.commit();
/// ```
///
/// `encodeNative` records a `spi.Command.Native` (its description, the buffers it uses, the callback);
/// the buffers are checked when encoded in every validation mode (none null, closed, or of another
/// device: native code cannot be validated) and noted as used, so a RETAINED command buffer holds them
/// until completion exactly as a dispatch's arguments. At commit the OpenCL `Replay` runs a submission
/// with native commands as several batches: the commands before a native command as one batch (gated
/// on its own when it has 64 enqueues or more, and the gate opened before the call, so a library that
/// waits for the queue cannot wait for a gate only this thread would open), then the callback on the
/// committing thread with a `NativeQueue` (`api()` "opencl", the `cl_command_queue`, a pointer to it,
/// the `cl_mem` of a declared buffer; it refuses an undeclared buffer, a freed one, another device's,
/// and any use after the call), then the rest; a native command last is followed by a marker, whose
/// event completes the run. The run holds the buffers' handles until the device is done, whatever the
/// GC sees. A callback that throws (a library's error status included) fails the command buffer with a
/// `CommandBufferException` naming the command; nothing after it runs, and a marker tells when the
/// commands before it are done. Blocking on the compute API from inside a callback (waiting for a
/// command buffer, a commit that would wait for a slot, closing a queue, committing to a queue of the
/// same device) would wait for the commit under way on that thread, and is refused with an
/// `IllegalStateException` instead. A submission without native commands takes the one-batch path,
/// unchanged.
///
/// **Completion.** A run is finished once, by whichever comes first: a thread in
/// `waitUntilCompleted` (`clWaitForEvents` on the completion event from a per-thread cell, then the
/// finish on that thread; other threads waiting meanwhile wait on the event too, or on the run), or
/// the event's callback, which is asked for only when something needs completion without a waiter
/// (completed handlers, the `completion()` future), or a `status()` call that asks the event without
/// blocking (`clGetEventInfo`) and finishes the run when the device is done, so a command buffer polled
/// rather than waited for reads COMPLETED and gives back its slot. The callback goes through `CallbackRegistry` (a
/// one-shot id as `user_data`), which hands it to a virtual thread, so no Java runs on PoCL's worker.
/// A commit that finds every in-flight slot taken waits for the queue's oldest command buffer, which
/// finishes it if the device is done with it. Finishing delivers reads, returns the scratch, releases
/// the event (kept until the queue's next commit starts, so a waiter returns sooner), drops the
/// references, gives back the slot, completes the future and starts the handlers
/// on the queue's executor (an exception is counted and logged). So a round trip pays no upcall, no
/// thread hand-off and one crossing each way.
///
/// **Recordings.** `CommandBuffer.record()`, in place of `commit()`, keeps the command list as a
/// `RecordedCommands` (CUDA graphs' instantiate and launch): each `submit()` is a command buffer of
/// its own over the same commands, committed with no encoding or validation in Java, waited on as
/// any other. The recording references the resources its commands use until it closes (taken at
/// `record()`; a command buffer from `CommandQueue.commandBufferForRecording()` pins each one when
/// it is encoded instead, so its owner may free it before the recording is made, as a captured
/// tensor step frees its intermediates). A backend may prepare the commands once, at `record()`
/// (`spi.QueueDriver.prepare`, handed back with each submission as `Submission.prepared()`, closed
/// with the recording): on OpenCL they are planned once into batches of the recording's own, so a
/// submission runs each batch in one crossing with nothing planned in Java, and its native commands
/// are called again between them.
///
/// **Queue state.** Committing a command buffer is one compare-and-set (of several threads committing
/// one command buffer exactly one hands it over; the others get an `EncodingException`), and a commit
/// registers itself with its queue in the same atomic word that holds the queue's closed bit: `close()`
/// sets the bit, so later commits are refused with an `IllegalStateException`, then waits for the
/// commits under way (finishing the oldest command buffer when one of them waits for a slot) and for
/// every slot to come back. `waitUntilIdle()` waits for the command buffers committed before it (a
/// snapshot of the pending list), so other threads committing meanwhile cannot keep it waiting.
/// `waitUntilCompleted()` returns COMPLETED or throws the command buffer's `CommandBufferException`;
/// `status()` and `error()` stay queryable.
///
/// **Lifetimes.** Buffers, libraries and pipelines are `Resource`s, and each holds the owned
/// `NativeHandle` of its native object (a buffer its `BlockHandle`, a pipeline its `ClKernel`, a library
/// a `ProgramLease`, its share of the cached program), whose reference count is the resource's: the
/// caller's reference, plus one per RETAINED command buffer from commit to completion (a
/// `ResourceLease`), so closing a buffer while a run uses it is safe. Every kind refuses at commit a
/// resource closed since it was encoded, except UNRETAINED UNCHECKED, which trusts the caller. A compute
/// object belongs to its maker alone: a `NativeScope` or `TensorScope` open when it was made does not
/// take it, so it outlives the scope (`OwnershipContract`). Work in flight keeps what it uses whatever
/// the GC sees: each run holds the handles of the buffers its commands name until the device is done
/// with it, so a buffer dropped while a kernel writes it keeps its block out of the pool until then.
/// A queue's native state (the `cl_command_queue`, the replay's batch and staging memory, scratch,
/// retained events, the runs in flight) is a `QueueResources` released by the queue's owned handle, on
/// `close()` or, for a dropped queue, by the GC: a thread of its own waits for the device
/// (`clFinish`), then drops the unfinished runs' holds and RETAINED references and frees the rest. The
/// program cache holds programs, never libraries: a dropped library's lease is released by the GC and
/// its program goes with the last lease.
///
/// **Device memory.** Each device has a `MemoryBudget` (core: a budget of its own with the native
/// budget's stages: clean what the GC found, trim pools, nudge the collector and wait; no
/// `System.gc()`) of `-Dpanamax.compute.memoryLimit` or the device's global memory, and a `DevicePool`
/// of `cl_mem` blocks in power-of-two classes (64 B to 1 GiB; core's `SizeClassPool`, as host memory's
/// `BufferPool`), reserved with their class size when made
/// and kept reserved while idle (idle total at most a quarter of the limit; trimmed first under
/// pressure). A buffer holds a heap shadow sized against the device budget, so the GC sees device
/// memory; its block is owned by a `BlockHandle` (a `NativeHandle`: closing or the GC gives it back to
/// the pool; a GC release is a reported leak). SHARED buffers use host memory of their own
/// (`CL_MEM_USE_HOST_PTR`, zero-copy on PoCL) behind a per-buffer view arena closed on release, so a
/// kept `contents()` fails in Java instead of reading a reused block. Over the limit after the wait,
/// `DeviceMemoryException` lists the buffers held by allocation site.
package dev.panamax.compute;
