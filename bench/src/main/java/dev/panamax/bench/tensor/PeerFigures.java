package dev.panamax.bench.tensor;

import dev.panamax.bench.Measurement;
import dev.panamax.bench.Result;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The tensor suite's PyTorch and NumPy figures, from {@code peers.py} in a Python child process on one
 * thread: {@code torch.spiral.step.ms} (and {@code .cpu.ms}, the step in thread CPU time, beside
 * {@code tensor.spiral.step.cpu.ms}), {@code numpy.op.add16.ns},
 * {@code torch.op.add16.ns} and {@code torch.startup.firstOp.ms}. Each figure is the median of
 * several rounds (min and max beside it). {@code torch.big.step.ms} comes from
 * {@link BigStepAlternation}, in rounds alternating with Panamax's.
 */
public final class PeerFigures implements Measurement {
    /** One round per command; {@code quick} runs fewer rounds of the same size. */
    record Workload(String command, int quickRounds, int fullRounds) {}

    static final List<Workload> WORKLOADS = List.of(
            new Workload("add16 200000", 5, 10),
            new Workload("spiral 200", 5, 10));

    @Override
    public String suite() {
        return "tensor";
    }

    @Override
    public List<Result> run(boolean quick) throws Exception {
        Optional<Path> python = PythonPeers.ensure(PythonPeers.defaultEnvironment());
        if (python.isEmpty()) return List.of();
        Map<String, List<Double>> samples = new LinkedHashMap<>();
        try (PeerProcess peers = PeerProcess.start(python.get(), 1)) {
            PythonPeers.say("PyTorch and NumPy peers: " + peers.versions());
            peers.measure("startup").forEach((name, v) -> samples.computeIfAbsent(name, k -> new ArrayList<>()).add(v));
            for (Workload w : WORKLOADS) {
                int rounds = quick ? w.quickRounds() : w.fullRounds();
                for (int r = 1; r <= rounds; r++) {
                    PythonPeers.say("peers: " + w.command() + " (round " + r + "/" + rounds + ")");
                    peers.measure(w.command()).forEach((name, v) -> samples.computeIfAbsent(name, k -> new ArrayList<>()).add(v));
                }
            }
        }
        List<Result> out = new ArrayList<>();
        samples.forEach((name, values) -> out.add(Result.of(name, name.substring(name.lastIndexOf('.') + 1),
                values.stream().mapToDouble(Double::doubleValue).toArray(), "")));
        return out;
    }
}
