package dev.panamax.core.call;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;

import static java.lang.invoke.MethodType.methodType;

/** Result filters that raise {@link ErrnoException} when a function declared to set errno reports failure. */
final class ErrnoFilters {
    private ErrnoFilters() {}

    static int checkInt(int result, ErrnoCheck check, String symbol) {
        if (check.failed(result)) throw Errno.failure(symbol);
        return result;
    }

    static long checkLong(long result, ErrnoCheck check, String symbol) {
        if (check.failed(result)) throw Errno.failure(symbol);
        return result;
    }

    static short checkShort(short result, ErrnoCheck check, String symbol) {
        if (check.failed(result)) throw Errno.failure(symbol);
        return result;
    }

    static byte checkByte(byte result, ErrnoCheck check, String symbol) {
        if (check.failed(result)) throw Errno.failure(symbol);
        return result;
    }

    static MemorySegment checkPointer(MemorySegment result, ErrnoCheck check, String symbol) {
        if (check.failed(result)) throw Errno.failure(symbol);
        return result;
    }

    /** The filter {@code (R)R} for results of type {@code carrier}. */
    static MethodHandle filter(Class<?> carrier, ErrnoCheck check, String symbol) {
        String name = carrier == int.class ? "checkInt" : carrier == long.class ? "checkLong"
                : carrier == short.class ? "checkShort" : carrier == byte.class ? "checkByte"
                : carrier == MemorySegment.class ? "checkPointer" : null;
        if (name == null) throw new IllegalArgumentException("no errno check for results of type " + carrier);
        try {
            MethodHandle m = MethodHandles.lookup().findStatic(ErrnoFilters.class, name,
                    methodType(carrier, carrier, ErrnoCheck.class, String.class));
            return MethodHandles.insertArguments(m, 1, check, symbol);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }
}
