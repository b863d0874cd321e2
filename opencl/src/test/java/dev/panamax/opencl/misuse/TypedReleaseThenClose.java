package dev.panamax.opencl.misuse;

import dev.panamax.opencl.OpenCl;
import dev.panamax.opencl.binding.CLApi;
import dev.panamax.opencl.binding.ClCommandQueue;
import dev.panamax.opencl.binding.ClMem;

/** A typed release followed by close(), for a buffer and a queue: the close does nothing. */
public final class TypedReleaseThenClose {
    public static void main(String[] args) {
        try (Device d = new Device()) {
            ClMem m = d.buffer(64);
            CLApi.clReleaseMemObject(m);
            m.close();
            ClCommandQueue q = OpenCl.queue(d.context, d.device);
            CLApi.clReleaseCommandQueue(q);
            q.close();
        }
    }
}
