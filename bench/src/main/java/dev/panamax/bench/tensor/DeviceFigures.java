package dev.panamax.bench.tensor;

import dev.panamax.bench.BenchSettings;
import dev.panamax.bench.Measurement;
import dev.panamax.bench.Result;
import dev.panamax.tensor.Backends;
import dev.panamax.tensor.cpu.CpuBackend;
import dev.panamax.tensor.cpu.ThreadBudget;
import dev.panamax.tensor.opencl.OpenClTensorBackend;
import dev.panamax.tensor.spi.Backend;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code opencl} tensor backend beside the {@code cpu} backend and PyTorch on its own device
 * (CUDA where {@code torch.cuda.is_available()}, else the CPU), in alternating rounds of the same
 * workloads ({@link #workloads}): the spiral step, the big step, an elementwise add as bandwidth and
 * a square f32 product in TFLOPS. Per workload: {@code tensor.opencl.FIGURE},
 * {@code tensor.cpu.FIGURE} and {@code torch.DEVICE.FIGURE} (median, min and max over the rounds),
 * and the per-round ratios {@code tensor.opencl.FIGURE.vsTorch} and {@code .vsCpu} (opencl's value
 * over the other's, in the figure's own unit: below 1 is faster for a time, slower for a rate).
 * The training steps also give the opencl backend's {@code kernels}, {@code commits},
 * {@code syncs} per step and {@code kernelsPerCommit}, from its counters.
 *
 * <p>Where no OpenCL device is found the figures are skipped with a line saying why; without the
 * Python peers only Panamax's figures are reported. The device is chosen by
 * {@code -Dpanamax.tensor.device} (an index or part of its name, e.g. {@code NVIDIA}).
 * {@code --full} takes the sizes of the targets (64M floats, 4096 x 4096); the default is smaller
 * so that a 2-core machine runs it in about a minute. {@code panamax.bench.device.addElements}, {@code panamax.bench.device.matmulN} and
 * {@code panamax.bench.device.rounds} override the add's length, the product's size and the number of rounds.
 */
public final class DeviceFigures implements Measurement {

    @Override
    public String suite() {
        return "tensor";
    }

    /** The workloads, at the targets' sizes when {@code full}. */
    static List<DeviceWorkload> workloads(boolean full) {
        Long givenAdd = BenchSettings.DEVICE_ADD_ELEMENTS.get();
        long add = givenAdd != null ? givenAdd : full ? 64L << 20 : 16L << 20;
        Integer givenN = BenchSettings.DEVICE_MATMUL_N.get();
        int n = givenN != null ? givenN : full ? 4096 : 1024;
        return List.of(
                new DeviceWorkload.Step("spiral", 256, new int[]{2, 256, 256, 3}, full ? 100 : 20),
                new DeviceWorkload.Step("big", 1024, new int[]{784, 1024, 1024, 10}, full ? 5 : 2),
                new DeviceWorkload.Add(add, sizeLabel(add), full ? 10 : 4),
                new DeviceWorkload.Matmul(n, full ? 5 : 2));
    }

    /** {@code 64m} for 64 Mi elements, {@code 1000} for a length that is not a whole number of Mi. */
    static String sizeLabel(long elements) {
        return elements % (1L << 20) == 0 ? (elements >> 20) + "m" : Long.toString(elements);
    }

    @Override
    public List<Result> run(boolean quick) throws Exception {
        Backend cpu = Backends.get(CpuBackend.NAME); // first, so its thread budget also holds PoCL
        Backend opencl;
        try {
            opencl = Backends.get("opencl");
        } catch (IllegalArgumentException | IllegalStateException e) {
            PythonPeers.say("opencl figures skipped: " + e.getMessage());
            return List.of();
        }
        PythonPeers.say("opencl figures on " + opencl.device() + ", products through "
                + (opencl instanceof OpenClTensorBackend o && o.usesClBlast() ? "CLBlast" : "the generated kernel (no CLBlast)")
                + "; cpu backend on " + ThreadBudget.threads() + " thread(s)");
        Integer givenRounds = BenchSettings.DEVICE_ROUNDS.get();
        int rounds = givenRounds != null ? givenRounds : quick ? 5 : 11;
        Optional<Path> python = PythonPeers.ensure(PythonPeers.defaultEnvironment());
        List<Result> out = new ArrayList<>();
        try (PeerProcess peers = python.isPresent() ? PeerProcess.start(python.get(), ThreadBudget.threads()) : null) {
            if (peers != null) PythonPeers.say("PyTorch peers: " + peers.versions());
            for (DeviceWorkload w : workloads(!quick)) out.addAll(measure(w, rounds, cpu, opencl, peers));
        }
        return out;
    }

    private static List<Result> measure(DeviceWorkload w, int rounds, Backend cpu, Backend opencl, PeerProcess peers)
            throws Exception {
        double[] onCpu = new double[rounds], onOpenCl = new double[rounds], onTorch = new double[rounds];
        String torchName = peers == null ? null : "torch." + peers.device() + "." + w.figure();
        Map<String, Long> before;
        try (DeviceWorkload.Rounds c = w.prepare(cpu); DeviceWorkload.Rounds o = w.prepare(opencl)) {
            before = opencl.counters();
            for (int r = 0; r < rounds; r++) {
                PythonPeers.say(w.describe() + ": round " + (r + 1) + "/" + rounds);
                if (peers != null) {
                    Double v = peers.measure(w.peerCommand()).get(torchName);
                    if (v == null) throw new IllegalStateException("peers.py answered '" + w.peerCommand() + "' without " + torchName);
                    onTorch[r] = v;
                }
                onCpu[r] = c.measure();
                onOpenCl[r] = o.measure();
            }
        }
        Map<String, Long> after = opencl.counters();
        String name = "tensor.opencl." + w.figure();
        List<Result> out = new ArrayList<>();
        if (peers != null) out.add(Result.of(torchName, w.unit(), onTorch, ""));
        out.add(Result.of("tensor.cpu." + w.figure(), w.unit(), onCpu, peers == null ? "" : torchName));
        out.add(Result.of(name, w.unit(), onOpenCl, peers == null ? "tensor.cpu." + w.figure() : torchName));
        if (peers != null) out.add(Result.of(name + ".vsTorch", "x", ratios(onOpenCl, onTorch), ""));
        out.add(Result.of(name + ".vsCpu", "x", ratios(onOpenCl, onCpu), ""));
        if (w instanceof DeviceWorkload.Step s) {
            double steps = (double) rounds * s.steps();
            String prefix = "tensor.opencl." + s.kind() + ".step.";
            long kernels = delta(before, after, "kernels"), commits = delta(before, after, "commits");
            out.add(Result.single(prefix + "kernels", "per step", kernels / steps));
            out.add(Result.single(prefix + "commits", "per step", commits / steps));
            out.add(Result.single(prefix + "syncs", "per step", delta(before, after, "syncs") / steps));
            out.add(Result.single(prefix + "kernelsPerCommit", "kernels", commits == 0 ? 0 : (double) kernels / commits));
        }
        return out;
    }

    /** {@code a[i] / b[i]} for each round. */
    static double[] ratios(double[] a, double[] b) {
        if (a.length != b.length) throw new IllegalArgumentException("ratios of " + a.length + " and " + b.length + " rounds");
        double[] r = new double[a.length];
        for (int i = 0; i < a.length; i++) r[i] = a[i] / b[i];
        return r;
    }

    private static long delta(Map<String, Long> before, Map<String, Long> after, String counter) {
        return after.getOrDefault(counter, 0L) - before.getOrDefault(counter, 0L);
    }
}
