/// Calls: libraries, linking, call tiers, heap arrays, scratch memory and errno; the design of calls and upcalls.
///
/// **Loading.** `NativeLibrary.load("z")` follows a plan (`LibraryCandidates`): `libz.so` through the
/// system loader (dlopen's own search: `LD_LIBRARY_PATH`, the ld.so cache, the default directories),
/// then `libz.so` and every versioned `libz.so.N[.M..]` found in the search directories
/// (`java.library.path`, `LD_LIBRARY_PATH`, `/etc/ld.so.conf.d/*.conf`, the usual system directories),
/// shortest version first. A soname (`libz.so.1`) is tried as given; a path is tried alone. Files that
/// are not ELF (`libm.so` is usually a linker script) are refused before the JVM's loader sees them. A
/// failure lists every candidate with its reason and the directories searched. Libraries are cached by
/// the name asked for and stay loaded (global arena); symbols are looked up once per library and cached.
/// `NativeLibrary.deferred(names)` is the same library loaded on first use: downcalls declared on it
/// link nothing until called, the first call (or symbol lookup) loads it, and while it cannot be loaded
/// every use tries again and throws the same `LibraryNotFoundException` (nothing is cached on failure),
/// so a class holding such handles never fails to initialize for want of the library.
///
/// **Linking.** A downcall is declared by symbol, `Signature` (return layout and `Param`s: values or
/// Java arrays with a `Direction`), `Tier` and `ErrnoCheck`; that record (`LinkRequest`, like the JDK's
/// `LinkRequest(descriptor, options)`) is the cache key, so equal declarations share one handle. The
/// handle given back is a `MutableCallSite`'s dynamic invoker whose first target resolves the symbol,
/// links and installs the linked handle: linking is lazy (a binding of thousands of functions links
/// only what it calls, and a symbol missing from an older library version fails only when called),
/// and after the first call the JIT treats the site's target as a constant, so a handle kept in a
/// `static final` field inlines like a raw FFM handle (measured equal, see BENCHMARKS.md). The
/// declaration is checked at once (layouts the linker cannot pass, an errno check that cannot judge the
/// return type); the linker's own refusals become `NativeLinkException`s naming library, symbol,
/// signature and tier. Everything after linking is method-handle combinators (`Downcalls`): no
/// reflection or boxing on the call path.
///
/// **Tiers.** `Tier` carries its meaning as data (whether it calls directly, linker options, whether
/// heap memory passes in place, whether the function may call back), so code asks the tier instead of
/// switching over it.
///
/// | tier | calls directly | linker options | heap memory in place | may call back |
/// |---|---|---|---|---|
/// | STANDARD | yes: `link()` gives a method handle | none | no (arrays staged) | yes |
/// | CRITICAL | yes | `critical(false)` | no (arrays staged) | no |
/// | CRITICAL_HEAP | yes | `critical(true)` | yes | no |
/// | BATCHED | no: `recorder()` gives a `BatchedFunction` | none (the batch's mode decides) | no (arguments copied into blocks) | in a STANDARD batch |
///
/// A function can be declared by layouts (`returns`, `param`) or by its C type (`type(CFunctionType)`:
/// the direct signature is the type's FFM layouts); BATCHED needs the C type, because the thunk's
/// parameter block is planned from it (see "Tier.BATCHED" below). `link()` at BATCHED, or
/// `downcall(..., Tier.BATCHED)`, is a `NativeLinkException` at declaration that names library, symbol
/// and the two ways out; the check sits in the link path only, so STANDARD and CRITICAL call paths are
/// unchanged.
///
/// **Java arrays at every tier.** An array parameter is a Java array on the Java side and a pointer on
/// the C side. At CRITICAL_HEAP it is passed in place (`MemorySegment.ofArray`, no copy). At the other
/// tiers the call opens a `ScratchStack` frame (thread-local native block, 64 KiB by default, bump
/// allocation, LWJGL `MemoryStack` style), stages each array into it (copied in for IN/INOUT, zeroed
/// for OUT), calls, copies OUT/INOUT arrays back if the call returned normally, and closes the frame
/// in a `tryFinally`, so a failing call leaves the stack as it found it. Arrays larger than what is
/// left of the block come from a confined arena owned by the frame and freed with it; virtual threads
/// use that path always (no block pinned per virtual thread). A `null` array is a NULL pointer. A heap
/// `MemorySegment` passed to a pointer parameter at a tier that cannot take it raises
/// `HeapMemoryException` naming the function, the parameter and the ways out: a filter on each
/// pointer argument (one type check) refuses it before the linker sees it. Not a handler around the
/// call: an exception handler made the compiled call too big for C2 to inline into the generated raw
/// method wrapping it, ~7 ns per call of a nine-argument function, measured on the null driver when it was removed.
///
/// **errno.** A function declared with an `ErrnoCheck` (`RETURNS_MINUS_ONE`, `RETURNS_NEGATIVE`,
/// `RETURNS_NONZERO`, `RETURNS_NULL`) is linked with `captureCallState("errno")`; the capture segment
/// is one per thread (no allocation per call) and is folded into the handle, and a result filter raises
/// `ErrnoException(function, errno, EBADF, "Bad file descriptor")` on failure. The text comes from libc
/// through FFM: XSI `strerror_r` into a private buffer (`__xpg_strerror_r` on glibc) and
/// `strerrorname_np` for the symbolic name where present.
///
/// **Upcalls.** An exception escaping an FFM upcall ends the JVM. `Upcalls` wraps every target with
/// `MethodHandles.catchException(Throwable)`: the exception is counted (per stub and in total), handed
/// to the stub's `UpcallExceptionHandler` or the default (a `System.Logger` warning), anything the
/// handler throws is dropped, and the stub returns its declared fallback; a non-void stub without a
/// fallback is refused when built. The guard costs nothing measurable (same ns per upcall as a raw stub).
///
/// **Callback registry.** As in go-metal's completion handlers, native code never holds a Java
/// reference: `CallbackRegistry` maps integer ids to handlers (one-shot or persistent) behind one shared
/// upcall stub per native callback shape, and the id travels as the callback's `user_data`. The shape
/// is a descriptor with the position of the user-data argument and a functional interface for the other
/// arguments; `CallbackRegistry.completions()` is the shared `void (*)(void *user_data, int64_t status)`
/// one. Dispatch is inline, or handed to an executor (virtual threads by default) so the native thread
/// returns at once. Ids are `generation << 20 | slot` in a lock-free slot table read without allocation;
/// freed slots are reused oldest first and only once hundreds are free, with a new generation, so a
/// late call with an unregistered id finds nothing (counted as a miss) rather than a newer handler.
/// Unregistering while native threads call is safe: a dispatch that found its handler before
/// `unregister` returned may still run it once; every later one is a counted miss.
package dev.panamax.core.call;
