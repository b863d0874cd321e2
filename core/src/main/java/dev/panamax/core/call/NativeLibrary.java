package dev.panamax.core.call;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * A loaded native library: its symbols, looked up once and cached, and the downcalls linked to them.
 *
 * <pre>{@code
 * final class Libm {
 *     static final NativeLibrary M = NativeLibrary.load("m");
 *     static final MethodHandle COS = M.downcall("cos", FunctionDescriptor.of(JAVA_DOUBLE, JAVA_DOUBLE), Tier.CRITICAL);
 * }
 * double c = (double) Libm.COS.invokeExact(0.5);
 * }</pre>
 *
 * <p>Downcall handles are linked lazily, on their first invocation, once per (symbol, signature,
 * tier, errno check); keep them in {@code static final} fields so the JIT folds them into the call
 * site. Libraries stay loaded for the life of the JVM, and loading the same name twice returns the
 * same instance.
 *
 * <p>A library can also be {@linkplain #deferred(List) deferred}: declaring its functions loads
 * nothing, the first call does, and a library that is not installed fails that call, and every later
 * one, with the same {@link LibraryNotFoundException}; generated bindings load their library this way,
 * so a class initializer never fails for want of a library.
 */
public final class NativeLibrary {
    private static final ConcurrentHashMap<String, NativeLibrary> LOADED = new ConcurrentHashMap<>();
    private static final NativeLibrary SYSTEM =
            new NativeLibrary("system", "the C library (linker default lookup)", Linker.nativeLinker().defaultLookup());

    private static final ConcurrentHashMap<String, NativeLibrary> DEFERRED = new ConcurrentHashMap<>();

    private final String name;
    /** Loads a deferred library (null once loaded, and for a library loaded at once). */
    private volatile Supplier<NativeLibrary> loader;
    private volatile String source;
    private volatile SymbolLookup lookup;
    private final ConcurrentHashMap<String, Optional<MemorySegment>> symbols = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<LinkRequest, LazyDowncall> downcalls = new ConcurrentHashMap<>();

    private NativeLibrary(String name, String source, SymbolLookup lookup) {
        this.name = name;
        this.source = source;
        this.lookup = lookup;
    }

    private NativeLibrary(String name, Supplier<NativeLibrary> loader) {
        this.name = name;
        this.source = name + " (not loaded yet)";
        this.loader = loader;
    }

    /**
     * Loads a library by short name ({@code "m"}, {@code "z"}, {@code "OpenCL"}), soname
     * ({@code "libz.so.1"}) or path ({@code "/opt/lib/libfoo.so"}). A short name is tried as
     * {@code libNAME.so} through the system loader, then as the versioned sonames found in the
     * library directories.
     *
     * @throws LibraryNotFoundException listing every candidate tried and why each failed
     */
    public static NativeLibrary load(String nameOrPath) {
        Objects.requireNonNull(nameOrPath, "nameOrPath");
        return loadFirst(List.of(nameOrPath));
    }

    /** Loads the library file at {@code path}. */
    public static NativeLibrary load(Path path) {
        return load(path.toAbsolutePath().toString());
    }

    /**
     * Loads the first of several names or paths that can be loaded (a declarations file's
     * {@code sonames: [OpenCL, libOpenCL.so.1]}).
     *
     * @throws LibraryNotFoundException listing every candidate of every name
     */
    public static NativeLibrary loadFirst(List<String> namesOrPaths) {
        if (namesOrPaths.isEmpty()) throw new IllegalArgumentException("no library name given");
        String key = String.join(",", namesOrPaths);
        return LOADED.computeIfAbsent(key, k -> open(namesOrPaths));
    }

    /**
     * The first of {@code namesOrPaths} that loads, loaded on first use: when a downcall declared on it is
     * first called, or a symbol first looked up. Until it loads, each such use tries again and throws
     * {@link LibraryNotFoundException} as {@link #loadFirst} would; nothing is cached on failure, so a
     * library installed later is found. Equal lists give the same instance.
     *
     * <pre>{@code
     * static final NativeLibrary CL = NativeLibrary.deferred(List.of("OpenCL", "libOpenCL.so.1"));
     * static final MethodHandle FINISH = CL.function("clFinish").returns(JAVA_INT).params(ADDRESS).link();   // loads nothing
     * }</pre>
     */
    public static NativeLibrary deferred(List<String> namesOrPaths) {
        if (namesOrPaths.isEmpty()) throw new IllegalArgumentException("no library name given");
        List<String> names = List.copyOf(namesOrPaths);
        String key = String.join(",", names);
        return DEFERRED.computeIfAbsent(key, k -> new NativeLibrary(k, () -> loadFirst(names)));
    }

    /**
     * A library found by {@code loader} on first use, as {@link #deferred(List)}: for libraries found by a
     * rule of their own (a glue library extracted from a jar unless the bound library carries its symbols).
     * {@code loader} runs until it returns a library; what it throws reaches the caller each time.
     */
    public static NativeLibrary deferred(String name, Supplier<NativeLibrary> loader) {
        Objects.requireNonNull(name, "name");
        return new NativeLibrary(name, Objects.requireNonNull(loader, "loader"));
    }

    /** The C library and what the platform linker exposes by default (libc, libm, libdl on Linux). */
    public static NativeLibrary system() {
        return SYSTEM;
    }

    private static NativeLibrary open(List<String> namesOrPaths) {
        List<Path> dirs = LibraryCandidates.defaultSearchDirectories();
        List<String> tried = new ArrayList<>();
        for (String n : namesOrPaths) {
            for (LibraryCandidates.Candidate c : LibraryCandidates.forName(n, dirs)) {
                try {
                    SymbolLookup lookup = c.open(Arena.global());
                    String source = c instanceof LibraryCandidates.LibraryFile f ? f.path().toString() : ((LibraryCandidates.SystemName) c).soname();
                    return new NativeLibrary(n, source, lookup);
                } catch (IllegalArgumentException | UnsatisfiedLinkError e) {
                    tried.add(c.describe() + ": " + e.getMessage());
                }
            }
        }
        throw new LibraryNotFoundException(String.join(",", namesOrPaths), tried, dirs);
    }

    /** The name or path this library was asked for by. */
    public String name() {
        return name;
    }

    /** What was opened: the soname handed to the system loader, or the file path (a deferred library not loaded yet: its names). */
    public String source() {
        return source;
    }

    /**
     * The address of {@code symbol}, if the library exports it. Looked up once, then cached.
     *
     * @throws LibraryNotFoundException when the library is deferred and cannot be loaded
     */
    public Optional<MemorySegment> find(String symbol) {
        Optional<MemorySegment> known = symbols.get(symbol);
        if (known != null) return known;
        SymbolLookup l = lookup();
        return symbols.computeIfAbsent(symbol, l::find);
    }

    /** The symbol lookup, loading a deferred library first (again on every use until it loads). */
    private SymbolLookup lookup() {
        SymbolLookup l = lookup;
        if (l != null) return l;
        synchronized (this) {
            if (lookup == null) {
                NativeLibrary loaded = loader.get();
                source = loaded.source;
                lookup = loaded.lookup();
                loader = null;
            }
            return lookup;
        }
    }

    /**
     * The address of {@code symbol}.
     *
     * @throws SymbolNotFoundException naming this library and the symbol
     */
    public MemorySegment symbol(String symbol) {
        return find(symbol).orElseThrow(() -> new SymbolNotFoundException(source, symbol));
    }

    /**
     * A downcall handle of type {@code descriptor.toMethodType()} (with a leading
     * {@code SegmentAllocator} for a struct return), linked at {@code tier} on first invocation.
     *
     * @throws NativeLinkException at {@link Tier#BATCHED}, which records instead of calling
     */
    public MethodHandle downcall(String symbol, FunctionDescriptor descriptor, Tier tier) {
        return link(new LinkRequest(symbol, Signature.of(descriptor), tier, ErrnoCheck.NONE), false);
    }

    /**
     * Starts declaring a function of this library: parameters (arrays too) or its C type, tier, errno
     * convention; {@link DowncallBuilder#link()} gives a method handle that calls it,
     * {@link DowncallBuilder#recorder()} (at {@link Tier#BATCHED}) a function recorded into batches.
     */
    public DowncallBuilder function(String symbol) {
        return new DowncallBuilder(this, symbol);
    }

    MethodHandle link(LinkRequest request, boolean now) {
        Objects.requireNonNull(request.tier(), "tier");
        Objects.requireNonNull(request.errnoCheck(), "errnoCheck");
        if (!request.tier().callsDirectly()) throw NativeLinkException.recordedNotCalled(source, request.symbol(), request.tier());
        Downcalls.validate(request);
        LazyDowncall d = downcalls.computeIfAbsent(request, r -> new LazyDowncall(this, r));
        if (now) d.link();
        return d.invoker();
    }

    @Override
    public String toString() {
        return "NativeLibrary[name=" + name + " source=" + source + "]";
    }
}
