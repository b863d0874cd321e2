package dev.panamax.core.memory;

import java.util.Locale;

/** Use of a handle after its release: {@code segment()}, {@code address()}, {@code retain()}, ... */
public final class HandleReleasedException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    private HandleReleasedException(String message) {
        super(message);
    }

    static HandleReleasedException released(String operation, NativeHandle h) {
        return new HandleReleasedException(String.format(Locale.ROOT,
                "handle already released: operation=%s type=%s address=0x%x byteSize=%d refCnt=%d",
                operation, h.getClass().getSimpleName(), h.rawAddress(), h.byteSize(), h.refCount()));
    }
}
