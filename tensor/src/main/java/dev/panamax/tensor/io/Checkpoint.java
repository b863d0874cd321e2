package dev.panamax.tensor.io;

import dev.panamax.tensor.Autograd;
import dev.panamax.tensor.Tensor;
import dev.panamax.tensor.TensorScope;
import dev.panamax.tensor.nn.Module;
import dev.panamax.tensor.optim.Optimizer;
import dev.panamax.tensor.optim.OptimizerState;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A training run saved to one safetensors file ({@link SafeTensors}), so that a run resumed from it
 * computes exactly what the uninterrupted run would have. The names:
 * <ul>
 *   <li>the model's parameters and buffers under their {@link Module#stateDict()} names, as PyTorch's
 *   {@code model.state_dict()} names them ({@code 0.weight}, {@code 0.bias}): the file's tensors
 *   without the {@code optimizer.} prefix are exactly a PyTorch state dict, which
 *   {@code model.load_state_dict(safetensors.torch.load_file(f), strict=False)} takes;</li>
 *   <li>the optimizer's tensors under {@code optimizer.} and PyTorch's optimizer state names
 *   ({@link OptimizerState}): {@code optimizer.state.0.exp_avg}, {@code optimizer.state.0.exp_avg_sq}
 *   (Adam), {@code optimizer.state.0.momentum_buffer} (SGD), the index being the parameter's
 *   position in the optimizer;</li>
 *   <li>metadata (strings): {@code format} = {@code pt} (what Hugging Face tools look for),
 *   {@code panamax.checkpoint} = {@code 1}, {@code step} (the training step), {@code optimizer}
 *   (its class: {@code Adam}, {@code SGD}), the optimizer's values under {@code optimizer.}
 *   ({@code optimizer.step}, {@code optimizer.param_groups.0.lr}, ...) and {@code rng} (a
 *   {@link RestorableRandom}'s state as {@code splitmix64:<16 hex digits>}).</li>
 * </ul>
 * The modules here have no buffers (running statistics); their parameters are the whole model state.
 *
 * <pre>{@code
 * Checkpoint.save(Path.of("run.safetensors"), model, adam, step, rng);
 * long step = Checkpoint.load(Path.of("run.safetensors"), model, adam, rng);   // resume
 * Checkpoint.loadModule(Path.of("torch.safetensors"), model);                   // weights only
 * }</pre>
 */
public final class Checkpoint {
    /** The prefix of the optimizer's tensors and values. */
    public static final String OPTIMIZER = "optimizer.";
    private static final String RNG_ALGORITHM = "splitmix64:";

    private Checkpoint() {}

    /**
     * Writes {@code module}'s parameters, {@code optimizer}'s state, {@code step} and {@code rng}'s
     * state (null: none) to {@code file}, atomically.
     */
    public static void save(Path file, Module module, Optimizer optimizer, long step, RestorableRandom rng) throws IOException {
        save(file, module, optimizer, step, rng, Map.of());
    }

    /**
     * As {@link #save(Path, Module, Optimizer, long, RestorableRandom)}, with {@code extra} strings in
     * the metadata beside the checkpoint's own (an application's description of its model, such as its
     * sizes, so that loading can rebuild the architecture); {@link SafeTensors#header(Path)} reads
     * them back.
     *
     * @throws IllegalArgumentException when an extra key is one the checkpoint writes itself
     */
    public static void save(Path file, Module module, Optimizer optimizer, long step, RestorableRandom rng, Map<String, String> extra)
            throws IOException {
        Map<String, Tensor> tensors = new LinkedHashMap<>(module.stateDict());
        Map<String, String> metadata = new LinkedHashMap<>();
        for (String key : extra.keySet()) {
            if (key.equals("format") || key.equals("panamax.checkpoint") || key.equals("step") || key.equals("rng")
                    || key.equals("optimizer") || key.startsWith(OPTIMIZER)) {
                throw new IllegalArgumentException("Checkpoint.save: extra metadata key '" + key
                        + "' is one the checkpoint writes itself; expected another name (format, panamax.checkpoint, step, rng, optimizer"
                        + " and optimizer.* are taken)");
            }
        }
        metadata.put("format", "pt");
        metadata.put("panamax.checkpoint", "1");
        metadata.put("step", Long.toString(step));
        OptimizerState state = optimizer.state();
        metadata.put("optimizer", state.kind());
        for (Map.Entry<String, Tensor> e : state.tensors().entrySet()) tensors.put(OPTIMIZER + e.getKey(), e.getValue());
        for (Map.Entry<String, String> e : state.values().entrySet()) metadata.put(OPTIMIZER + e.getKey(), e.getValue());
        if (rng != null) metadata.put("rng", RNG_ALGORITHM + String.format("%016x", rng.state()));
        metadata.putAll(extra);
        SafeTensors.write(file, tensors, metadata);
    }

    /**
     * Restores what {@link #save} wrote into {@code module}, {@code optimizer} and {@code rng} (null:
     * not restored) and returns the saved step. Nothing changes unless the whole file fits: the
     * parameters' names and shapes (a file of another architecture fails naming the tensors missing,
     * extra or of another shape), the optimizer's kind and state, the RNG state.
     *
     * @throws IOException              when the file cannot be read or is not a valid safetensors file
     * @throws IllegalArgumentException when it does not fit the model, optimizer or generator
     */
    public static long load(Path file, Module module, Optimizer optimizer, RestorableRandom rng) throws IOException {
        SafeTensorsHeader header = SafeTensors.header(file);
        checkArchitecture(file, header, module);
        Map<String, String> metadata = header.metadata();
        long step = parseStep(file, metadata.get("step"));
        long rngState = rng == null ? 0 : parseRng(file, metadata.get("rng"));
        try (var _ = TensorScope.open(); var _ = Autograd.noGrad(); var content = SafeTensors.read(file)) {
            Map<String, Tensor> optimizerTensors = new LinkedHashMap<>();
            Map<String, String> optimizerValues = new LinkedHashMap<>();
            content.tensors().forEach((name, t) -> {
                if (name.startsWith(OPTIMIZER)) optimizerTensors.put(name.substring(OPTIMIZER.length()), t);
            });
            metadata.forEach((key, value) -> {
                if (key.startsWith(OPTIMIZER)) optimizerValues.put(key.substring(OPTIMIZER.length()), value);
            });
            String kind = metadata.get("optimizer");
            if (kind == null) {
                throw new IllegalArgumentException(file + ": no 'optimizer' in the metadata; expected a checkpoint Checkpoint.save wrote"
                        + " (for weights only, use Checkpoint.loadModule)");
            }
            optimizer.restore(new OptimizerState(kind, optimizerTensors, optimizerValues), file.toString());
            copyParameters(content.tensors(), module);
        }
        if (rng != null) rng.restore(rngState);
        return step;
    }

    /**
     * Copies the parameters of a safetensors file into {@code module} by name (converted to each
     * parameter's dtype and backend), as PyTorch's {@code load_state_dict(strict=True)}: a file
     * written by {@code safetensors.torch.save_file(model.state_dict(), f)} for the same
     * architecture, or a checkpoint (its optimizer tensors are ignored).
     *
     * @throws IllegalArgumentException naming the tensors missing, extra or of another shape
     */
    public static void loadModule(Path file, Module module) throws IOException {
        SafeTensorsHeader header = SafeTensors.header(file);
        checkArchitecture(file, header, module);
        try (var _ = TensorScope.open(); var _ = Autograd.noGrad(); var content = SafeTensors.read(file)) {
            copyParameters(content.tensors(), module);
        }
    }

    private static void copyParameters(Map<String, Tensor> saved, Module module) {
        for (Map.Entry<String, Tensor> e : module.stateDict().entrySet()) {
            Tensor p = e.getValue();
            p.copyFrom(saved.get(e.getKey()).to(p.backend()).cast(p.dtype()));
        }
    }

    /** Every parameter present with its shape, and no other tensor outside the optimizer's (as PyTorch's strict loading). */
    private static void checkArchitecture(Path file, SafeTensorsHeader header, Module module) {
        Map<String, Tensor> parameters = module.stateDict();
        List<String> reshaped = new ArrayList<>(), missing = new ArrayList<>(), extra = new ArrayList<>();
        for (Map.Entry<String, Tensor> e : parameters.entrySet()) {
            SafeTensorsEntry saved = header.entry(e.getKey());
            if (saved == null) missing.add("parameter '" + e.getKey() + "' " + e.getValue().shape() + " is missing");
            else if (!saved.shape().equals(e.getValue().shape())) {
                reshaped.add("tensor '" + e.getKey() + "' has shape " + saved.shape() + "; the model's parameter has " + e.getValue().shape());
            }
        }
        for (SafeTensorsEntry saved : header.entries()) {
            if (!saved.name().startsWith(OPTIMIZER) && !parameters.containsKey(saved.name())) {
                extra.add("tensor '" + saved.name() + "' " + saved.shape() + " is no parameter of the model");
            }
        }
        List<String> problems = new ArrayList<>();
        if (!reshaped.isEmpty()) problems.add(firstOf(reshaped, "; ", "of another shape"));
        if (!missing.isEmpty()) problems.add(firstOf(missing, "; ", "missing"));
        if (!extra.isEmpty()) problems.add(firstOf(extra, "; ", "extra"));
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(file + " does not fit the model (another architecture?): " + String.join("; ", problems)
                    + ". The model's parameters: " + describe(parameters));
        }
    }

    /** At most {@value #LISTED} items of a list for an error message, then how many there are in all. */
    private static final int LISTED = 3;

    private static String firstOf(List<String> items, String separator, String what) {
        if (items.size() <= LISTED) return String.join(separator, items);
        return String.join(separator, items.subList(0, LISTED)) + separator + "... (" + items.size() + " " + what + " in all)";
    }

    private static String describe(Map<String, Tensor> parameters) {
        List<String> out = new ArrayList<>();
        parameters.forEach((name, t) -> out.add(name + " " + t.shape()));
        return firstOf(out, ", ", "tensors");
    }

    private static long parseStep(Path file, String step) {
        try {
            if (step != null && Long.parseLong(step) >= 0) return Long.parseLong(step);
        } catch (NumberFormatException ignored) {
            // reported below
        }
        throw new IllegalArgumentException(file + ": metadata 'step' is " + (step == null ? "missing" : "'" + step + "'")
                + "; expected the training step, a non-negative integer");
    }

    private static long parseRng(Path file, String rng) {
        if (rng != null && rng.startsWith(RNG_ALGORITHM) && rng.length() == RNG_ALGORITHM.length() + 16) {
            try {
                return Long.parseUnsignedLong(rng.substring(RNG_ALGORITHM.length()), 16);
            } catch (NumberFormatException ignored) {
                // reported below
            }
        }
        throw new IllegalArgumentException(file + ": metadata 'rng' is " + (rng == null ? "missing" : "'" + rng + "'")
                + "; expected " + RNG_ALGORITHM + "<16 hex digits>, the state of a RestorableRandom");
    }
}
