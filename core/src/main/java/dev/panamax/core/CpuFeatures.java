package dev.panamax.core;

import java.util.ArrayList;
import java.util.List;

/** x86-64 features that select run-time code paths; bits as in {@code cpu.c}. */
public record CpuFeatures(boolean sse42, boolean avx, boolean avx2, boolean f16c, boolean fma, boolean avx512f) {
    static CpuFeatures fromBits(int bits) {
        return new CpuFeatures((bits & 1) != 0, (bits & 2) != 0, (bits & 4) != 0, (bits & 8) != 0,
                (bits & 16) != 0, (bits & 32) != 0);
    }

    /** The names of the features present, e.g. {@code [sse4.2, avx, avx2, f16c, fma]}. */
    public List<String> names() {
        List<String> n = new ArrayList<>();
        if (sse42) n.add("sse4.2");
        if (avx) n.add("avx");
        if (avx2) n.add("avx2");
        if (f16c) n.add("f16c");
        if (fma) n.add("fma");
        if (avx512f) n.add("avx512f");
        return n;
    }
}
