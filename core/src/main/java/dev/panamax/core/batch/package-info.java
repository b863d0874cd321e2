/// MetaABI parameter blocks, the uniform thunk call and batched crossings.
///
/// Every batchable function gets a C thunk with one signature, `void *pmx_thunk_NAME(void *param)`,
/// so one FFM downcall shape serves them all and a batch can run any mix of them.
///
/// **Plan (pure, `core.abi`).** `MetaAbi.classify(CFunctionType)` applies the seed's decision chart:
/// the return is tested first (an FP or struct/union return of any size forces STRUCT, because the
/// block needs a return slot); then 0 parameters give VOID / VOID_PTR-3, one void*-compatible
/// parameter (integer, bool, pointer, or a struct/union with size and alignment at most 8) gives
/// VOID_PTR (leaves A, C, E, G), one FP parameter or larger struct gives STRUCT (B, D, F, H), and 2+
/// parameters give STRUCT. FP parameters never ride in `param` (the FP-to-GP pun stalls store
/// forwarding). The plan includes the block: return slot at offset 0, each parameter naturally
/// aligned, size rounded to the alignment; in VOID_PTR mode the block is the one 8-byte cell whose
/// value travels in `param`. Sizes and alignments are x86-64 SysV's; golden tests cover every row of
/// the seed's matrix and the edge cases (1-byte struct, int/float union, 8- and 16-byte alignment,
/// arrays, 0-3 parameters of each kind, long double).
///
/// **Execute (`ThunkEmitter`, in bindgen: `dev.panamax.bindgen.glue`).** C text from the plan (core keeps only what
/// the runtime needs: the plan and the thunk symbol, `Thunk.symbolOf`): VOID_PTR copies the low bytes of `param` into
/// the parameter (`memcpy` into a typed local: one register move; a tiny struct arrives the same way);
/// STRUCT reads each parameter at its planned offset and writes an FP/struct result into the slot. A
/// void, integer, bool or pointer result is not copied: the thunk calls the function through a second
/// declaration of the same symbol that returns `void *` (`extern void *pmx_vp_inc(int32_t)
/// __asm__("inc")`; a cast of the function would do the same, but gcc warns at every call through one),
/// so gcc emits a tail jump (the thunk of `int32_t inc(int32_t)` is a single `jmp inc`) and the low bytes of the returned register hold the result, the bytes above
/// unspecified (Java reads the type's width; the runner extends statuses itself). The emitted header
/// (struct/union typedefs with `_Static_assert`s on gcc's size, alignment and offsets, callback
/// typedefs, prototypes) is included by the thunk source and can be included by the library's own
/// sources, so gcc checks definitions against the declarations. Pointers are `void *` in prototypes.
/// Thunks also carry what FFM cannot pass by value: long double (f80) and over-aligned structs.
///
/// **Java side (`core.batch`).** `ParamBlock` writes and reads a block by the planned offsets with
/// type-checked accessors. `ThunkHandle` is the one downcall, `(ADDRESS thunk, ADDRESS param) ->
/// ADDRESS` with the thunk as the call target (no C trampoline), in a plain and a `critical(false)`
/// variant. `Thunk` = a function's plan + its thunk address + whether it is declared critical + an
/// optional `StatusRule`.
///
/// **The runner.** A `Batch` records 48-byte entries `{thunk, block, flags, result, low, high}` in an
/// off-heap command buffer (growing by doubling while recording). All parameter blocks live back to
/// back in one argument area; `ParamBlock`s of a batch address it by offset, so when recording
/// outgrows it the area moves (entries get new block pointers) and Java's blocks follow. A loop
/// feeding fresh arguments can write through the single segment `Batch.arguments()` at
/// `ParamBlock.offsetOf(i)`: one segment, so its bounds and liveness checks leave the loop. `run()` is one downcall into `pmx_batch_run(entries, n)`
/// (`core/src/main/c/batch.c`), which for each entry passes the block address (STRUCT), the cell's
/// value (VOID_PTR) or NULL, stores the returned register, and, for entries with a status rule,
/// sign/zero-extends the status to its C width and stops at the first failure, returning its index.
/// Java then throws `BatchFailedException(index, function, code)`; results of the entries that ran
/// stay readable, later entries report that they did not run. Replay writes new arguments into the
/// same blocks: nothing is allocated. `BatchMode.STANDARD` is a plain downcall (entries may block or
/// call back: the tests run upcalls inside a batch); `BatchMode.CRITICAL` uses `critical(false)` and
/// `add` refuses any thunk not declared critical.
///
/// **Batch memory.** The command buffer and the argument area are each a `BatchRegion`: an owned,
/// confined `NativeBuffer` (malloc'd with 64 bytes of slack so the usable segment starts on a cache
/// line), so they are reserved against the budget before they are allocated, carry a heap shadow, count
/// in `NativeMemory.stats()` and are leak-tracked like any handle. Growing allocates a larger buffer,
/// copies the used bytes and closes the old one, so the reservation always equals what the batch holds
/// (`Batch.nativeBytes()`), and a segment taken before the move (`arguments()`, a block's `segment()`)
/// fails in Java instead of reading memory the batch left. `close()` closes both (the handles' CAS makes
/// it exactly once; from another thread it throws `WrongThreadException` and frees nothing).
/// `Batch.createShared` makes the same batch on shared buffers, for a component that hands one batch
/// between threads (one at a time, through a concurrent queue or a lock) and closes it from whichever
/// thread closes the component; `clear()` forgets the entries and keeps both buffers. A batch
/// never closed is freed by the GC and reported as a leak (type `NativeBuffer`, touch hint
/// `batch command buffer: mode=...`, allocation site the caller's line: `Batch` and `BatchRegion`
/// frames are skipped like the memory layer's own). The buffers belong to the batch alone (no scope
/// takes them). Handles recorded as arguments are pinned until `clear()` or `close()`; a batch dropped
/// unclosed unpins them from a cleaner (registered with the first pin, holding the pins, never the
/// batch). Replay touches none of this (measured: no allocation, same time).
///
///
/// **Declarations (`bindgen`).** `DeclarationsParser` reads the YAML with snakeyaml-engine's node
/// API (marks on every node) into records, then resolves every type reference onto `CType` once, so a
/// parsed file has no unknown or recursive type. Every error is a `DeclarationsException` starting
/// with `file:line:column`. The format's `T[n]` inside flow lists (`[[f32[4], v]]`) is not valid
/// YAML as written; the parser protects `[n]` after a type name with two private-use characters of the
/// same length before parsing, so columns stay exact. `Bindgen` writes the thunks of the batchable
/// functions with the Java sources; the fixture library (`bindgen/src/test`: 71 functions, every leaf,
/// every row of the matrix) and the bench suite generate and compile theirs in the build.
///
/// **Tier.BATCHED.** A function bound at that tier is recorded, not called:
/// `lib.function("add").type(cType).tier(Tier.BATCHED).recorder()` gives a `BatchedFunction` whose
/// `record(batch, args...)` appends an entry and writes the boxed arguments through its `ParamBlock`
/// (`Batch.add(Thunk, Object...)`: count and Java types checked against the C types before anything is
/// recorded; narrower integers widen; pointers must be native memory). The thunk `pmx_thunk_NAME` is
/// looked up in the library on first use (`thunk()` resolves it now), like a lazily linked downcall; a
/// missing one is a `SymbolNotFoundException` naming library, thunk symbol, function and what was
/// expected. `asCritical()` admits it to CRITICAL batches, `withStatus(rule)` makes every run check its
/// result. Because the thunk carries what FFM cannot, a function with a long double or over-aligned
/// struct parameter has no direct tier but records fine. Recording boxes; replay (arguments written
/// through `BatchEntry.params()` or `Batch.arguments()`) does not.
///
/// **Status rules from declarations (`bindgen`).** `Declarations.statusRule(function)` (`StatusRules`)
/// turns `returns: {type, status}` and the convention's `success` list into the `StatusRule` the runner
/// checks: the codes must be one contiguous range of values the return type holds, and the return type
/// must be the convention's type; anything else is a `DeclarationsException` at the function's
/// `returns`, never a rule that lets failures through. Out-parameter statuses (`errcode`) are not
/// results and get no rule. Every status function of `opencl.yaml` maps to `successIs(0)`.
package dev.panamax.core.batch;
