package dev.panamax.opencl;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** The clGet*Info pattern in tests: a scalar value, or a string asked for its size first. */
final class Info {
    private Info() {}

    /** One clGet*Info call: {@code size} bytes into {@code value} (or none when NULL), the size needed into {@code sizeRet}. */
    interface Call {
        void into(long size, MemorySegment value, long[] sizeRet);
    }

    /** A 4- or 8-byte value, read as a long. */
    static long scalar(ValueLayout layout, Call call) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment value = arena.allocate(layout);
            call.into(value.byteSize(), value, null);
            return layout.byteSize() == Long.BYTES ? value.get(ValueLayout.JAVA_LONG, 0) : value.get(ValueLayout.JAVA_INT, 0);
        }
    }

    /** A NUL-terminated string: its size first, then the string. */
    static String string(Call call) {
        long[] size = new long[1];
        call.into(0, null, size);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment value = arena.allocate(Math.max(1, size[0]));
            call.into(value.byteSize(), value, null);
            return value.getString(0);
        }
    }
}
