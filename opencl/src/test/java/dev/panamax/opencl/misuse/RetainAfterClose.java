package dev.panamax.opencl.misuse;

import dev.panamax.opencl.binding.CLApi;
import dev.panamax.opencl.binding.ClMem;

/** A typed retain of a closed buffer: HandleReleasedException, not a retain of freed memory. */
public final class RetainAfterClose {
    public static void main(String[] args) {
        try (Device d = new Device()) {
            ClMem m = d.buffer(64);
            m.close();
            CLApi.clRetainMemObject(m);
        }
    }
}
