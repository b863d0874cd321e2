/// Owned native memory: handles, accounting the GC can see, leak detection, pools and scopes.
///
/// ### Handles
/// `NativeHandle` wraps a native object: address, size when known, owner flag, release action. The
/// user holds the handle; everything needed to free the object lives in a separate `HandleState`
/// (a `PhantomReference` to the handle, kept reachable by `Registry` until released), so the GC-driven
/// cleanup never holds the handle. Release happens once: `close()` (whatever the refcount), the
/// `release()` that drops the refcount to 0, or the GC, each ending in one compare-and-set on
/// `HandleState`. Code paths call `Reference.reachabilityFence(this)` after freeing, so the GC cannot
/// enqueue a handle while its own `close()` is still running.
///
/// The refcount is one `volatile int` updated through a VarHandle (Netty's layout): `retain()` CASes
/// it up and refuses 0; `release()` CASes it down; `close()` swaps it to 0.
///
/// **A handle is not freed while a native call uses it** (`CallGuard`, `CallSlot`). A typed call
/// publishes the address of every handle it passes (scalar arguments and handle arrays) in its thread's
/// `CallSlot` before it reads the handle's state, and ends the call right after C returns. The caller
/// does no atomic read-modify-write and no fence: one plain store of the address per handle and one
/// release store of the slot's height per publication (a call that takes two or three handles by value
/// publishes them together, `CallGuard.use(slot, a, b[, c])` as the first one's argument and
/// `CallGuard.address` for the others), a release store at the end, and a slot lookup per call (a static field
/// compared with the current thread for the first thread that made a guarded call, a `ThreadLocal` for
/// the others). The
/// releasing side pays instead: after the refcount swap it runs an asymmetric fence, Linux
/// `membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED)` (`AsymmetricFence`, `pmx_membarrier` in
/// `core/src/main/c/membarrier.c`: every running thread of the process executes a full barrier, as in
/// userspace RCU), then reads every slot: a caller whose store came before the fence is seen, a caller
/// whose read came after it sees the handle released and throws `HandleReleasedException` before C sees
/// the address. If a slot holds the address, the native release is deferred: the handle is kept
/// reachable and a daemon thread (`panamax-deferred-release`) frees the object once no slot holds it
/// (it re-reads the slots every 100 µs while a release waits; `CallGuard.deferredReleases()` counts
/// them). `close()` itself returns at once and the handle is unusable from Java from then on. The fence
/// costs microseconds and is skipped while only the closing thread has made guarded calls. Where
/// `membarrier` is missing (old kernels, sandboxes), callers fence their own publication instead
/// (`VarHandle.fullFence()`). A call ends without a `finally` (the typed method must stay under C2's
/// inlining size): what an exception leaves in the slot is dropped by the thread's next call, and a
/// release of those objects waits until then. Callbacks nest: every `Upcalls` stub raises the slot's base
/// for the callback's duration (`CallGuard.upcallScope`), so typed calls made inside a callback push
/// above the outer call's handles and end at them; a stub made with the bare `Linker` should be wrapped
/// the same way. `newReference()` is guarded the same way, and `pin()`/`unpin()` keep an object alive
/// past its handle's release for holders that outlive a call (batches). `-Dpanamax.checks=false`
/// (`dev.panamax.core.Checks.CHECKS`, LWJGL's switch) removes the guard: the JIT folds it away, and a
/// close racing a call is then a use-after-free as in C; a released handle is still refused and a second
/// release still throws. Measured per typed call in docs/BENCHMARKS.md (`## opencl: race-safe handles`).
/// A typed retain or release acts on the handle (`LifecycleCall`, below), so the Java count and the
/// library's stay consistent.
///
/// `segment()` is created lazily and scoped to an arena of the handle's own (`Arena.ofShared()` or
/// `Arena.ofConfined()`, by `SegmentAccess`); release closes that arena before freeing, so a segment
/// (or slice) kept past release fails inside Java with FFM's `IllegalStateException` instead of
/// touching freed memory. The arena's cleanup list holds the handle, so a live segment keeps its
/// handle, and therefore its memory, reachable: the GC cannot free memory under a segment someone
/// still uses. Closing a shared arena costs a thread handshake (about 20 µs on the benchmark machine);
/// that is why `SegmentAccess.CONFINED` exists and why `BufferPool.acquire` hands out confined leases
/// by default (`acquireShared` for cross-thread buffers). If a native call holds the segment (passed as
/// a segment, so FFM keeps its session alive for the call) when `close()` runs, the release is undone and
/// an exception says so; a handle passed by address (the typed layer's handles) is kept by the in-call
/// guard above instead.
///
/// ### Accounting the GC can see
/// Every native allocation is **reserved** against one process-wide budget first (`Budget.reserve`,
/// one CAS while there is room), then allocated, then registered; if allocating fails the reservation
/// is returned, and if registering fails the memory is freed at once. The cleanup that frees is the
/// one that unreserves.
///
/// The JVM has no API to tell the GC about off-heap bytes (ocaml-torch's custom blocks), so Panamax
/// makes native memory visible as heap: each owned handle holds a **shadow**, a `byte[]` sized in
/// proportion to its native bytes, the ratio chosen so that the shadows of a whole budget add up to
/// `panamax.memory.shadowFraction` (default 0.5) of `-Xmx`. A 16 MiB buffer with a 1 GiB budget and
/// a 512 MiB heap carries a 4 MiB shadow. On G1 such shadows are humongous objects: their allocation
/// counts toward the heap occupancy that starts a collection (IHOP), and a young collection frees a
/// dead one at once (eager reclaim) without copying it. Large shadows are sized to whole G1 regions
/// less the array header, so no region is wasted on a 16-byte spill. The effect: as unreachable
/// handles accumulate, so does dead shadow, and the collector runs on its own, in proportion to native
/// allocation, with no `System.gc()` anywhere, so `-XX:+DisableExplicitGC` changes nothing.
///
/// The reservation path has two more stages, like the JDK's `Bits.reserveMemory` but without
/// `System.gc()`:
/// - above the soft limit (`panamax.memory.softLimit`, default 0.5 of the budget) every reservation
///   also drains the reference queue itself (a `poll`, nanoseconds when empty), so memory the GC
///   already found is freed by the allocating thread instead of waiting for the cleaner thread;
/// - over the hard limit it drains the queue, asks every `BufferPool` to give back idle blocks, then
///   waits with bounded back-off (1, 2, 4 … 32 ms, up to `panamax.memory.maxWaitMillis`, default
///   2000), each step allocating short-lived heap garbage (starting at the request's shadow size,
///   doubling, at most 1/8 of the heap) so that the collector runs even when nothing else allocates,
///   and waking as soon as any release happens. After that it throws `OutOfMemoryError` with the
///   reserved total, the live handles and bytes per type and, at PARANOID, the top allocation sites:
///   `native memory budget exhausted: requested=4194304 reserved=6291456 limit=8388608 waitedMillis=200
///   byType={NativeBuffer: handles=3 bytes=6291456} topSites=[3x 6291456 bytes NativeBuffer at Foo.main(Foo.java:9)]`.
///
/// Measured (16 GiB churned as 16 MiB buffers through a 1 GiB budget, `-Xmx512m`, see BENCHMARKS.md):
/// with shadows no reservation ever reached the wait stage and peak native reservation stayed near
/// 0.7 GiB; with shadows off (`shadowFraction=0`) the back-off stage alone still completes, but
/// takes 2 to 4 times longer and peaks higher (1.25 GiB RSS), because every collection has to be
/// forced by garbage. Parallel and Serial GC complete the same workload; ZGC completes it with waits.
///
/// Large buffers (4 MiB and up) are `madvise(MADV_HUGEPAGE)`d: with THP in `madvise` mode that cuts
/// first-touch page faults about sevenfold.
///
/// | property | default | meaning |
/// |---|---|---|
/// | `panamax.memory.limit` | `min(physical − maxHeap, max(maxHeap, physical / 4))`, at least 64 MiB (physical = RAM or cgroup limit) | hard limit on reserved native bytes (`1g`, `512m`, bytes) |
/// | `panamax.memory.softLimit` | 0.5 | fraction of the limit above which reservations drain the reference queue |
/// | `panamax.memory.shadowFraction` | 0.5 | heap shadows of a whole budget as a fraction of `-Xmx` (0 turns shadows off) |
/// | `panamax.memory.maxWaitMillis` | 2000 | how long an over-limit reservation waits for the GC |
/// | `panamax.leakDetection` | SAMPLED | DISABLED, SAMPLED (1 handle in 128), PARANOID (every handle) |
///
/// Every `panamax.*` system property (these, `panamax.scratchStack.size`, `panamax.fp16.threads`,
/// `panamax.blas.*`, `panamax.tensor.backend`) is read through core's `Settings`: a value that does not
/// parse or lies out of range is an `IllegalArgumentException` naming the setting, the value and what
/// was expected (`setting -Dpanamax.memory.limit=12x: expected a byte count with an optional k/m/g/t
/// suffix (e.g. 512m, 4g)`), never a bare `NumberFormatException` or a default used in silence.
///
/// `NativeMemory.stats()` gives reserved bytes (and the part idle in pools), the peak, the limit,
/// live handles and bytes per type, releases by code and by the GC, waits and leaks seen.
///
/// ### Leak detection
/// A handle the GC releases is a leak: it is always counted (`releasedByGc`). At SAMPLED one handle
/// in 128, at PARANOID every handle, records its allocation stack (a `StackWalker` capture that skips
/// Panamax's own frames) and its last four `touch(hint)` records in a `LeakRecord` held by the
/// cleanup state. When such a handle is leaked the cleanup builds a `LeakReport` (type, id, address,
/// size, allocation stack, touches), logs it through `System.Logger` `dev.panamax.core.memory.leak`
/// at ERROR and passes it to every `LeakListener`, once per distinct allocation stack.
///
/// ### Pools and scopes
/// `BufferPool` keeps idle blocks per power-of-two class (64 B to 1 GiB; larger requests are plain
/// buffers) in a `long[]` stack under a per-class lock held only for a push or pop; a block is
/// allocated 64-byte aligned (`aligned_alloc`: malloc's 16 bytes put a large block at a page plus 16,
/// 2-3% of sgemm's speed at 1024), reserved once when first allocated and stays reserved while idle
/// (`pooledIdleBytes`). Every block has a heap shadow, so the GC sees every byte the pool holds: the
/// lease's handle holds it as its shadow, an idle block holds it in its class. A lease released by
/// code (close, a scope) carries its shadow back with the address, so the next hit makes no new
/// shadow (a fresh 2 MiB shadow for a 4 MiB block costs the JVM a zeroing pass of fresh regions, about
/// 1 ms). The release action refers to the shadow only weakly: a lease the GC finds unreachable takes
/// its shadow with it, and the next lease of that block is shadowed afresh. That keeps the GC pacing
/// itself to native memory dropped unclosed: when returned leases kept their shadows, every shadow
/// stayed reachable, the heap held no garbage to signal, and the 10,000-step tensor churn
/// (`TrainingChurn`, `-Xmx256m`) ran its native reservations up to the 6 GiB budget (7.1 GB RSS)
/// before a collection freed them; with weak returns it peaks at 3.8 GB native, 4.4 GB RSS, as
/// without the pool (3.7, 3.9). A `PooledBuffer`'s release action returns its block to its class unless the class cap or the
/// global idle cap (CAS-checked) would be passed, then it is freed. The pool's own cleanup state frees
/// idle blocks when it is closed or becomes unreachable; later returns are freed.
/// `BufferPool.createForProcess` makes a pool for a library's static field (tensor storage): not a
/// tracked resource (leak detection does not report it), `close()` only trims it. `PoolMetrics` gives
/// hits, misses, `hitRate()` and `hitRateSince(earlier)`, allocations, frees, bytes leased and idle.
///
/// `NativeScope` is a thread-local stack of scopes, and a handle joins one only when it is handed to
/// it (`scope.adopt(handle)`) or made through it (`scope.allocate(bytes)`), as a JDK resource joins the
/// arena it is given (`MemorySessionImpl.addOrCleanupIfFail`): a handle the scope cannot take (closed,
/// or another thread's) is closed at once and the failure rethrown. A handle made while a scope is
/// open belongs to its maker, so an object that owns handles (a compute buffer, queue or library, a
/// `Batch`) outlives any scope open when it was made. `keep` moves a handle to the enclosing scope (or
/// out of the outermost); closing a scope closes what remains, newest first. The list compacts itself
/// (drops released handles) as it doubles, so a loop that closes its own handles does not grow it.
///
/// ### The leak-checking test extension (module `test-support`)
/// `NativeLeakExtension` notes a checkpoint (the next handle id) and the bytes held by handles before
/// each test; afterwards it fails the test if any handle or pool created since is still open, if a
/// leak of one of them was reported, or if held bytes grew. It counts only Panamax's accounting, so
/// tests that use plain FFM arenas are unaffected. `@AllowNativeLeaks("why")` exempts a test.
/// The parent pom turns on `junit.jupiter.extensions.autodetection.enabled` for surefire, and the
/// service file `META-INF/services/org.junit.jupiter.api.extension.Extension` in test-support
/// registers it, so a module only adds `panamax-test-support` as a test dependency (cli and bench do).
///
/// `panamax-test-support` depends on `panamax-core`, so core cannot depend on it (a cycle). Core's pom
/// instead adds `test-support/src/main/java` as a test source root and `test-support/src/main/resources`
/// as a test resource root (build-helper-maven-plugin), so core's tests compile and auto-register the
/// very same extension from source. This was chosen over moving the extension into core's test jar
/// (a `test-jar` dependency would make every module depend on core's test classes) and over a
/// separate core-internal copy (two copies drift): one source, two consumers, no cycle.
package dev.panamax.core.memory;
