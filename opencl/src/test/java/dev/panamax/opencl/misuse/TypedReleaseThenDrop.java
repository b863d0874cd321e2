package dev.panamax.opencl.misuse;

import dev.panamax.core.memory.NativeMemory;
import dev.panamax.opencl.binding.CLApi;
import dev.panamax.opencl.binding.ClMem;

/** Buffers released through the typed layer, then dropped unclosed: the GC and the cleaner find nothing to free. */
public final class TypedReleaseThenDrop {
    public static void main(String[] args) throws InterruptedException {
        try (Device d = new Device()) {
            for (int i = 0; i < 100; i++) {
                ClMem m = d.buffer(64);
                CLApi.clRetainMemObject(m);
                CLApi.clReleaseMemObject(m);
                CLApi.clReleaseMemObject(m);
            }
            for (int i = 0; i < 5; i++) {
                System.gc();
                Thread.sleep(20);
                NativeMemory.cleanUnreachable();
            }
            long byGc = NativeMemory.stats().releasedByGc();
            if (byGc != 0) throw new AssertionError("the GC released " + byGc + " handles already released by code");
        }
    }
}
