package dev.panamax.bench.calls;

import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;

/** The JNA peer, in direct mapping (Native.register): JNA's fastest calling style. */
public final class JnaCalls {
    static {
        Native.register(JnaCalls.class, NativeLibrary.getInstance(BenchLibrary.PATH.toString()));
    }

    private JnaCalls() {}

    public static native void bench_nop();

    public static native long bench_add3(long a, long b, long c);
}
