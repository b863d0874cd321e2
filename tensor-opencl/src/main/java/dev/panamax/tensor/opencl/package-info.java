/// The `opencl` tensor backend: tensors on any OpenCL device (PoCL's CPU device in CI; NVIDIA, AMD
/// and Intel GPUs through their OpenCL drivers), written on the public compute API. Every
/// `dev.panamax.tensor.spi.Kernel` is generated OpenCL C, compiled once per device and encoded into
/// a command buffer without a host round trip; matrix products go to CLBlast where it is installed.
///
/// ```java
/// Backends.use("opencl");                                  // or -Dpanamax.tensor.backend=opencl
/// Tensor x = Tensor.of(batch, 256, 2);                      // on the device chosen by panamax.tensor.device
/// model.to("opencl");                                      // parameters move in place
/// float loss = (float) Tensor.crossEntropy(model.forward(x.to("opencl")), y).item();
/// ```
///
/// **The backend (`OpenClTensorBackend`).** Storage is `OpenClStorage`: a PRIVATE `Buffer` of the
/// device's pool (budgeted, visible to the GC through its heap shadow), its owned handle the
/// storage's. Kernels from every thread go, under the backend's lock, into one open command buffer
/// (UNRETAINED, CHECKED), committed without waiting every 512 kernels
/// (`panamax.tensor.opencl.kernelsPerCommit`), once the storage made since the last commit reaches a
/// quarter of the device budget, and at every `flush` (a scope's end), `sync(storage)` (a close) and
/// `sync()`, which also waits. Each committed run holds its kernels and pins the storage they touch
/// until the device is done, so a storage closed meanwhile keeps its block until then. Reads and
/// writes are blit commands in the same stream; a read waits for its command buffer; a write of a
/// native segment too, a heap one is copied when encoded. An allocation the budget refuses first
/// runs what waits (the storage only waiting kernels held becomes garbage) and tries again.
/// `counters()`: kernels, commits, kernels per commit, CLBlast products, syncs, reads, writes,
/// programs compiled.
///
/// **Products (`ClBlastProducts`).** A `MatMul` CLBlast takes directly (f32; f16 on a device with
/// half arithmetic; every size nonzero; each operand row-major or transposed with a leading
/// dimension; the output row-major; batches as one strided call, a stride of 0 sharing a matrix) is
/// a `NativeCommand` calling `CLBlastSgemm`/`CLBlastSgemmStridedBatched` (or the `Hgemm` forms) on
/// the queue at its place in the command buffer. `-Dpanamax.tensor.opencl.clblast=false` sends every
/// product to the generated kernel.
///
/// **Devices (`DeviceChoice`).** `panamax.tensor.device` picks an OpenCL device by index or by a
/// case-insensitive part of its name; unset, the first GPU, else the first device. The tensors'
/// `Device` is `opencl:<index> (<name>)`.
///
/// **Failures.** A program that does not compile, device memory the budget refuses, a command buffer
/// the device fails (reported at the next sync, naming the failing command and how many kernels it
/// carried) and any use after `close()` are `OpenClTensorException`s (`TensorDeviceException`s)
/// naming the kernel (family, op, dtypes, shapes) or the new tensor, and the device.
///
/// **Tests.** `OpenClBackendContractTest` runs the whole `BackendContract` on the device;
/// `OpenClBackendFailuresTest` the failures above; `DeviceStorageChurnTest` frees device storage by
/// close, scope and GC in a child JVM at PARANOID with a 64 MiB device budget, also with
/// `-XX:+DisableExplicitGC`.
///
/// ## The kernels
///
/// **Generation (`KernelSources`).** One program per kernel family and dtypes (`ProgramKey`:
/// `binary f32,f32`, `unary f16,i64`, `cross_entropy f32,i64,f32,f32`), holding every op of the
/// family. The generator is pure (a key always gives the same source) and the program compiles the
/// first time one of its kernels is encoded (`KernelCache`), so startup compiles nothing. A program
/// that fails to compile raises `KernelBuildException` naming the program, the kernel and the device,
/// with the build log. Programs compile with `-cl-fp32-correctly-rounded-divide-sqrt`, so f32 division
/// and square root round as the reference's (double, then rounded to float) does.
///
/// **Dtypes.** Arithmetic runs in the compute type of the dtype: `float` for f32 and f16, `int`,
/// `long`. f16 is stored as `half` and moved with `vload_half`/`vstore_half_rte` (present on every
/// device, no `cl_khr_fp16` needed), so it is computed in f32 and rounded once on store, as the
/// reference does. Integer `+ - *` wrap through the unsigned type (C leaves signed overflow
/// undefined; Java wraps), integer division truncates and gives Java's `MIN / -1 = MIN`. Conversions
/// follow the "Dtype semantics" table of `dev.panamax.tensor`: float to integer by Java's narrowing
/// (`isnan ? 0 : convert_int_sat_rtz`), integer to integer keeping the low bits, integer to float
/// `convert_float_rte`. Scalars (`BinaryScalar`, `Fill`) are converted on the host to the operand's
/// dtype exactly as the reference stores them, then passed in the compute type. `max`/`min` (binary
/// and reductions) propagate NaN as Java's `Math.max`; `argmax` takes the first NaN or maximum.
/// Sums of floats and cross-entropy accumulate in `acc_t`: double where the device has `cl_khr_fp64`
/// (as the reference), float otherwise; integer sums in `ulong` (wrapping, widened to i64).
///
/// **Elementwise families** (fill, unary, binary, binary with a scalar, where, the fused Adam step)
/// are written once as an `Elementwise` (operands, scalars, one element's statements) and emitted
/// twice. `Layout` first drops dimensions of extent 1 and merges neighbours every operand walks as
/// one, so a contiguous or uniformly broadcast block becomes a single dimension. When every operand
/// is then dense from its offset, the `_dense` kernel runs four elements per work item with one
/// vector load (`vload4`, `vload_half4`) and store per operand, and a scalar tail; otherwise the
/// `_strided` kernel decomposes the flat index over the shape and strides it reads from a `layout`
/// argument (`rank, shape..., then per operand offset, strides...`, passed with `setBytes`), so any
/// rank, transposes, slices with steps and zero (broadcast) strides take the same kernel.
///
/// **Reductions** along one axis: the output (the input's shape without the axis) is walked like an
/// elementwise layout. Axes shorter than 256 take `_rows` (one work item per output element walking
/// the axis); longer ones `_tree` (one work-group of up to 256 threads per output element: each
/// thread strides the axis, then pairs combine in local memory). Both combine in a fixed order, so
/// results never depend on timing; no float atomics anywhere.
///
/// **MatMul** is a batched tiled GEMM (16 x 16 work-groups, 16-wide slabs of `a` and `b` staged in
/// local memory, accumulation in float) over any strides, a batch stride of 0 included, and with
/// `accumulate`. Tuned libraries (CLBlast) serve most products; this kernel serves the layouts they
/// cannot take and is the reference in tests.
///
/// **Indexing.** `index_select` walks the output and reads the input's index along the axis from the
/// index tensor. `index_add` runs one work item per column of `src` (every coordinate but the axis)
/// walking the index in order, so each output element is updated by one work item in the reference's
/// order: deterministic and bit-identical to it, without atomics.
///
/// **Fused.** `adam_step` updates parameter and moments in one elementwise pass (bias corrections,
/// step size and decay factor computed on the host); `adam_step_scalars`, for an update given step
/// scalars, reads lr, step size and `1 / c2` from a device buffer when it runs (a captured step's
/// hook writes them before each replay). `cross_entropy` runs in one work-group: each
/// thread takes every group-th row (max, sum of exponentials, loss, gradient row) and the row losses
/// are summed pairwise in local memory.
///
/// **Step capture** (`ClCapture`, `ClProgram`). While a thread captures a step, its kernels are
/// encoded into a command buffer of the capture's own, made for recording (each buffer pinned when
/// encoded, so the step may free its intermediates), never the shared open one; the end of the
/// capture records it (`CommandBuffer.record()`), and each replay commits what is open, then submits
/// the recording: one command buffer per step, no kernel lowered or encoded again; the compute
/// backend plans its OpenCL calls again per submission. A CLBlast product stays a native command, so
/// a replay makes one Java call per product. Host reads, Java writes into storage the capture uses or
/// that existed before it, and copies through Java are refused at capture time; the index-error
/// record is read, as for any run, at the next sync that waits.
///
/// **Encoding (`KernelEncoder`).** Buffers are bound whole; element offsets, shapes and strides are
/// kernel arguments, so no operand needs an aligned sub-buffer. Every dispatch is a whole number of
/// threadgroups (`Size.threadgroupsCovering`) and every kernel bound-checks its index; an empty kernel
/// dispatches nothing.
///
/// **Tests.** `KernelEncoderTest` runs every family, op and dtype on PoCL in contiguous, transposed,
/// broadcast and empty layouts and compares each result with the `reference` backend on the same
/// bytes: integers exactly, floats to float rounding (relative 2e-5, f16 2e-3), with NaN, infinities
/// and integer extremes among the inputs of conversions; a rank-4 permuted case; and a program that
/// does not compile, whose exception must name it, its kernel and the device. `LayoutTest` checks the
/// index-space plan (merging, density, the packed `layout` argument) without a device.
package dev.panamax.tensor.opencl;
