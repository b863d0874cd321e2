package dev.panamax.core.batch;

import dev.panamax.core.CoreLibrary;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/** The batch runner of libpanamax, {@code int64_t pmx_batch_run(pmx_batch_entry *, int64_t)}, and its entry layout. */
final class BatchNative {
    static final int ENTRY_SIZE = 48;
    static final int THUNK = 0;
    static final int BLOCK = 8;
    static final int FLAGS = 16;
    static final int RESULT = 24;
    static final int LOW = 32;
    static final int HIGH = 40;

    static final int BY_VALUE = 1;
    static final int CHECK = 2;
    static final int SIGNED = 4;
    static final int SUCCESS_INSIDE = 8;

    private static final FunctionDescriptor RUN = FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.ADDRESS,
            ValueLayout.JAVA_LONG);
    static final MethodHandle RUN_STANDARD;
    static final MethodHandle RUN_CRITICAL;

    static {
        Linker linker = Linker.nativeLinker();
        MemorySegment run = CoreLibrary.symbol("pmx_batch_run");
        RUN_STANDARD = linker.downcallHandle(run, RUN);
        RUN_CRITICAL = linker.downcallHandle(run, RUN, Linker.Option.critical(false));
        MethodHandle size = linker.downcallHandle(CoreLibrary.symbol("pmx_batch_entry_size"),
                FunctionDescriptor.of(ValueLayout.JAVA_INT));
        int native_;
        try {
            native_ = (int) size.invokeExact();
        } catch (Throwable t) {
            throw new IllegalStateException("pmx_batch_entry_size failed", t);
        }
        if (native_ != ENTRY_SIZE) {
            throw new IllegalStateException("batch entry layout mismatch: native=" + native_ + " java=" + ENTRY_SIZE
                    + " library=" + CoreLibrary.path());
        }
    }

    private BatchNative() {}
}
