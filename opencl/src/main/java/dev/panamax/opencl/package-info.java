/// Hand-written OpenCL conveniences (`OpenCl`, `ProgramBuildException`) over the binding generated
/// from `opencl/src/main/decl/opencl.yaml` (`dev.panamax.opencl.binding`); this page says what that
/// declarations file holds and why.
///
/// **The file.** `opencl.yaml` (OpenCL 3.0 core: 102 functions, 464 constants, 63 error names) is what
/// bindgen turns into the raw and typed OpenCL layers in the build (`panamax-bindgen-maven-plugin`). It
/// uses the keys of the declarations format, version 1, and the additions docs/DECLARATIONS.md
/// documents. It names its headers (`headers: [<CL/cl.h>, <CL/cl_ext.h>]`, Debian's
/// `opencl-c-headers`), so every build checks it against them: 1,243 facts (each function's arity,
/// result and parameter types, each struct's size, alignment and field offsets, each constant's
/// value) agree.
///
/// **Conventions** (the same for `blas/src/main/decl/cblas.yaml` where they apply):
///
/// - Tiers: `critical` for getters, retains and argument setters (short, never block, never call
///   back); `standard` for everything that may wait, build, free driver resources or run a callback on
///   the calling thread, enqueues included (an event callback may fire inside them); `critical_heap`
///   for every CBLAS routine, whose heap arrays then pass with no copy.
/// - Status: every `cl_int` return is `status: cl_status`, every `errcode_ret` is
///   `errcode: cl_status`; the convention names every code from -1 to -72 and the ICD loader's
///   `CL_PLATFORM_NOT_FOUND_KHR` (-1001).
/// - Ownership: handles returned by create calls and written to `event` out-parameters are owned.
///   `cl_platform_id` is `{handle: opaque, ownership: borrowed}`: OpenCL does not count platforms, so
///   no retain or release exists. `clGetDeviceIDs` hands out root devices with `ownership: borrowed`
///   (their release does nothing), and callbacks called once per registration say `calls: once`.
///   Handles passed into a callback are always borrowed for the call.
/// - Lengths the contract's plain `length: PARAM` could not say are written with the additions to
///   format 1 (docs/DECLARATIONS.md), and the typed layer checks them before the call: fixed counts,
///   `length: 3` (the `origin`/`region` arrays of the rectangular and image commands); zero-terminated
///   property lists, `terminated: true` (the eight OpenCL property parameters); length expressions
///   (every strided BLAS vector, `1 + (n - 1) * abs(incx)`, and matrix: leading dimension times rows or
///   columns, by order and transpose); `length` on a `ptr` counts bytes.
///
/// **The hand-written file against the import.** `panamax bindgen import /usr/include/CL/cl.h --filter
/// '^(cl|CL_)'` reproduces `opencl.yaml`'s functions with the same parameter and result types and its
/// constants with the same values (`OpenClImportTest` in bindgen-import asserts it, and each difference
/// below); what differs, and why:
///
/// - 11 functions the import has and the file leaves out on purpose: the ones deprecated in 1.1, 1.2
///   and 2.2 (`clCreateCommandQueue`, `clCreateImage2D/3D`, `clEnqueueTask`, ...), which `cl.h` still
///   declares with a deprecation attribute only.
/// - 2 functions the import skips: `clCreateImage` and `clCreateImageWithProperties` take
///   `cl_image_desc`, whose last member is an anonymous union (`buffer` / `mem_object`); the import
///   refuses anonymous nested unions by name, the file declares the union as its one `cl_mem buffer`
///   member (same size and offset, which the header check confirms).
/// - Callback types: the header gives the function pointer parameters no type names, so the import
///   names them after function and parameter (`clCreateContext_pfn_notify`); the file names them
///   (`cl_context_notify`); their signatures are the same.
/// - One parameter the file types more precisely than the header: `clCreateSubBuffer`'s
///   `const void *buffer_create_info` is `cl_buffer_region*` in the file (a re-import keeps such a
///   choice: any pointer matches `void *`).
/// - Scalar typedefs of `cl_platform.h` that no function uses (`cl_char`, `cl_half`, ...) are only in
///   the file: the import takes the named headers' own typedefs and the ones their declarations use.
/// - Three constants of the file are `cl_ext.h`'s, which the import of `cl.h` alone does not read.
/// - Everything a header cannot say is only in the file: the `cl_status` convention and every
///   `status`/`errcode`, ownership, lengths, `terminated` property lists, nullability, tiers.
///
/// The file stays the source (its annotations are most of its content); the header check makes the
/// part the header does say impossible to get wrong.
package dev.panamax.opencl;
