/// Matrix products on OpenCL devices through [CLBlast](https://github.com/CNugteren/CLBlast), the
/// tuned BLAS for any OpenCL device (NVIDIA, AMD, Intel, PoCL), for the OpenCL tensor backend.
///
/// **What is bound, and why.** `src/main/decl/clblast.yaml` was imported from Debian's
/// `clblast_c.h` (libclblast-dev 1.5.3) with `panamax bindgen import` and kept to what a tensor
/// backend needs; `panamax-bindgen-maven-plugin` generates `dev.panamax.clblast.binding` from it in
/// every build and checks every declaration against the header first (function arity and types,
/// each constant's value), so the file cannot drift from the library it loads:
///
/// | bound | why |
/// |---|---|
/// | `CLBlastSgemm`, `CLBlastHgemm` | one f32 or f16 product: `matmul` and a linear layer's forward and backward |
/// | `CLBlastSgemmStridedBatched`, `CLBlastHgemmStridedBatched` | a batched `matmul` in one enqueue, with a batch stride of 0 for a matrix the batch shares (a weight) |
/// | `CLBlastSgemmBatched` | products at listed offsets (raw and typed layers only) |
/// | `CLBlastClearCache` | CLBlast keeps compiled kernels for the process; this gives the memory back |
/// | `CLBlastStatusCode` | every code as a constant, and the `clblast_status` convention naming failures as CLBlast's documentation does (`kInvalidLeadDimA`) |
/// | `CLBlastLayout`, `CLBlastTranspose` | the enum values the routines take |
///
/// Nothing else of CLBlast's 200 routines: a tensor backend's elementwise and reduction kernels are
/// its own, and double precision, complex types, level 1 and 2 routines and the tuning API would be
/// code without a user. `cl_mem`, `cl_command_queue` and `cl_event` are opaque, borrowed handles:
/// the OpenCL binding (module `opencl`) creates and owns them, and this module adds no dependency
/// on it.
///
/// **The facade.** [ClBlast] calls the raw layer row-major with the caller's queue and buffers as
/// `MemorySegment`s ([DeviceMatrix]: buffer, offset and leading dimension in elements; [GemmShape]:
/// sizes and [Transpose]s; [GemmBatch]: count and strides). It checks what Java can (handles given
/// and not NULL, nothing negative, an event pointer large enough, f16 scalars that fit) and turns a
/// failed status into a [ClBlastException] with the routine, the status name and code, and the
/// call's sizes ([GemmCall]); CLBlast checks the rest itself (leading dimensions against the
/// shape, each buffer's size against the matrices it must hold, f16 support), so no call reads or
/// writes outside a buffer. [ClBlast#unavailableReason()] says whether `libclblast.so.1` loads, and
/// how to install it when not (`apt-get install libclblast1`; `./panamax` installs libclblast-dev).
///
/// **Costs to know.** The first product of each kind on a device compiles CLBlast's OpenCL kernels
/// (seconds on PoCL, cached for the process); CLBlast may allocate temporary buffers for shapes
/// its direct kernel does not cover. Calls stay on the standard tier: they block for compilation
/// and enqueue work.
package dev.panamax.clblast;
