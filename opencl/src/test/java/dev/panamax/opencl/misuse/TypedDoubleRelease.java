package dev.panamax.opencl.misuse;

import dev.panamax.opencl.binding.CLApi;
import dev.panamax.opencl.binding.ClMem;

/** A buffer released twice through the typed layer: the second release throws HandleReleasedException. */
public final class TypedDoubleRelease {
    public static void main(String[] args) {
        try (Device d = new Device()) {
            ClMem m = d.buffer(64);
            CLApi.clReleaseMemObject(m);
            CLApi.clReleaseMemObject(m);
        }
    }
}
