package dev.panamax.bench.batch;

import dev.panamax.bench.Measurement;
import dev.panamax.bench.Result;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Time to first call of 2,000 functions of distinct signatures, each run in a fresh child JVM: a
 * downcall handle per function (linked, then called once) against thunks through the one uniform
 * handle. Also reports the handles' linking alone.
 */
public final class BatchStartup implements Measurement {
    @Override
    public String suite() {
        return "batch";
    }

    @Override
    public List<Result> run(boolean quick) throws Exception {
        int runs = quick ? 3 : 7;
        double[] handles = new double[runs];
        double[] link = new double[runs];
        double[] thunks = new double[runs];
        for (int i = 0; i < runs; i++) {
            handles[i] = child("handles");
            thunks[i] = child("thunks");
            link[i] = child("link");
        }
        List<Result> out = new ArrayList<>();
        out.add(Result.of("startup.2000.perFunctionHandles.ms", "ms", handles, ""));
        out.add(Result.of("startup.2000.perFunctionHandles.linkOnly.ms", "ms", link, ""));
        out.add(Result.of("startup.2000.thunks.ms", "ms", thunks, "startup.2000.perFunctionHandles.ms"));
        out.add(Result.single("startup.2000.speedup", "x", Result.median(handles) / Result.median(thunks)));
        return out;
    }

    private static double child(String mode) throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "--enable-native-access=ALL-UNNAMED", "-Dpanamax.leakDetection=DISABLED",
                "-cp", System.getProperty("java.class.path"), StartupChild.class.getName(), mode)
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        if (p.waitFor() != 0) throw new IllegalStateException("startup child failed: mode=" + mode + " exit=" + p.exitValue());
        return Double.parseDouble(out.split(" ")[0]);
    }
}
