/// bindgen: declarations to bindings (raw and typed layers, C glue, the report).
///
/// ocaml-torch generates its bindings in two steps from one declarations file: C glue plus ctypes
/// stubs, then a wrapper that only ever hands GC-managed tensors to the user. bindgen does the same from
/// a declarations file (docs/DECLARATIONS.md) in three stages, each testable alone, as the JDK splits
/// `CallArranger` (plan) from the code that executes the plan:
///
/// 1. **Parse and validate** (`bindgen.decl`): snakeyaml-engine nodes (with marks) into records; every
///    type resolved onto the core's `CType` once (unknown and recursive types refused); then
///    `DeclarationsValidator` checks that each key fits what it sits on (a status on an integer, a
///    `length` naming an integer parameter, an errcode on a pointer to an integer, ownership on
///    handles, retain/release taking the handle, a handle without release only when
///    `ownership: borrowed`). Every refusal is a `DeclarationsException` at `file:line:column`.
///    Everything that nests stops at a documented limit (`Limits`): snakeyaml-engine's composer
///    recurses per nested collection and the engine has no depth limit, so `DepthLimitedParser` sits
///    between its (iterative) parser and the composer and refuses the 65th level at its mark; the length
///    expression parser counts nesting and the height of the tree it builds; the type parser counts
///    declarators; the resolver counts named types inside named types. The planner counts each
///    function's JVM parameter slots as the FFM linker lowers its downcall (pointers as longs, three
///    slots for a heap array at `critical_heap`, structs by their eightbytes, the linker's own slots;
///    `ParameterSlotsTest` checks the count against the linker, to the slot for scalars and pointers) and
///    as the raw, by-address and typed methods declare them, and refuses one over 255 at its place, so
///    bindgen never writes a method javac or the linker rejects; callbacks are counted as upcall stubs. `panamax abi` reads a file
///    through `Bindgen.check` (parse, plan, render, write nothing), so it accepts exactly what bindgen does.
/// 2. **Plan** (`Planner` → `BindingPlan`, pure): every Java name decided (and names Java or C cannot
///    use refused or skipped, with a place or a reason), the raw carriers and FFM layout expressions of
///    each function, and for the typed layer a `TypedFunction` per variant in which each C parameter has
///    a `Mapping` (value, derived length, handle, struct, registered callback and its user data, string,
///    scalar array, handle array, errcode, returned out-parameter, segment) and the result a `Result`.
///    Skips (long double, over-aligned structs by value, Java keywords, `Object` method names) are
///    part of the plan.
/// 3. **Write**: small writers render the plan, cutting a class that would pass the JVM's class-file
///    limits (65,535 constants per class, 65,535 bytes of code per method, static initializers included)
///    into parts by estimate (`ClassSplit`): a chain of `public abstract sealed` parts under the public
///    class, whose static members are inherited so `C.f()` and `CApi.f()` stay the one entry point, and
///    downcall handles in package-private holders of at most 256 functions, so a call declares only its
///    holder's handles (docs/DECLARATIONS.md, "Large libraries");  `Bindgen.write` changes a file only when its bytes
///    change and deletes generated files (recognised by their first line) no longer generated, so
///    incremental builds recompile only what changed. Each file is written to a temporary file in its
///    directory and renamed into place (`OutputFile`), so a failed write (tested for real in a child JVM
///    under `ulimit -f`) names the file and leaves the old one whole. The CLI resolves relative paths
///    against the directory the user ran `./panamax` from, which the launcher passes in `PANAMAX_WORKDIR`
///    (the CLI's `WorkingDirectory`), since it changes into the checkout itself.
///
/// **Raw layer.** One class, one static method per function, named as the C symbol; each calls a
/// `static final` method handle declared through `NativeLibrary.function(..).tier(..).link()`, so it is
/// linked lazily, cached per `LinkRequest`, and inlined by the JIT like a hand-written handle (measured:
/// docs/BENCHMARKS.md, `panamax.call.clGetPlatformIDs.ns` against `raw.call.clGetPlatformIDs.ns`).
///
/// **Typed layer.** Generated against core only (nothing of bindgen at run time). Handles are
/// `NativeHandle` subclasses with `SegmentAccess.SHARED`, no byte size (the driver owns the memory), and
/// a static release action calling the declared release through the raw layer, so the core's
/// exactly-once release, refcount, Cleaner safety net, leak reports and `NativeScope` apply unchanged.
/// Handle classes, the typed class and callback interfaces carry
/// `@AllocatesForCaller` (core, `dev.panamax.core.memory`), as do hand-written helpers such as
/// `OpenCl`: leak detection leaves their frames out of the allocation site, so a leak report names the
/// user's line that called `CLApi.clCreateBuffer`, not the binding (the whole stack is still kept). An
/// argument handle is passed as its address and fenced with `Reference.reachabilityFence` after the
/// call, so the GC cannot release an object while C uses it. A handle type's declared retain and release
/// are the handle's own in the typed layer (`LifecycleCall`): `CLApi.clReleaseMemObject(m)` is
/// `m.release()` (the last reference calls `clReleaseMemObject` once, through the release action) and
/// `CLApi.clRetainMemObject(m)` is `m.retain()`, so the Java handle stays the one owner of its native
/// reference: a second release, or `close()` and the Cleaner after a typed release, never reach the
/// library (the first throws `HandleReleasedException`, the others do nothing). A retain or release that
/// returns a value other than a status has no typed method (the plan skips it with that reason). The raw
/// layer still calls the library as it is told.
/// Temporaries (strings, staged arrays, errcodes, out-parameters) live in a `ScratchStack` frame for the
/// call (the frame writes arrays of up to 16 elements and single values with one plain store per
/// element through a constant layout, on a segment spanning the address space whose bounds and scope
/// the JIT folds away, longer arrays with one `MemorySegment.copy`, zeroes a one-word out-parameter with
/// one store, and hands back the same slice objects when a call repeats with the same sizes, so a typed
/// call allocates no heap objects either; an input array bound for an address is copied by
/// `Frame.addressOfCopy`, which makes no segment at all). The pointers the typed method makes or owns itself (handle
/// addresses, its scratch memory, a registered callback's stub and user data) reach C as 64-bit
/// addresses: the method calls the package-private `CByAddress` (`ByAddressClassWriter`), which links
/// the same symbol with `JAVA_LONG` in those positions, so the linker spends nothing per argument on
/// memory whose lifetime the method already guarantees. It links on the declared tier except CRITICAL,
/// which it links STANDARD (`typedTier`): a critical downcall never polls for a safepoint, and C2 drops
/// the safepoint poll of a loop whose only call is one (it counts the call as a safepoint). A thread
/// looping on a typed getter until another thread closes the handle then held every other thread at
/// the next safepoint, the closer included, for good: the misuse suite's close race hung in about one
/// run in ten. A standard downcall polls as it returns, for about 2.5 ns a call; the raw layer and
/// batches keep the declared tier, and CRITICAL_HEAP keeps its link (heap arrays in place need it); on the 64-bit ABIs Panamax runs
/// on a pointer travels as a 64-bit integer does, and the class refuses to initialize where addresses
/// are narrower. Memory the caller hands in (a `MemorySegment`, a struct, an array passed in place at
/// `critical_heap`) stays a segment, so the linker keeps its session alive for the call and refuses
/// memory already freed. When a typed method has several argument checks they move to a private
/// `$$check$name` method, so the method stays under C2's hot inlining size (325 bytes of bytecode,
/// `TypedMethodSizeTest`) and inlines into a hot caller, where constant arguments fold. A call whose
/// staged arguments may all be null opens the frame only when one of them is given (an enqueue with no
/// wait list and no event opens none); at `critical_heap` Java arrays are passed in place (`MemorySegment.ofArray`).
/// Before the call, the memory behind each pointer is checked against the `length` the declaration
/// gives it (a parameter the caller passes, or a fixed count such as OpenCL's three-element origin and
/// region): a segment or array too small is an `IllegalArgumentException` and the library never sees
/// it, so a host buffer shorter than the size passed to `clEnqueueReadBuffer` cannot be written past.
/// A list declared `terminated` (OpenCL's property lists) is staged with zeros after it, so the library
/// never reads past a Java array that lacks its terminator. A returned pointer whose declaration names
/// its `length` comes back as a segment of that size (`clEnqueueMapBuffer`'s mapped region), so the
/// caller reads and writes it without `reinterpret` and within its bounds.
/// What a Java developer expects of the shapes: an integer type declared `boolean: true` (`cl_bool`) is
/// a Java `boolean`; a `ptr` whose declaration lists `elements` takes Java arrays of those types
/// (`clEnqueueReadBuffer(queue, buffer, true, 0, floats, null, null)`), refused where the library may
/// use the memory after the call (`async_unless: blocking_read` false), since an array is staged for the
/// call only; a length parameter whose pointers all say their own size (arrays, segments that may not be
/// NULL) is taken from them, so there is no byte count to get wrong; overloads are generated only where
/// a value, not a `null`, chooses between them (`Planner.distinguishable`); the argument checks sit
/// behind `dev.panamax.core.Checks.CHECKS` (`-Dpanamax.checks=false`); and the library is
/// `NativeLibrary.deferred`: declaring downcalls loads nothing, the first call loads it, and a library
/// that is not installed fails every call with the same `LibraryNotFoundException`, never a class
/// initializer.
/// A `String` reaches C through `Staging.cString` (and `String[]` through `Staging.strings`), which refuses
/// a string holding a NUL with the function and the parameter (`strings[1] of clCreateProgramWithSource`)
/// instead of letting C read it cut short. A function's `requires:` rules (`RequirementChecks`) are checked
/// first among the argument checks, each a condition in exact arithmetic, a broken one an
/// `IllegalArgumentException` naming the parameter, its value and the rule.
/// Statuses and errcodes become the library's exception, named from the error convention
/// (`CL_INVALID_KERNEL_ARGS (-52) in clEnqueueNDRangeKernel`); the exception is not final so a
/// hand-written layer can add detail (`ProgramBuildException` adds the build log). The success test is
/// written into the typed method and the exception class's `check_<convention>` runs only on failure:
/// C2 never inlines a method of a `Throwable` subclass into a caller outside one, so checking every
/// return through it was a real call per native call (1.6 ns of a 18 ns null-driver round trip).
///
/// **Callbacks.** A void callback type with a user-data parameter gets one shared `CallbackRegistry`
/// per type (go-metal's integer-id completion handlers): the typed method registers the Java handler,
/// passes the registry's single stub and the id as `user_data`, and drops the registration when the
/// call fails; `calls: once` registrations are dropped by their dispatch. Dispatch is inline (on the
/// driver's thread), because handles passed in are borrowed for the call only. Other callback types get
/// an `Upcalls` stub per handler. Either way an exception stays on the Java side.
///
/// **C glue and batches.** The thunks are emitted by `bindgen.glue.ThunkEmitter` from the same `CFunction`
/// model that the generated `CThunks` class declares its functions with at `Tier.BATCHED`
/// (`function(f).type(cType).tier(Tier.BATCHED).recorder()`), so plan and glue cannot disagree. The
/// Maven plugin compiles them with `-Wl,-z,defs` against the bound library (`-l:libOpenCL.so.1`) into
/// `native/linux-x86_64/libpanamax_glue_LIBRARY.so` in the jar; `CThunks` binds the recorders to the
/// bound library itself when it exports the thunks (test fixtures do), else to the glue extracted with
/// `BundledNatives`. Each `BatchedFunction` is critical when declared so and carries its convention's
/// `StatusRule` (`StatusRules`), so a batch stops at the first failing call; `record(batch, ...)`
/// appends a call with the typed layer's argument types (a nested `TypedRecorder` per function: handle
/// classes, primitives, segments), and the entry's parameter block takes new arguments for replays. A
/// batch keeps every handle recorded as an argument alive until it is closed (`Batch.keep`, the handle's
/// `pin()`): closing a recorded kernel or buffer before a replay makes the handle unusable from Java but
/// leaves the object for the batch, freed when the batch closes. Handle types' retain and release get no
/// thunk (a replay would run them behind the handle's count); raw `MemorySegment` addresses recorded
/// through `BatchedFunction.record(batch, Object...)` are the caller's to keep alive.
///
/// **Tests.** A golden test pins every generated file of a small declarations file byte for byte (and
/// compiles it in-process with javax.tools); the MetaABI fixture library (every leaf of the chart) is
/// generated in the build and its raw layer and batched thunks are compared bit for bit with
/// hand-written FFM calls; validation errors are tested with their places; a fuzz test mutates 10,000
/// files (fixed seed: deleted and swapped lines, swapped keys, wrong value kinds, truncation, huge
/// numbers, unicode and keyword names) and requires each to generate or to fail with a located
/// `DeclarationsException`; every distinct generated output is compiled (javac, each in a package of
/// its own so a few javac runs take them all) and so is every distinct C glue unit (gcc `-Werror`).
/// Names that would make a file name over 255 bytes, and a function named as a type (one namespace in
/// C), are refused with their place; the fuzz test found both. The leak extension checks each test and
/// each test class as a whole (what `@BeforeAll` makes must be released by `@AfterAll`). The importer
/// has its own fuzz test (`ImportFuzzTest`, fixed seed): 120 headers mutated from one that uses every
/// construct (types swapped for `long double`, `__int128`, `_Complex`, variadic function pointers,
/// bitfields and anonymous unions added, parameters named `null`, `On`, `class` or `café`, macros at
/// the edges of 64 bits or wrapped by clang, lines dropped, duplicated and cut) are imported; each either
/// fails with an `ImportException` (libclang's located errors) or gives a file that parses, validates
/// and generates (62 of 120 here).
///
/// **The misuse suite** (`opencl/src/test/java/dev/panamax/opencl/misuse`). Each misuse runs alone in a
/// child JVM (`ChildJvm`: the test class path, `-XX:ErrorFile` into a fresh directory, PARANOID leak
/// detection) and must end as its case says: success, or a given Java exception out of `main`; an hs_err
/// file, a signal, a time-out or any other end fails `MisuseSuiteTest`. A case is a small class with a
/// `main` (starting from `Device`: PoCL's device, a context and a queue, whose `close()` also fails if any
/// handle made by the case is still open, deferred releases included) and one line in `MisuseCases`
/// (name, class, `Outcome`, JVM options, arguments). Cases: typed double release (checks on and off),
/// typed release then `close()`, typed release then drop with GC and cleaner, typed call and retain after
/// release, `newReference` after close, `close()` racing `clGetMemObjectInfo` from 4 threads for 50
/// rounds, replay of a batch whose kernel and buffer were closed. `RandomSequences` draws 1,000
/// operations per thread on 8 threads over shared OpenCL buffers and core `NativeBuffer`s (create, typed
/// use, retain, release, typed retain and release, close, `newReference`, kernels, batch record, replay
/// and close, `clFinish`), every operation ending in success or a released handle's exception; three
/// seeds per run, printed, fixed with `-Dpanamax.misuse.seeds=1,2,3` (`-Dpanamax.misuse.ops=N` per
/// thread). With `-Dpanamax.checks=false` the 4-thread race crashed 3 runs of 3 with SIGSEGV inside the
/// ICD loader: the suite sees what the guard prevents. `OwnershipMisuseTest` runs the compute
/// ownership cases (`OwnershipCases`) the same way: compute objects made inside a `NativeScope` or a
/// `TensorScope` and used for twenty dispatches after it closed (once a SIGSEGV in `clSetKernelArg`),
/// and `OwnershipSequences`, random ownership operations on 4 threads (scoped objects, queues and
/// buffers dropped in flight RETAINED and UNRETAINED, library churn, GCs) with every result and a
/// per-thread sentinel buffer checked, ending with everything dropped freed by the GC
/// (`-Dpanamax.misuse.ownershipOps=N` per thread, default 150, seeds as above).
///
/// **opencl and blas.** `panamax-opencl` and `panamax-blas` contain no binding code: the plugin
/// generates it from `opencl.yaml` and `cblas.yaml` on every build. OpenCL tests run on PoCL (vector
/// add of 1M floats, a failed build with its log, an event callback from PoCL's thread, 1,000 dispatches
/// in one batch; sub-buffers, copy, fill, map and unmap, rectangular copies, markers, barriers, waits,
/// profiling times, separate compile and link, program, kernel, event and memory-object queries,
/// samplers, 2D and 3D images described by the generated structs (read through a map with the
/// driver's pitches, filled from a buffer), buffers and images made with property lists, migration to
/// the host and back, programs made from their own binaries and built after the compiler was unloaded,
/// shared virtual memory (`clSVMAlloc` returned as a segment of its size, written by a kernel, copied
/// out, migrated, followed by a kernel through a pointer stored in it once `clSetKernelExecInfo` names
/// it, freed by the queue through a callback), a Java function run as a native kernel on the driver's
/// copy of its arguments, sub-devices, memory-object and context destructor callbacks, extension
/// functions by name, the host timer's named refusal, native references (`newReference`) and typed retain and release as the handle's own; every object released under the leak extension at PARANOID; surefire points
/// `POCL_CACHE_DIR` at `target/pocl-cache` when it is unset). BLAS arrays pass in place; a BLAS
/// routine reads `1 + (n - 1) * |inc|` elements of a vector and `(rows - 1) * ld + columns` of a matrix,
/// which `cblas.yaml` declares as length expressions (shapes chosen by order, transpose and side), so
/// the generated typed layer itself refuses a short array before the call, for every routine; the
/// hand-written `Blas` checks its routines' sizes as well, with messages in BLAS terms. Level 2 and 3
/// routines also declare the reference BLAS's own argument rules (what `xerbla` reports: enum values,
/// sizes of zero or more, leading dimensions of at least `max(1, rows or columns as stored)`, non-zero
/// strides) as `requires:`, so a bad `lda` or a negative size is an exception before the call rather
/// than OpenBLAS's stderr line and a normal return (`ReferenceRulesTest`). A short array is
/// an exception, never a read or write past a Java array. Every cblas routine is declared `critical_heap`, and a critical call
/// holds off every safepoint until it returns: a 3,072^3 sgemm kept a `System.gc()` from another thread
/// waiting 348 ms. Level 1 and 2 are memory-bound, so on more than 2^20 elements (`-Dpanamax.blas.chunkElements`)
/// `Blas` runs them as a series of critical calls over pieces of the arrays, in place (`Chunked`: axpy,
/// scal and gemv split exactly, gemv by blocks of output elements; dot and nrm2 combine partial results).
/// Products are compute-bound and split badly (every piece would pack B again), so `Blas.sgemm`/`dgemm` run a product of
/// 2^31 operations or more (`-Dpanamax.blas.criticalFlops`) on the standard tier (`StandardGemm`,
/// linked by hand with the core call layer), copying the arrays into a per-thread staging block kept
/// between products (`Staging`, up to 64 MiB, `Arena.ofAuto()`, none on virtual threads); on native
/// segments they always run on the standard tier, without copies.
package dev.panamax.bindgen.gen;
