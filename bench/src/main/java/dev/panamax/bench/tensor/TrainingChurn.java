package dev.panamax.bench.tensor;

import dev.panamax.bench.Measurement;
import dev.panamax.bench.Result;

import java.io.BufferedReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * 10,000 spiral training steps with no scope and no close in a child JVM limited to
 * {@code -Xmx256m}, one kernel thread: whether it completes (no OutOfMemoryError, native or heap),
 * its peak RSS (VmHWM), the most native memory its tensors held at once against the native budget
 * that bounds it (by default min(physical - heap, max(heap, physical / 4))), and its time.
 * Figures: {@code tensor.churn10k.completed} (1/0), {@code tensor.churn10k.peakRss.MiB},
 * {@code tensor.churn10k.peakNative.MiB}, {@code tensor.churn10k.nativeLimit.MiB},
 * {@code tensor.churn10k.seconds}.
 */
public final class TrainingChurn implements Measurement {
    static final int STEPS = 10_000;
    static final String HEAP = "-Xmx256m";

    @Override
    public String suite() {
        return "tensor";
    }

    @Override
    public List<Result> run(boolean quick) throws Exception {
        List<String> cmd = List.of(ProcessHandle.current().info().command().orElse("java"),
                "--enable-native-access=ALL-UNNAMED", HEAP, "-Dpanamax.threads=1", "-Dpanamax.leakDetection=DISABLED",
                "-cp", System.getProperty("java.class.path"), TrainingChurnChild.class.getName(), Integer.toString(STEPS));
        PythonPeers.say("training churn: " + STEPS + " spiral steps, no scope, no close, " + HEAP);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        Map<String, String> result = new HashMap<>();
        StringBuilder tail = new StringBuilder();
        try (BufferedReader r = p.inputReader(StandardCharsets.UTF_8)) {
            for (String line; (line = r.readLine()) != null; ) {
                if (line.startsWith("progress ")) {
                    PythonPeers.say("training churn: " + line.substring(9) + " steps");
                } else if (line.startsWith("result ")) {
                    for (String part : line.substring(7).split(" ", 6)) {
                        int eq = part.indexOf('=');
                        result.put(part.substring(0, eq), part.substring(eq + 1));
                    }
                } else {
                    tail.append(line).append('\n');
                    if (tail.length() > 2000) tail.delete(0, tail.length() - 2000);
                }
            }
        }
        int exit = p.waitFor();
        List<Result> out = new ArrayList<>();
        if (result.isEmpty()) {
            PythonPeers.say("training churn: the child JVM exited " + exit + " without a result; its last output:\n" + tail);
            out.add(Result.single("tensor.churn10k.completed", "1/0", 0));
            return out;
        }
        boolean completed = "1".equals(result.get("completed"));
        if (!completed) PythonPeers.say("training churn failed: " + result.get("error"));
        out.add(Result.single("tensor.churn10k.completed", "1/0", completed ? 1 : 0));
        out.add(Result.single("tensor.churn10k.peakRss.MiB", "MiB", Long.parseLong(result.get("peakRssKiB")) / 1024.0));
        out.add(Result.single("tensor.churn10k.peakNative.MiB", "MiB", Long.parseLong(result.get("peakNativeKiB")) / 1024.0));
        out.add(Result.single("tensor.churn10k.nativeLimit.MiB", "MiB", Long.parseLong(result.get("nativeLimitKiB")) / 1024.0));
        out.add(Result.single("tensor.churn10k.seconds", "s", Double.parseDouble(result.get("seconds"))));
        return out;
    }
}
