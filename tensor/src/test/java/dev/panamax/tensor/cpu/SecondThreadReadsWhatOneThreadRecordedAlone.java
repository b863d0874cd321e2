package dev.panamax.tensor.cpu;

import dev.panamax.tensor.Backends;
import dev.panamax.tensor.Tensor;

import java.util.concurrent.CompletableFuture;

/**
 * The main thread records kernels while it is the only thread that ever used the lazy cpu backend
 * (so they are recorded without the bookkeeping across threads); a thread started afterwards
 * computes on the result, reads what it computed and closes the inputs. Exit 0 when it reads the right values, 3 when not.
 */
public final class SecondThreadReadsWhatOneThreadRecordedAlone {
    private SecondThreadReadsWhatOneThreadRecordedAlone() {}

    public static void main(String[] args) throws Exception {
        Backends.use(CpuBackend.NAME);
        int n = 4096;
        float[] values = new float[n];
        for (int i = 0; i < n; i++) values[i] = i;
        Tensor x = Tensor.of(values);
        Tensor doubled = x.mul(2);
        Tensor y = doubled.add(1); // both recorded, not run: this thread has been alone so far
        float[] seen = CompletableFuture.supplyAsync(() -> {
            float[] v;
            try (Tensor z = y.add(1)) { // a kernel of this thread reads what the first recorded
                v = z.toFloatArray();
            }
            x.close();
            doubled.close();
            return v;
        }, r -> new Thread(r, "second").start()).get();
        y.close();
        for (int i = 0; i < n; i++) {
            if (seen[i] != 2f * i + 2) {
                System.out.println("WRONG VALUE: element " + i + " is " + seen[i] + "; expected " + (2f * i + 2));
                System.exit(3);
            }
        }
        System.out.println("second thread read what the first recorded alone: ok");
    }
}
