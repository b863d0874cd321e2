package dev.panamax.core;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * The process environment as native libraries read it ({@code getenv} in C), for the settings a library
 * takes only from its environment when it loads or starts: OpenBLAS's thread count before it loads,
 * {@code LIBCLANG_DISABLE_CRASH_RECOVERY} before libclang's first index. {@link System#getenv} is the
 * JVM's copy from start-up and does not see what is set here; C does.
 *
 * <pre>{@code
 * NativeEnvironment.setIfUnset("OPENBLAS_NUM_THREADS", "1");   // before OpenBLAS is loaded
 * }</pre>
 */
public final class NativeEnvironment {
    private NativeEnvironment() {
    }

    /**
     * Sets {@code name} to {@code value} in the C environment unless it is set there already (a value the
     * user exported wins).
     *
     * @throws IllegalArgumentException when the name is empty or holds {@code '='} or a NUL, or the value holds a NUL
     */
    public static synchronized void setIfUnset(String name, String value) {
        if (name.isEmpty() || name.indexOf('=') >= 0 || name.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("environment variable name '" + name + "': expected a non-empty name without '=' or NUL");
        }
        if (value.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("environment variable " + name + ": its value holds a NUL character at index "
                    + value.indexOf('\0'));
        }
        try (Arena arena = Arena.ofConfined()) {
            int status = (int) Setenv.HANDLE.invokeExact(arena.allocateFrom(name), arena.allocateFrom(value), 0);
            if (status != 0) throw new IllegalStateException("setenv(" + name + ") failed with status " + status);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("setenv(" + name + ") failed", t);
        }
    }

    // a plain linker handle: called a few times in a process's life, not worth a lazily linked call site
    private static final class Setenv {
        static final MethodHandle HANDLE;

        static {
            Linker linker = Linker.nativeLinker();
            HANDLE = linker.downcallHandle(linker.defaultLookup().find("setenv").orElseThrow(),
                    FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.JAVA_INT));
        }
    }
}
