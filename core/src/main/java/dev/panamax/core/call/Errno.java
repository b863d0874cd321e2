package dev.panamax.core.call;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.util.Optional;

/**
 * errno capture and its text. Each thread owns one capture-state segment, reused by every call it
 * makes, so capturing errno allocates nothing per call. The strerror text comes from the C library
 * through FFM: the XSI {@code strerror_r} (glibc exports it as {@code __xpg_strerror_r}) into a
 * private buffer, or {@code strerror} copied at once where that is all there is.
 */
final class Errno {
    private static final StructLayout STATE_LAYOUT = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = STATE_LAYOUT.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    private static final ThreadLocal<MemorySegment> STATE =
            ThreadLocal.withInitial(() -> Arena.ofAuto().allocate(STATE_LAYOUT));

    private Errno() {}

    /** The calling thread's capture-state segment. */
    static MemorySegment state() {
        return STATE.get();
    }

    /** The errno captured by the calling thread's last capturing call. */
    static int captured() {
        return (int) ERRNO.get(STATE.get(), 0L);
    }

    /** The exception for {@code function} failing with the errno just captured on this thread. */
    static ErrnoException failure(String function) {
        int errno = captured();
        return new ErrnoException(function, errno, name(errno), describe(errno));
    }

    /** The C library's text for {@code errno}. */
    static String describe(int errno) {
        try (Arena arena = Arena.ofConfined()) {
            if (Libc.XSI_STRERROR_R != null) {
                MemorySegment buf = arena.allocate(256);
                int rc = (int) Libc.XSI_STRERROR_R.invokeExact(errno, buf, buf.byteSize());
                return rc == 0 ? buf.getString(0) : "Unknown error " + errno;
            }
            // strerror's buffer may be reused by the next call on this thread: copy it out at once
            MemorySegment text = (MemorySegment) Libc.STRERROR.invokeExact(errno);
            return text.address() == 0 ? "Unknown error " + errno : text.reinterpret(Long.MAX_VALUE).getString(0);
        } catch (Throwable t) {
            return "Unknown error " + errno + " (strerror failed: " + t + ")";
        }
    }

    /** The symbolic name ({@code EBADF}) where the C library has {@code strerrorname_np}, else {@code null}. */
    static String name(int errno) {
        if (Libc.STRERRORNAME_NP == null) return null;
        try {
            MemorySegment name = (MemorySegment) Libc.STRERRORNAME_NP.invokeExact(errno);
            return name.address() == 0 ? null : name.reinterpret(Long.MAX_VALUE).getString(0);
        } catch (Throwable t) {
            return null;
        }
    }

    /** libc functions, linked on first failure only. */
    private static final class Libc {
        static final SymbolLookup LOOKUP = Linker.nativeLinker().defaultLookup();
        static final MethodHandle XSI_STRERROR_R = link("__xpg_strerror_r",
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG));
        static final MethodHandle STRERROR = link("strerror",
                FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.JAVA_INT));
        static final MethodHandle STRERRORNAME_NP = link("strerrorname_np",
                FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.JAVA_INT));

        private static MethodHandle link(String name, FunctionDescriptor descriptor) {
            Optional<MemorySegment> symbol = LOOKUP.find(name);
            return symbol.map(s -> Linker.nativeLinker().downcallHandle(s, descriptor)).orElse(null);
        }
    }
}
