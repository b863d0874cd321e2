package dev.panamax.core.memory;

import java.util.ArrayList;
import java.util.List;

/** Holds three 2 MiB buffers in a tiny budget, then asks for more than is left. */
public final class OverLimitMain {
    private OverLimitMain() {}

    public static void main(String[] args) {
        List<NativeBuffer> held = new ArrayList<>();
        for (int i = 0; i < 3; i++) held.add(NativeBuffer.allocate(2 << 20));
        try {
            NativeBuffer.allocate(4 << 20);
            System.out.println("no error");
        } catch (OutOfMemoryError e) {
            System.out.println("OOM: " + e.getMessage());
        }
        held.forEach(NativeBuffer::close);
        NativeBuffer.allocate(4 << 20).close();
        System.out.println("after release: ok");
    }
}
