/// The cpu tensor backend: native kernels, OpenMP, OpenBLAS, lazy recording.
///
/// The `cpu` backend implements the tensor SPI's closed set of kernels natively. Its C lives in
/// `tensor/src/main/c` (one file per op kind: `elementwise.c`, `reduce.c`, `index.c`, `matmul.c`, `fused.c`, and
/// `threads.c` for the budget), built by the module's Maven build through `make/shared-library.mk`
/// into `libpanamax_tensor.so` (baseline x86-64, `-O3 -fopenmp`; the contiguous elementwise and
/// reduction loops are compiled twice with `target_clones("avx2", "default")` and picked by the CPU at
/// load time; `vmath.h` gives them exp and tanh as branch-free polynomials, within a few ulp, that gcc
/// vectorizes where glibc's are one call per element), linked against `libgomp.so.1` and `libopenblas.so.0`, and bundled in the jar
/// (`BundledNatives`).
///
/// **One kernel shape.** Every kernel is `int64_t pmx_t_NAME(void *descriptor)`: Java writes a
/// descriptor (8-byte words: op code, shape, per-operand element strides and addresses, scalars; each
/// C file documents its layout, `Descriptor` mirrors it) and passes its address. One pointer in makes
/// every kernel MetaABI's VOID_PTR shape, so its thunk (`pmx_thunk_pmx_t_NAME`, written beside each
/// kernel by the `PMX_KERNEL` macro) passes the batch entry's cell straight through, and the same
/// descriptor serves a direct call and a recorded one. The return is a status (0, or 1 + the position
/// of a bad index), checked by a `StatusRule` in batches. The kernels are bound by hand through
/// `NativeLibrary` (`CpuKernel`: a critical downcall for short work, a standard one from 2^16 element
/// operations, and a `BatchedFunction` recorder each) rather than by a declarations file: the library
/// ships in this module's jar and is extracted at run time, while a generated raw layer loads its
/// library by soname from the system's search path, and the bindgen plugin links its glue before the
/// module's own C is compiled.
///
/// **Lowering** (`Lowering`, `Dims`). Elementwise kernels (unary, binary, scalar, where, fill, copy
/// and casts between all four dtypes, f16 through C's `_Float16`, round to nearest even; float to
/// integer by the narrowing rule of "Dtype semantics", never C's undefined conversion) take any
/// strides: size-1 dimensions are dropped and neighbouring dimensions merged wherever every operand
/// allows, so two contiguous tensors of any rank arrive as one dimension and run the vectorized loop; a
/// broadcast scalar (stride 0) has its own loop. Reductions take a strided input along any axis; when
/// the reduced axis is not innermost and the rows are contiguous, a sum adds whole rows. Matmul reads
/// each matrix as row- or column-major (a transposed view is sgemm's transpose flag, a batch stride of 0
/// shares one matrix) and copies only a layout that is neither. Add, subtract, multiply, max, min and
/// the comparisons also run natively on I32 and I64 (wrapping as Java's arithmetic does: a causal
/// mask's position comparison, a max pool's choice of element). What is not native (integer division,
/// arithmetic on f16 tensors, index operations on non-contiguous operands) runs on the reference
/// implementation after the recording is flushed, counted as `fallbacks`; results never depend on
/// what is native, and the backend contract (`BackendContract`, subclassed lazy and eager) checks every
/// op against the reference.
///
/// **Fused kernels.** A training step's elementwise work is mostly a few chains that, as separate
/// ops, pass over the same memory many times and allocate a temporary per link. Two are kernels of the
/// SPI of their own, so every backend implements them and the contract checks them against the
/// reference: `AdamStep` (an Adam/AdamW update: the parameter, its gradient and both moments read once,
/// the three written back, where the same arithmetic as tensor ops took 13 kernels and 12 temporaries
/// per parameter) and `CrossEntropy` (mean loss of logits against integer labels, and the gradient
/// `(softmax - onehot) / n` from the same read of each row when autograd will ask for it; the backward
/// only scales it, where the composite took about 15 kernels and an integer comparison that ran on the
/// reference), and `Softmax` with its gradient `SoftmaxGrad` (each row's max, exponentials, sum and
/// scaling in one pass, `y * (dy - sum(dy * y))` in one more backward, over f32 rows of any strides in
/// `softmax.c`, vectorized where the rows are contiguous; the composite took five kernels forward and
/// about ten backward, each a pass over attention's (batch, heads, L, L) scores; causal attention's
/// mask is the kernel's `causalRows`, so no `where` runs forward or backward), and `LayerNorm` with its
/// gradient `LayerNormGrad` (each row's mean, variance and normalized, scaled and shifted output in
/// `layernorm.c`, the row statistics kept for the backward, which gives the input's gradient and the
/// weight's and bias's sums over the rows in one kernel; the composite took about ten kernels forward
/// and twenty backward), and `MaxPool2d` with its gradient `MaxPool2dGrad` (each window's largest
/// element and its position in `maxpool.c`, the gradient added at those positions a plane per thread;
/// the composite took patches, an argmax, a comparison, a where and a sum each way), and `BatchNorm` with
/// its gradient `BatchNormGrad` (batch normalization in training: each channel's mean, variance and
/// normalized, scaled and shifted output in `batchnorm.c`, the backward's input gradient and the
/// weight's and bias's sums in one kernel, a channel per thread). Relu's backward is one binary op (`RELU_BACKWARD`: the gradient where the input was
/// positive) instead of a mask and a product. Measured on the spiral step: 126 kernels per step became
/// 33. `Tensor.linear` (what `nn.Linear` calls) starts its output as the bias broadcast over the rows and
/// lets sgemm accumulate the product into it (beta = 1), so the bias costs no second pass or result,
/// and computes the weight's gradient as `g^T x`, row-major like the weight, so storing it is a plain
/// copy; a `matmul` whose right operand is a transposed view (`x.matmul(w.t())`) likewise computes its
/// gradient as `(g^T x)^T`. An inner dimension of at most 4 (points in the plane, a 3-class output
/// layer's backward) skips sgemm, whose packing costs more than the product there.
///
/// **Threads** (`ThreadBudget`). One budget for the process: `-Dpanamax.threads=N`, by default half the
/// available processors, at least 1 (1 on the 2-core machine: two OpenMP threads next to another busy
/// process made a PyTorch step 7-26x slower, one stayed steady). OpenMP regions run at most that many
/// threads and start only when the work pays for waking them (2^15 element operations for cheap
/// elementwise ops, 2^12 for transcendental ones, 2^18 multiply-adds for matmul); each thread takes
/// ggml's (ith, nth) share of the flattened index range (`pmx_parallel`). OpenBLAS is held at one
/// thread (`OPENBLAS_NUM_THREADS=1` in the environment before the kernels load it, then
/// `openblas_set_num_threads(1)`): matmul is parallel by split/combine instead, each OpenMP thread
/// multiplying its own batches, or its own rows of C when the batch is smaller than the team, so no two
/// threads write one element and the two pools never compete. `POCL_MAX_PTHREAD_COUNT` is set to the
/// budget before anything loads PoCL. Variables the user set are kept. libgomp keeps a team per calling
/// thread, so kernels are best driven from one thread. The budget is at most 4 threads per available
/// processor: a larger `panamax.threads` (or `demo --threads`) is refused when the backend is made,
/// naming the setting and the range, because libgomp ends the process when it cannot start a thread.
///
/// **Lazy execution** (`Recorder`). Eager ops are the API; the backend records. Each thread has a
/// recording: a kernel's descriptor is written into a descriptor area that stays put (64 KiB chunks,
/// reused), and the kernel is appended to a core `Batch` (STANDARD mode, so a recording of long kernels
/// never holds the GC at a safepoint). The recording runs in one crossing when the frontend syncs
/// (before Java reads, writes or frees storage, at the end of a `TensorScope`, on `Tensor.sync()`) or
/// when 1,024 kernels wait (`panamax.tensor.recording`); a full batch is run, cleared (`Batch.clear()`)
/// and reused, and the batch is closed at each sync, so between syncs the recording holds no native
/// memory. The recorded SPI kernels are held until they ran, so the GC cannot free a storage a waiting
/// kernel will touch, and they name the kernel if one fails. A short recording is not worth a batch
/// (making and freeing one costs more than a few crossings): up to four kernels run as direct calls at
/// the sync, and the fifth moves them all into the batch. `-Dpanamax.tensor.lazy=false` runs every kernel when submitted,
/// one crossing each. `CpuBackend.counters()` gives kernels, crossings, batched kernels and fallbacks.
///
/// *Across threads.* Each storage the backend makes carries a `Track` (`Storage.backendState()`): the
/// recorder of the thread that made it, the last `Recording` that writes it, and whether another
/// thread's kernel reads it. Before a kernel is recorded, the other threads' recordings it depends on
/// run (one that writes what it reads or writes; ones that read what it overwrites); a read, close or
/// `Tensor.sync()` on any thread (`Backend.sync(Storage)`) runs the recordings that touch that storage;
/// `sync()` (a scope's end) also runs every recording that touches storage made on another thread.
/// Each recorder has a lock its own thread holds while it records (uncontended on one thread) and
/// another thread takes to run it; a recording's `ran` flag is volatile and set after its kernels ran,
/// so results are visible to the thread that reads them. The batch's memory is its thread's own, so
/// another thread runs the recording as direct calls, and the batch is cleared by its thread later.
/// A recording pins each storage its kernels touch (once per recording) until they ran, and a read
/// pins what it copies, so a close on another thread racing them gives the block back to the pool
/// only afterwards. A full recording runs only between SPI kernels (after the kernel is noted), never
/// halfway through one, so every native kernel runs in the recording that pinned its storage and that
/// its storage notes: a recording is never dropped while a storage names it as its writer. An op the
/// backend refuses (an input freed by another thread) frees the result tensor it made. No thread ever
/// holds two recorders' locks. While one thread alone has used the lazy backend, its kernels skip this
/// bookkeeping (one lock per kernel remains); every later thread to use it first runs what the first
/// recorded, under the first's lock (not only the second: a third could otherwise compute on the
/// first's results before the second ran them).
///
/// **Step capture** (`CpuCapture`, `CpuProgram`; the frontend is `dev.panamax.tensor.StepCapture`).
/// `beginCapture()` runs what the thread recorded, then its recorder hands every native kernel to the
/// capture instead of its recording: descriptors go into 64 KiB chunks of the capture's own (never
/// reused while the program lives), thunks into a shared core `Batch` that nothing runs, clears or
/// flushes while capturing, and syncs on the capturing thread run nothing. The capture pins each
/// storage a captured kernel touches (once), so a tensor closed during the step or later keeps its
/// block out of the pool until the program closes; contiguous copies the lowering makes are the
/// program's. Refused at capture time with a `TensorException`: a kernel without a native lowering
/// (named, with dtypes and shapes), `read`, `copy`, and a `write` into storage that was not made during
/// the capture or that a captured kernel already touched. While capturing, `checksIndices()` is true:
/// the kernels' own status checks stand in for the frontend's host read of indices, and a replay that
/// meets an index out of range throws naming the kernel. A replay is `sync()` and one `Batch.run()`;
/// `AdamStep`'s descriptor word 13 points at its step scalars, read when the kernel runs.
package dev.panamax.tensor.cpu;
