/// Tensors, autograd, nn layers and optimizers: the front end and its storage SPI.
///
/// **The user's side.** `Tensor` is an n-dimensional array of one `DType` (f32; f16 as storage, with
/// arithmetic in float and a rounding on store; i32/i64 for indices and labels): a `Storage`, a
/// `Shape`, element strides and an offset. Reshape (when strides allow; otherwise a copy, as in
/// NumPy), transpose/permute, slice with a step, select, (un)squeeze and expand/broadcast are new
/// strides over the same storage; broadcasting follows NumPy's rules. Every op checks its operands
/// first and throws `TensorException` naming the op, each operand's shape and dtype, and what it
/// expected: `add: shapes do not broadcast; expected equal sizes or 1 in each dimension aligned from
/// the right [a: (2, 3) f32, b: (4,) f32]`. Labels and indices are checked against their range
/// before any kernel runs (that reads them: a sync on a lazy backend).
///
/// **Dtype semantics.** One set of rules, PyTorch's where PyTorch defines one, the same on every
/// backend (`BackendContract` checks each with exact values on `reference` and on the backend under
/// test):
///
/// | Case | Rule | Example |
/// |------|------|---------|
/// | Mixed dtypes (`Promotion`) | PyTorch's `result_type`: tensors of rank >= 1 outrank rank-0 tensors, which outrank Java scalars; a lower rank changes the dtype only from integer to floating. f16+f32 is f32, i32+i64 is i64, integer+floating is the floating dtype; binary ops, `where`, `concat`/`stack` and in-place ops (stored converted; a floating result into an integer tensor is refused) | `i32 * 0.5 -> f32`, `i32 * 2 -> i32`, `f16 + f32 rank-0 -> f16`, `i32 + f16 rank-0 -> f16` |
/// | Scalars | a `double` is a float scalar (f32), a `long` (any Java integer literal) an integer scalar; an integer scalar beyond an i32 tensor's range is refused, an i64 one beyond 2^53 stays exact | `i32.add(3_000_000_000L)`: `scalar 3000000000 out of range for i32` |
/// | Division | `div` is true division: integers give f32 (x/0 is +-inf, 0/0 NaN) | `[7] / [2] -> 3.5` |
/// | Comparisons | 1 or 0 in the promoted dtype (there is no bool dtype) | `i32.gt(1.5) -> f32`, `i32.lt(2) -> i32` |
/// | Integer overflow | two's complement wrap, in elementwise ops and in sums beyond i64 | `i32 MAX + 1 -> MIN` |
/// | Sum of integers | widens to i64, as NumPy and PyTorch; `mean` of integers is refused (as PyTorch) | `sum([MAX, MAX, MAX] i32) -> 6442450941 i64` |
/// | Float to integer cast | Java's narrowing conversion: truncation toward zero, NaN to 0, beyond the range saturates at the bound. NumPy and PyTorch leave these cases to the platform (x86 gives INT_MIN for all three); a defined, documented answer that a JVM user already knows beats a platform's accident | `[NaN, inf, -inf, 3e9, -2.7] -> i32 [0, MAX, MIN, MAX, -2]` |
/// | Integer to integer / to float cast | low bits kept (two's complement), as NumPy's `astype`; integer to float rounds once to nearest even | `i64 2^32+5 -> i32 5` |
/// | Creation | `full`, `fill` and `arange` refuse a value the dtype cannot hold (NaN or out of range for an integer, a finite value that overflows f16/f32) instead of saturating | `arange(I32, 0, 3.5e9, 1e9)`: `value 3.0E9 at index 3 out of range for i32` |
/// | NaN | propagates through `relu`, `maximum`/`minimum`, `max`/`min` reductions; `argmax` points at the first NaN; gradients as PyTorch's (`maximum`/`minimum` pass the gradient to both sides where either is NaN, a NaN `max`/`min` shares it among the NaNs) | `relu(NaN) = NaN` |
/// | f16 | storage: arithmetic in f32, one rounding on store; `mean`, `softmax`, `logSoftmax`, `layerNorm` and cross-entropy accumulate in f32 (a plain f16 `sum` rounds its total to f16, as PyTorch's) | mean of 40,000 f16 twos is 2 |
/// | Empty axes | `sum` along an empty axis gives zeros, `mean` NaN, `max`/`min`/`argmax` are refused naming the axis; an empty tensor counts as contiguous | `zeros(3, 0).sum(1) -> [0, 0, 0]` |
/// | pow gradients | PyTorch's: 0 for the base where the exponent is 0, 0 for the exponent where the base is 0 and the exponent >= 0; pow of two integer operands is refused | `d(0^0)/dx = 0` |
/// | Shapes | at most `Shape.MAX_ELEMENTS` (2^60 - 1) elements, so every byte size fits a long; beyond, the error names the shape and its count | `full: shape (1073741824, 1073741824, 1073741824) has 1237940039285380274899124224 elements; expected at most Shape.MAX_ELEMENTS=1152921504606846975` |
/// | In-place from an overlapping view | `copyFrom` and the in-place binary ops read a source that is another view of the target's storage whole before writing (a copy), as NumPy does, so every backend gives one answer | `t[1:].copyFrom(t[:-1])` on `[1, 2, 3, 4]` -> `[1, 1, 2, 3]` |
/// | Optimizers | a parameter listed twice (or two leaves over one storage) is refused, naming both positions | `optimizer parameter index=2 (2, 3) f32 is the same tensor as parameter index=0` |
/// | PyTorch's defaults | `gelu()` is the tanh form (PyTorch's default is exact: `gelu("none")`); `var`/`std` are unbiased (correction 1; `N - correction <= 0` gives NaN or inf); `clamp` of an integer tensor gives f32; `topk` puts NaN first and ties in index order; `oneHot` gives i64 | `[1, 2, 3, 4].var() = 1.6667` |
///
/// **Lowering (tinygrad).** Every op lowers to a closed set of kernels (`spi.Kernel`, sealed): fill,
/// unary, binary, binary-with-scalar, where, reduce along one axis, batched matmul (rank 3, a batch
/// stride of 0 shares one matrix), index select and its adjoint index add. Movement ops never reach a
/// backend. Composites (softmax, log-softmax, layer norm, cross-entropy, mean) are built in Java from
/// ops, so their gradients follow from the primitives' and a backend implements only the set. matmul
/// flattens broadcast batch dimensions into one batch stride when the strides allow and copies
/// otherwise; 1-D operands are promoted and squeezed back, as NumPy does.
///
/// **Convolution and pooling (im2col).** `conv2d`, `maxPool2d` and `avgPool2d` gather every
/// window's elements with one `indexSelect` over the flattened input (padding reads one extra
/// element holding zero, or -inf for max), then reduce them: a (batched, for groups) matmul with the
/// flattened weight, the window's first maximum picked by `argmax`, or its mean. Overlapping windows
/// read an element several times and the gradient of `indexSelect` (index add) sums those reads, which
/// a strided view of the windows could not. `batchNorm` is a composite too; its running statistics
/// are updated in place outside the graph, and `nn.Module.namedBuffers` saves and moves them.
///
/// **The SPI.** `Backend.allocate` gives `Storage`, sealed: `HostStorage` (a core `NativeBuffer`,
/// plain or pooled, as elements of one dtype) or a device backend's `DeviceStorage`; either is one
/// core handle, reserved against a budget, visible to the GC at its true size and joining the
/// innermost scope. The frontend copies elements in and out only through `Backend.write`, `read` and
/// `copy` (creation, reading, `.npy`/`.npz`, `Tensor.to`). By default (`HostStorage.allocate`) storage of 1 KiB and more is leased from
/// `StoragePool`, one process-wide core `BufferPool` (created with `createForProcess`): a storage
/// freed by close, scope or GC gives its block back to its class (with its shadow when freed by
/// code), and the next storage of that class takes it, without malloc or first-touch page faults. One pool
/// for the process, not one per backend: every host backend uses the same memory, so a block one
/// frees serves any of them on any thread, and idle memory is capped once (1/8 of the budget, 1,024
/// blocks per class: a recording of 1,000 small ops frees 1,000 storages of one class at once)
/// against the one budget, which trims the pool before it waits for the GC. Smaller storage stays
/// with malloc, whose per-thread caches cost less than the pool's locks for small blocks (add16:
/// 268-276 ns with malloc, 280-308 through the pool). Pooled memory is not zeroed: the frontend writes
/// every element before it reads one, `zeros` is a fill, and accumulating kernels (`IndexAdd`, a
/// matmul with `accumulate`) get an output the frontend filled first; `StoragePoolTest` poisons idle
/// blocks and checks those ops. `panamax.tensor.pool=false` turns pooling off. `Backend.execute(kernel)` may run a kernel at once or record it; kernels take
/// effect in submission order, and a recording holds the `Storage` objects it uses, so the GC cannot
/// free them while they wait. After `sync()` Java may touch host storage memory; the frontend syncs
/// before freeing storage on purpose (`close`: `sync(storage)`; a `TensorScope`'s end: `flush()`, for
/// every backend in use; a device backend whose runs pin their storage only commits there) and on
/// `Tensor.sync()`; its reads and writes go through the backend's copies, which order themselves
/// after the kernels. `HostStorage.segment()` is an
/// unscoped view made on first Java access and checked for liveness at each call: a handle's own
/// shared-arena segment would cost a thread handshake at every free. Providers are found with
/// `ServiceLoader` (`BackendProvider`: name, priority, `unavailableReason()` instead of throwing);
/// the default is `-Dpanamax.tensor.backend`, else the available provider of highest priority;
/// `Backends.use(name)` sets it for the process, `Backends.using(name|backend)` for a block on one thread.
///
/// **Autograd (PyTorch).** An op whose input requires gradients records a `Node`: its inputs and a
/// closure that maps the output's gradient to the inputs' (told which are needed, so the gradient of
/// an input that needs none, such as a batch, is never computed). `backward()` orders the graph
/// (iterative DFS), runs each node once with the summed gradient under `noGrad`, reduces broadcast
/// gradients back to their operand's shape, accumulates into leaves' `grad()` (made outside any scope:
/// a gradient belongs to its leaf) and releases every node as soon as it ran, so what it saved becomes
/// garbage or is freed by the open scope; a second backward through it says so. In-place updates
/// (`addInPlace`, `copyFrom`, ...) refuse tensors that require gradients unless under `noGrad`, and
/// count as a version of their storage (`Storage.version()`); a node notes the versions of the tensors
/// its backward reads (`mul` its operands, `exp` its result, `add` none) and backward refuses to run
/// it if one changed since, as PyTorch's version counters do.
/// `Gradcheck` (tests) compares autograd with central finite differences for every differentiable op.
///
/// **Memory.** A tensor's storage is freed by the first of: `close()`, the end of the `TensorScope`
/// it was made in (the front end hands each new tensor's storage to the thread's innermost
/// `TensorScope`, built on `NativeScope`; nothing else joins it; `keep` moves a storage to the enclosing scope,
/// `TensorScope.run` keeps its result), or the GC once nothing refers to it. Parameters and optimizer
/// state are made with `TensorScope.unscoped` and belong to their module or optimizer; an optimizer's
/// `step()` runs in a scope of its own. The GC path is what ocaml-torch's custom blocks do, done with
/// core's shadows: a 10,000-step training run with no scope and no close in a 256 MiB heap
/// (`ChurnTest`, a child JVM, 2→16→3 MLP, Adam, batch 32) completes with peak RSS 277-327 MiB
/// on `cpu` over eight runs with the storage pool (234-243 MiB with `panamax.tensor.pool=false` in the
/// same session: blocks idle in one class cannot serve another) and 243 MiB on `reference` (260 MiB
/// without the pool) (VmHWM; bound asserted: 512 MiB), native peak 50-62 MB (37-38 MB without the pool;
/// 57 MB on `reference`), no reservation ever waiting, 100,000-160,000 storages freed by the GC. Core counts such releases as `releasedByGc` and its leak detection reports them
/// (sampled): the GC path keeps memory bounded, scopes are the intended way, and every test closes
/// or scopes what it makes (leak detection PARANOID).
///
/// **Contract tests.** `BackendContract` (tensor's test sources) is the abstract suite a backend
/// subclasses: every op on seeded random inputs in contiguous, transposed, strided-slice and
/// broadcast layouts and every dtype it takes, values and gradients compared with `reference` (relative
/// 2e-5, f16 2e-3). It also runs over `DeferringBackend`, the reference kernels recorded and run only
/// at `sync()` on storage filled with garbage at allocation, so a frontend path that reads or frees
/// before syncing fails; that found that scopes did not sync backends selected by instance. The
/// dtype rules above are checked there with exact values. `RandomTensorOps` (tensor's
/// `misuse` tests) runs random valid and invalid ops from four threads in child JVMs (every dtype,
/// empty, transposed and strided inputs, NaN, infinities, integer extremes, huge shapes) on `cpu` and
/// `reference`: each must agree, or both refuse with the same message; a crash or any other exception
/// fails it (`-Dpanamax.misuse.seeds=...` reruns a seed). It found C's `pow(1, NaN) = 1` against
/// Java's NaN in the reference, and an empty view read past its storage.
///
/// **Files.** `Npy` reads NumPy's `.npy` (versions 1-3, C or Fortran order, either byte order;
/// `f2`/`f4`/`i4`/`i8` as they are, `f8` to f32, small integers and bool to i32, `u4`/`u8` to i64) and
/// `.npz` (stored or deflated, zip64 as NumPy writes it), and writes version 1.0 files byte for byte
/// as NumPy does (tests compare with files NumPy wrote, `src/test/resources/npy/make_fixtures.py`).
/// `Parameters.save/load` use `.npz` with PyTorch's names (`0.weight`) and layouts. A header is parsed
/// as the Python dict literal it is (`NpyHeader`: exactly `descr`, `fortran_order`, `shape`, as NumPy
/// requires), so a key inside another value is never read as a key; a bool byte other than 0 reads as 1,
/// as NumPy reads it. Nothing is allocated before the data a header claims is known to be in the file
/// (or archive entry: its size, and at most 1,032 times its compressed size for a deflated one; a
/// stream of unknown length, `Npy.read`, is read in chunks before its storage is allocated).
/// Archives are read through their zip directory: a file cut short, or not a zip at all, fails naming
/// the complete entries and the one cut off (`NpzDamage`) instead of returning what came before it.
/// Every error names the file, the entry and the byte offset. Writers (`save`, `writeNpz`, so
/// `Parameters.save`) go through core's `AtomicFile`.
///
/// **Step capture** (`StepCapture`). A training or generation step recorded once and replayed with
/// new inputs, with no Java work per op on replay (PyTorch's CUDA graphs and tinygrad's `TinyJit` are
/// the model):
///
/// ```java
/// try (StepCapture step = StepCapture.of(in -> {
///         opt.zeroGrad();
///         Tensor loss = Loss.crossEntropy(model.forward(in[0]), in[1]);
///         loss.backward();
///         Gradients.clipByGlobalNorm(model.parameters(), 1.0);
///         opt.step();
///         return new Tensor[] {loss};
///     })) {
///     for (int i = 0; i < steps; i++) {
///         Tensor loss = step.run(xBatch, yBatch)[0];  // inputs copied in, one native crossing
///         if (i % 100 == 0) System.out.println(loss.item());
///     }
/// }
/// ```
///
/// The first `run` of an input signature (backend, each input's shape and dtype) runs the step
/// eagerly, so that gradients, optimizer moments and caches are made by kernels that are not
/// replayed; the second captures it: the Java code runs once more while the backend
/// (`Backend.beginCapture()`, SPI `Capture` and `CapturedProgram`) records every kernel into a
/// program instead of running it, on static input tensors of the capture's own; that call and every
/// later one copies the inputs in, runs the hooks registered while capturing
/// (`StepCapture.beforeEachRun`) and replays the program. A new signature (a shape change) warms up and
/// captures again; eight programs are kept, the least recently used closed beyond. Outputs are the
/// capture's own tensors, overwritten by every run and freed by `close()`.
///
/// What a replay could not repeat is refused at capture time with a `TensorException` naming it, and
/// the capture is abandoned (its memory freed, none of its kernels run): reading a value on the host
/// (`item()`, `toFloatArray()`, any `Backend.read`), a write from Java into storage that existed
/// before the step or that a captured kernel already used (a constant made inside the step, such as
/// `Tensor.of(...)`, is kept and read by every replay), a copy through Java, and a kernel the backend
/// can only run outside the program (on `cpu`, one without a native kernel: integer or f16
/// arithmetic, named with its dtypes and shapes). While capturing, the `cpu` backend checks indices in
/// its kernels (`checksIndices()`), so `indexSelect` and cross-entropy's labels need no host read; an
/// index out of range fails the replay with a `TensorException` naming the kernel. Java control flow
/// and scalar operands are frozen into the program: what changes from step to step must be an input
/// or be written before each run by a hook. `Adam` does this: under capture its fused kernels read
/// `[lr, lr / c1, 1 / c2]` from a three-float tensor per parameter group (`Kernel.AdamStep`'s
/// `stepScalars`), which its hook writes after counting the step, so a captured step follows an
/// `LrSchedule` applied outside it and computes bit for bit what the eager step computes (the test
/// trains the spirals for 20 steps both ways and compares every loss and parameter by its bits).
/// `Gpt.forwardIncremental` refuses capture (the `KvCache` position is Java state a replay would
/// freeze): capture a forward over a fixed window instead, one program per window length.
///
/// On `cpu` (`CpuCapture`, `CpuProgram`) the capturing thread's recorder hands each kernel's
/// descriptor (in chunks of the capture's own, never reused while the program lives) and thunk to a
/// core `Batch` that is never flushed mid-step; the program pins every storage a captured kernel
/// touches, so a tensor freed during the step or later gives its block back to the pool only when
/// the program closes, and a replay is one `Batch.run()`: one crossing. On `opencl` (`ClCapture`,
/// `ClProgram` in `dev.panamax.tensor.opencl`) the capturing thread's kernels are encoded into a
/// command buffer of the capture's own (`CommandQueue.commandBufferForRecording()`, which pins each
/// buffer it encodes), recorded at the end (`CommandBuffer.record()`), and a replay submits the
/// recording whole after the copies and hook writes before it: one command buffer per step, no
/// kernel lowered or encoded again (a CLBlast product is one Java call into CLBlast per replay).
/// Replays do not wait; an index out of range a replayed kernel finds is thrown by the next read.
/// Its Adam kernel reads the step scalars from device memory when given them. The `reference`
/// backend refuses capture with a `TensorException` naming it.
package dev.panamax.tensor;
