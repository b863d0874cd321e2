package dev.panamax.opencl.misuse;

import dev.panamax.opencl.binding.ClMem;

/** newReference() of a closed buffer: HandleReleasedException before clRetainMemObject is called. */
public final class NewReferenceAfterClose {
    public static void main(String[] args) {
        try (Device d = new Device()) {
            ClMem m = d.buffer(64);
            m.close();
            m.newReference();
        }
    }
}
