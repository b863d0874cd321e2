package dev.panamax.core;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Keeps the JVM's own handlers of {@code SIGSEGV}, {@code SIGBUS} and {@code SIGILL} in place when a
 * native library replaces them. The JVM takes these signals on purpose (a safepoint poll, an implicit
 * null check, a stack bang): a library that installs its own crash reporter for them (LLVM does when
 * PoCL or libclang start it) turns the next such signal into the death of the process, with no error
 * report. {@link #capture} remembers the JVM's handlers before such a library loads;
 * {@link #restore} puts them back after anything that may have loaded or started it (the library's
 * crash report is lost; a real crash there gets the JVM's error report instead). The JDK's own
 * answer, {@code LD_PRELOAD=libjsig.so}, needs the process's start; this needs nothing.
 * {@code SIGFPE} is left alone: PoCL's handler for it lets a kernel's integer division by zero go on.
 *
 * <p>Linux on x86-64 and AArch64 only (the layout of {@code struct sigaction} there); elsewhere both
 * methods do nothing.
 *
 * <pre>{@code
 * JvmSignalHandlers.capture();            // before the library loads
 * loadAndStartTheLibrary();
 * JvmSignalHandlers.restore();            // after it, and after whatever may start it again
 * }</pre>
 */
public final class JvmSignalHandlers {
    private static final int SIGILL = 4, SIGBUS = 7, SIGSEGV = 11;
    private static final int[] SIGNALS = {SIGSEGV, SIGBUS, SIGILL};
    /** {@code sizeof(struct sigaction)} on Linux x86-64 and AArch64 (glibc): handler, 128-byte mask, flags, restorer. */
    private static final long SIGACTION_BYTES = 152;
    private static final Optional<Native> NATIVE = Native.find();
    private static volatile MemorySegment[] saved;
    private static volatile List<String> restoredFrom = List.of();

    private JvmSignalHandlers() {}

    /**
     * Remembers the handlers installed now, once (later calls keep the first), and only when they are
     * the JVM's: handlers a library installed before this call are not taken for the JVM's.
     */
    public static synchronized void capture() {
        if (saved != null || NATIVE.isEmpty()) return;
        Native n = NATIVE.get();
        MemorySegment[] now = new MemorySegment[SIGNALS.length];
        for (int i = 0; i < SIGNALS.length; i++) {
            now[i] = Arena.global().allocate(SIGACTION_BYTES, 16);
            if (n.sigaction(SIGNALS[i], MemorySegment.NULL, now[i]) != 0) return;
            if (!n.library(handler(now[i])).contains("libjvm")) return;
        }
        saved = now;
    }

    /**
     * Puts back each captured handler another library replaced; returns how many it put back (0 when
     * nothing was captured or nothing changed).
     */
    public static synchronized int restore() {
        MemorySegment[] jvm = saved;
        if (jvm == null) return 0;
        Native n = NATIVE.get();
        int restored = 0;
        List<String> from = new ArrayList<>(restoredFrom);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment current = arena.allocate(SIGACTION_BYTES, 16);
            for (int i = 0; i < SIGNALS.length; i++) {
                if (n.sigaction(SIGNALS[i], MemorySegment.NULL, current) != 0) continue;
                long now = handler(current);
                if (now == handler(jvm[i])) continue;
                if (n.sigaction(SIGNALS[i], jvm[i], MemorySegment.NULL) == 0) {
                    restored++;
                    String library = n.library(now);
                    if (!from.contains(library)) from.add(library);
                }
            }
        }
        restoredFrom = List.copyOf(from);
        return restored;
    }

    /** The libraries whose handlers {@link #restore} replaced with the JVM's so far (for {@code info} and tests). */
    public static List<String> restoredFrom() {
        return restoredFrom;
    }

    /**
     * The shared object holding the handler of each signal kept here now ({@code SIGSEGV},
     * {@code SIGBUS}, {@code SIGILL}), by signal name; empty where the handlers cannot be read.
     */
    public static java.util.Map<String, String> currentHandlers() {
        if (NATIVE.isEmpty()) return java.util.Map.of();
        Native n = NATIVE.get();
        java.util.Map<String, String> out = new java.util.LinkedHashMap<>();
        String[] names = {"SIGSEGV", "SIGBUS", "SIGILL"};
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment current = arena.allocate(SIGACTION_BYTES, 16);
            for (int i = 0; i < SIGNALS.length; i++) {
                if (n.sigaction(SIGNALS[i], MemorySegment.NULL, current) == 0) out.put(names[i], n.library(handler(current)));
            }
        }
        return out;
    }

    /** Whether the JVM's handlers were captured (Linux, and captured before another library replaced them). */
    public static boolean captured() {
        return saved != null;
    }

    private static long handler(MemorySegment sigaction) {
        return sigaction.get(ValueLayout.JAVA_LONG, 0);
    }

    /** {@code sigaction} and {@code dladdr} from the C library. */
    private record Native(MethodHandle sigaction, MethodHandle dladdr) {
        static Optional<Native> find() {
            String os = System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT);
            String arch = System.getProperty("os.arch", "");
            if (!os.contains("linux") || !(arch.equals("amd64") || arch.equals("x86_64") || arch.equals("aarch64"))) return Optional.empty();
            Linker linker = Linker.nativeLinker();
            SymbolLookup libc = linker.defaultLookup();
            Optional<MemorySegment> sigaction = libc.find("sigaction"), dladdr = libc.find("dladdr");
            if (sigaction.isEmpty() || dladdr.isEmpty()) return Optional.empty();
            return Optional.of(new Native(
                    linker.downcallHandle(sigaction.get(), FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.ADDRESS)),
                    linker.downcallHandle(dladdr.get(), FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.ADDRESS))));
        }

        int sigaction(int signal, MemorySegment act, MemorySegment old) {
            try {
                return (int) sigaction.invokeExact(signal, act, old);
            } catch (Throwable t) {
                throw new IllegalStateException("sigaction(" + signal + ") failed: " + t, t);
            }
        }

        /** The file of the shared object holding {@code address}, or {@code "?"}. */
        String library(long address) {
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment info = arena.allocate(32, 8); // Dl_info: fname, fbase, sname, saddr
                int found = (int) dladdr.invokeExact(MemorySegment.ofAddress(address), info);
                if (found == 0) return "?";
                MemorySegment name = info.get(ValueLayout.ADDRESS, 0);
                return name.equals(MemorySegment.NULL) ? "?" : name.reinterpret(4096).getString(0);
            } catch (Throwable t) {
                return "?";
            }
        }
    }
}
