/// BLAS on Java arrays and native memory: `Blas` (sizes checked, then the generated typed layer
/// `dev.panamax.blas.binding.CBLASApi`), over the system's OpenBLAS.
///
/// **The declarations.** `blas/src/main/decl/cblas.yaml` (44 functions: s/d level 1, 2 and 3, and
/// five OpenBLAS runtime functions) is what bindgen turns into the raw and typed CBLAS layers in the
/// build (`panamax-bindgen-maven-plugin`), with the conventions of `opencl.yaml` (package
/// `dev.panamax.opencl`): every routine at `critical_heap`, every strided vector and matrix with a
/// length expression the typed layer checks. It was checked by hand against OpenBLAS's `cblas.h`,
/// which is not installed here.
///
/// **OpenBLAS comes from the system, not from a Maven artifact.** The alternative is
/// `org.bytedeco:openblas` (JavaCPP presets), whose platform jar ships `libopenblas.so.0`:
///
/// - Size: its `linux-x86_64` jar is 15 MB (34 MB unpacked: OpenBLAS 0.3.28 with LAPACK, plus
///   libgfortran, libquadmath and libgcc_s), per platform, against one 6.7 MB Debian package.
/// - JNI: half of that jar is JavaCPP's JNI glue (`libjniopenblas.so`, 24 MB), and its loader is
///   JavaCPP's. Panamax uses no JNI in production code; it would have to dig the one `.so` out of the
///   jar itself.
/// - CPU dispatch: Debian's build is `DYNAMIC_ARCH` and picks its kernels for the CPU at load time
///   (`panamax info` shows the choice, e.g. `Cooperlake`), as the bytedeco build does; nothing is lost.
/// - One way in: the OpenCL loader and PoCL can only come from the system (an OpenCL driver is
///   registered in `/etc/OpenCL/vendors`), so the launcher already installs system packages; OpenBLAS
///   joins that list and the distribution keeps it patched.
/// - The pthread variant is Debian's default (`libopenblas0` pulls it). The cpu tensor backend does not
///   let its pool run: OpenBLAS is held at one thread and runs inside the backend's own OpenMP team
///   (docs/ARCHITECTURE.md, "The cpu tensor backend"), so the pthread and OpenMP variants behave the
///   same there.
///
/// The cost: a machine without root or without apt must install the package by hand (the launcher
/// prints the command). Where that matters (macOS, other distributions), the `.so` of the bytedeco jar
/// can be extracted by `BundledLibrary` like libpanamax, without JavaCPP's loader; the declarations
/// file stays the same, since it loads by soname.
package dev.panamax.blas;
