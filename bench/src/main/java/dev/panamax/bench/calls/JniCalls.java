package dev.panamax.bench.calls;

/** The JNI peer: native methods implemented by the Java_* functions of bench_calls.c. */
final class JniCalls {
    static {
        System.load(BenchLibrary.PATH.toString());
    }

    static long sink;

    private JniCalls() {}

    static native void nop();

    static native long add3(long a, long b, long c);

    /** Sums through GetPrimitiveArrayCritical: the JNI way to read a Java array in place. */
    static native float sumCritical(float[] values, int n);

    /** Calls {@link #callback(long)} n times from C through CallStaticVoidMethod. */
    static native void upcallN(int n);

    static void callback(long value) {
        sink += value;
    }
}
