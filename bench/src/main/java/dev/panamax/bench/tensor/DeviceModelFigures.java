package dev.panamax.bench.tensor;

import dev.panamax.bench.BenchSettings;
import dev.panamax.bench.Measurement;
import dev.panamax.bench.Result;
import dev.panamax.tensor.Backends;
import dev.panamax.tensor.TensorScope;
import dev.panamax.tensor.cpu.CpuBackend;
import dev.panamax.tensor.cpu.ThreadBudget;
import dev.panamax.tensor.spi.Backend;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The demos' models ({@link ModelFigures}' workloads: the transformer's training step at batch 32,
 * its greedy generation at batch 1 with the key/value cache, the CNN's training step) on the
 * {@code opencl} backend beside PyTorch on its peer device (CUDA where {@code torch.cuda.is_available()},
 * else the CPU; PyTorch's generation re-runs the window for every token, as in {@link ModelFigures}),
 * in alternating rounds of one run. Figures: {@code tensor.opencl.gpt.step.ms},
 * {@code tensor.opencl.gpt.generate.tokensPerS}, {@code tensor.opencl.cnn.step.ms}, the same under
 * {@code torch.DEVICE.}, and {@code .vsTorch}: opencl's value over PyTorch's in the same round (below
 * 1 is faster for a step, slower for tokens/s). Every step reads its loss, so each figure includes
 * the wait for the device.
 *
 * <p>On a GPU machine {@code bench/gpu/tensor-on-gpu.sh} runs it beside {@link DeviceFigures} with
 * {@code -Dpanamax.tensor.device=NVIDIA}. Where no OpenCL device is found the figures are skipped with
 * a line saying why; without the Python peers only Panamax's figures are reported. Rounds:
 * {@code panamax.bench.device.rounds} (default 5, 3 without {@code --full}).
 */
public final class DeviceModelFigures implements Measurement {
    @Override
    public String suite() {
        return "tensor";
    }

    @Override
    public List<Result> run(boolean quick) throws Exception {
        Backends.get(CpuBackend.NAME); // first, so its thread budget also holds PoCL
        Backend opencl;
        try {
            opencl = Backends.get("opencl");
        } catch (IllegalArgumentException | IllegalStateException e) {
            PythonPeers.say("opencl model figures skipped: " + e.getMessage());
            return List.of();
        }
        int gptSteps = quick ? 1 : 2, tokens = quick ? 8 : 16, cnnSteps = quick ? 10 : 20;
        List<ModelFigures.Workload> workloads = List.of(
                new ModelFigures.Workload("gpt.step", "ms", "dgpt " + gptSteps, m -> ModelFigures.msPer(gptSteps, m.gpt()::step)),
                new ModelFigures.Workload("gpt.captured.step", "ms", null, m -> ModelFigures.msPer(gptSteps, () -> ModelFigures.replay(m.gptCaptured()))),
                new ModelFigures.Workload("gpt.generate", "tokensPerS", "dgptgen " + tokens, m -> ModelFigures.tokensPerSecond(m.gpt(), tokens)),
                new ModelFigures.Workload("cnn.step", "ms", "dcnn " + cnnSteps, m -> ModelFigures.msPer(cnnSteps, m.cnn()::step)),
                new ModelFigures.Workload("cnn.captured.step", "ms", null, m -> ModelFigures.msPer(cnnSteps, () -> ModelFigures.replay(m.cnnCaptured()))));
        Integer givenRounds = BenchSettings.DEVICE_ROUNDS.get();
        int rounds = givenRounds != null ? givenRounds : quick ? 3 : 5;
        PythonPeers.say("opencl model figures on " + opencl.device());
        Optional<Path> python = PythonPeers.ensure(PythonPeers.defaultEnvironment());
        int w = workloads.size();
        double[][] panamax = new double[w][rounds], torch = new double[w][rounds];
        String device = "cpu";
        try (PeerProcess peers = python.isPresent() ? PeerProcess.start(python.get(), ThreadBudget.threads()) : null;
             var _ = Backends.using(opencl);
             ModelFigures.Models models = TensorScope.unscoped(ModelFigures.Models::create)) {
            if (peers != null) {
                device = peers.device();
                PythonPeers.say("PyTorch peers: " + peers.versions());
            }
            models.gpt().step(); // warm-up: kernels compiled, memory pooled
            models.gpt().generate(2);
            models.cnn().step();
            for (int i = 0; i < 3; i++) { // eager, captured, replayed
                ModelFigures.replay(models.gptCaptured());
                ModelFigures.replay(models.cnnCaptured());
            }
            for (int r = 0; r < rounds; r++) {
                PythonPeers.say("opencl models: round " + (r + 1) + "/" + rounds);
                for (int k = 0; k < w; k++) {
                    ModelFigures.Workload wl = workloads.get(k);
                    panamax[k][r] = wl.panamax().applyAsDouble(models);
                    if (peers != null && wl.peerCommand() == null) {
                        torch[k][r] = torch[k - 1][r]; // a captured step beside PyTorch's eager one of this round
                    } else if (peers != null) {
                        String name = "torch." + device + "." + wl.name() + "." + wl.unit();
                        Double v = peers.measure(wl.peerCommand()).get(name);
                        if (v == null) throw new IllegalStateException("peers.py answered '" + wl.peerCommand() + "' without " + name);
                        torch[k][r] = v;
                    }
                }
            }
            boolean withPeers = peers != null;
            List<Result> out = new ArrayList<>();
            for (int k = 0; k < w; k++) {
                ModelFigures.Workload wl = workloads.get(k);
                String ours = "tensor.opencl." + wl.name() + "." + wl.unit();
                String theirs = "torch." + device + "." + (wl.peerCommand() == null ? workloads.get(k - 1) : wl).name() + "." + wl.unit();
                out.add(Result.of(ours, wl.unit(), panamax[k], withPeers ? theirs : ""));
                if (!withPeers) continue;
                if (wl.peerCommand() != null) out.add(Result.of(theirs, wl.unit(), torch[k], ""));
                out.add(Result.of(ours + ".vsTorch", "x", DeviceFigures.ratios(panamax[k], torch[k]), ""));
            }
            return out;
        }
    }
}
