package dev.panamax.bench.tensor;

import dev.panamax.bench.Measurement;
import dev.panamax.bench.Result;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code tensor.startup.firstOp.ms}: {@link FirstOpChild} in fresh JVMs on the default backend (cpu),
 * the median over several children; PyTorch's import and first op ({@code torch.startup.firstOp.ms})
 * is the peer.
 */
public final class FirstOpStartup implements Measurement {
    @Override
    public String suite() {
        return "tensor";
    }

    @Override
    public List<Result> run(boolean quick) throws Exception {
        int runs = quick ? 5 : 11;
        double[] ms = new double[runs];
        for (int i = 0; i < runs; i++) {
            System.err.println("tensor first op: child JVM " + (i + 1) + "/" + runs);
            ms[i] = child();
        }
        return List.of(Result.of("tensor.startup.firstOp.ms", "ms", ms, "torch.startup.firstOp.ms"));
    }

    private static double child() throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "--enable-native-access=ALL-UNNAMED", "-Dpanamax.threads=1",
                "-cp", System.getProperty("java.class.path"), FirstOpChild.class.getName())
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        if (p.waitFor() != 0) throw new IllegalStateException("first-op child failed: exit=" + p.exitValue() + " " + out);
        return Double.parseDouble(out);
    }
}
