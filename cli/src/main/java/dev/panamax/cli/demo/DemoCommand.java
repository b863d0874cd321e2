package dev.panamax.cli.demo;

import com.fasterxml.jackson.jr.ob.JSON;
import dev.panamax.core.io.AtomicFile;
import dev.panamax.tensor.Backends;
import dev.panamax.tensor.Tensor;
import dev.panamax.tensor.TensorScope;
import dev.panamax.tensor.io.Checkpoint;
import dev.panamax.tensor.io.RestorableRandom;
import dev.panamax.tensor.io.SafeTensors;
import dev.panamax.tensor.nn.GptConfig;
import dev.panamax.tensor.opencl.KernelBuildException;
import dev.panamax.tensor.opencl.OpenClTensorBackend;
import dev.panamax.tensor.opencl.OpenClTensorException;
import dev.panamax.tensor.optim.Adam;
import dev.panamax.tensor.spi.Backend;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code panamax demo}: trains a small GPT-style character-level transformer on bundled Shakespeare
 * (or on {@code --data FILE.txt}), showing a progress bar with the loss and tokens/s and a sample
 * of generated text along the way and at the end; {@code --save}/{@code --load} write and read a
 * safetensors {@link Checkpoint}, {@code --plot} draws the loss curve, {@code --json} writes the
 * summary. Its subcommands are the smaller demos: {@code demo mlp} ({@link MlpDemoCommand}) and
 * {@code demo cnn} ({@link CnnDemoCommand}).
 */
@Command(name = "demo", sortOptions = false, subcommands = {MlpDemoCommand.class, CnnDemoCommand.class}, description = {
        "Train a small GPT-style transformer on Shakespeare with Panamax tensors and watch it learn to write.",
        "A character-level model (token and position embeddings, pre-LayerNorm blocks of causal multi-head attention"
                + " and an MLP) on a bundled public-domain text, or on your own (--data FILE.txt). Prints samples of"
                + " generated text, the training and validation loss and tokens/s. 'demo mlp' and 'demo cnn' are smaller demos."})
public final class DemoCommand implements Callable<Integer> {
    @Option(names = "--data", paramLabel = "FILE.txt", description = "Train on your text: a UTF-8 text file (the last 10%% is held out for"
            + " validation). Default: the bundled Shakespeare.")
    Path data;

    @Option(names = "--steps", paramLabel = "N", defaultValue = "700", description = "Training steps; 0 only samples from --load (default: ${DEFAULT-VALUE}).")
    int steps;

    @Option(names = "--backend", paramLabel = "NAME",
            description = "Tensor backend: reference (pure Java), cpu (native kernels) or opencl (an OpenCL device). Default: the best available.")
    String backend;

    @Option(names = "--threads", paramLabel = "N",
            description = "Threads the native kernels compute on, 1 to 4 per available processor (default: panamax.threads).")
    Integer threads;

    @Option(names = "--batch", paramLabel = "N", defaultValue = "8", description = "Windows per batch (default: ${DEFAULT-VALUE}).")
    int batch;

    @Option(names = "--context", paramLabel = "N", defaultValue = "128", description = "Characters the model sees at once (default: ${DEFAULT-VALUE}).")
    int context;

    @Option(names = "--dim", paramLabel = "N", defaultValue = "128", description = "Features per position (default: ${DEFAULT-VALUE}).")
    int dim;

    @Option(names = "--heads", paramLabel = "N", defaultValue = "4", description = "Attention heads (default: ${DEFAULT-VALUE}).")
    int heads;

    @Option(names = "--layers", paramLabel = "N", defaultValue = "2", description = "Transformer blocks (default: ${DEFAULT-VALUE}).")
    int layers;

    @Option(names = "--lr", paramLabel = "RATE", defaultValue = "0.003", description = "AdamW's peak learning rate (default: ${DEFAULT-VALUE}).")
    double learningRate;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "0", description = "Seed of the weights, batches and samples (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--temperature", paramLabel = "T", defaultValue = "0.8", description = "Sampling temperature (default: ${DEFAULT-VALUE}).")
    double temperature;

    @Option(names = "--top-k", paramLabel = "K", defaultValue = "0", description = "Sample among the K likeliest characters; 0: all (default: ${DEFAULT-VALUE}).")
    int topK;

    @Option(names = "--sample-every", paramLabel = "N", defaultValue = "100", description = "Print a sample every N steps; 0: only at the end (default: ${DEFAULT-VALUE}).")
    int sampleEvery;

    @Option(names = "--sample-length", paramLabel = "N", defaultValue = "200", description = "Characters per sample (default: ${DEFAULT-VALUE}).")
    int sampleLength;

    @Option(names = "--eager", description = "Run every training step op by op instead of capturing the step once and replaying it.")
    boolean eager;

    @Option(names = "--save", paramLabel = "FILE.safetensors", description = "Write the model, optimizer, step and RNG state as a safetensors checkpoint.")
    Path save;

    @Option(names = "--load", paramLabel = "FILE.safetensors", description = "Resume from a checkpoint --save wrote, with the model sizes it records (with --steps 0: only sample).")
    Path load;

    @Option(names = "--plot", paramLabel = "FILE.png", description = "Write the loss curve as a PNG.")
    Path plot;

    @Option(names = "--json", paramLabel = "FILE", description = "Write the summary as JSON (trainLoss, valLoss, tokensPerSecond, generationTokensPerSecond).")
    Path json;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintStream out = System.out, err = System.err;
        TextTrainingSettings settings;
        GptConfig shape;
        try {
            settings = new TextTrainingSettings(steps, batch, learningRate, Math.min(30, steps / 10), sampleEvery, sampleLength, temperature, topK,
                    eager);
            if (load != null) adoptSavedShape(load);
            shape = new GptConfig(1, context, dim, heads, layers);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        DemoOptions.applyThreads(spec, threads);
        if (steps == 0 && load == null) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--steps=0 without --load: expected a checkpoint to sample from, or steps to train");
        }
        DemoOptions.refuseNonRegular(spec, "--save", save);
        DemoOptions.refuseNonRegular(spec, "--plot", plot);
        DemoOptions.refuseNonRegular(spec, "--json", json);

        TextCorpus text;
        int[] vocabulary;
        try {
            text = data == null ? TextCorpus.bundled() : TextCorpus.load(data, context);
            vocabulary = load == null ? text.vocabulary() : savedVocabulary(load);
            if (load != null) {
                TextCorpus mapped = text.in(vocabulary);
                if (mapped == null) {
                    throw new DataFileException(data == null ? Path.of(TextCorpus.BUNDLED) : data, "has characters the vocabulary of " + load
                            + " lacks (" + text.missingFrom(vocabulary) + "); expected a text in the checkpoint's " + vocabulary.length + " characters");
                }
                text = mapped;
            }
        } catch (DataFileException e) {
            err.println("panamax demo: " + e.getMessage());
            return 1;
        }
        GptConfig config = new GptConfig(vocabulary.length, shape.contextLength(), shape.dim(), shape.heads(), shape.layers());

        DemoOptions.Selected chosen = DemoOptions.selectBackend(backend, err);
        if (chosen == null) return 1;
        Backend selected = chosen.backend();
        OpenClTensorBackend made = chosen.madeForTheRun();
        try (Backends.Selection _ = Backends.using(selected)) {
            return run(text, vocabulary, config, settings, selected);
        } catch (TextDemoException e) {
            err.println("panamax demo: " + e.getMessage());
            return 1;
        } catch (dev.panamax.tensor.TensorException | OutOfMemoryError e) {
            err.println("panamax demo: training stopped: " + e.getMessage() + " (expected a smaller --dim, --layers, --context or --batch)");
            return 1;
        } catch (OpenClTensorException | KernelBuildException e) {
            err.println("panamax demo: training stopped on " + MlpDemoCommand.placeOf(selected) + ": " + e.getMessage());
            return 1;
        } finally {
            if (made != null) made.close();
        }
    }

    private int run(TextCorpus text, int[] vocabulary, GptConfig config, TextTrainingSettings settings, Backend selected) throws TextDemoException {
        PrintStream out = System.out, err = System.err;
        int[] train = text.train(), validation = text.validation();
        out.printf(Locale.ROOT, "data      %s: %,d characters, %d distinct -> %,d training, %,d validation (the last 10%%)%n",
                text.description(), text.ids().length, vocabulary.length, train.length, validation.length);
        out.printf(Locale.ROOT, "model     GPT, %d layers, %d heads, dim %d, context %d, %,d parameters; AdamW lr %s, batch %d, %d steps%n",
                config.layers(), config.heads(), config.dim(), config.contextLength(), config.parameterCount(), learningRate, batch, steps);
        out.printf(Locale.ROOT, "backend   %s, %d thread%s%n", selected.name(), selected.threads(), selected.threads() == 1 ? "" : "s");
        out.flush();
        if (train.length <= config.contextLength() && steps > 0) {
            throw new TextDemoException(text.description() + ": its training part has " + train.length + " characters; expected more than --context="
                    + config.contextLength() + " (at least " + TextCorpus.minimumLength(config.contextLength()) + " in all)");
        }

        RestorableRandom rng = new RestorableRandom(seed ^ Trainer.SEED_SALT);
        CharLanguageModel model = new CharLanguageModel(config, vocabulary, rng);
        try (Adam adam = TensorScope.unscoped(() -> Adam.w(model.parameters(), learningRate, TextTrainer.WEIGHT_DECAY))) {
            long loadedStep = 0;
            if (load != null) {
                try {
                    loadedStep = Checkpoint.load(load, model, adam, rng);
                } catch (IOException e) {
                    throw new TextDemoException(load + ": cannot be read as a checkpoint (" + e.getMessage() + "); expected a file --save wrote");
                } catch (IllegalArgumentException e) {
                    throw new TextDemoException(e.getMessage() + " (expected --context, --dim, --heads and --layers as when it was saved;"
                            + " a checkpoint this demo saved sets them itself)");
                }
                out.printf(Locale.ROOT, "loaded    %s at step %d%n", load, loadedStep);
            }
            long firstStep = loadedStep;
            RestorableRandom sampling = new RestorableRandom(seed ^ 0x5A4D_911EL);
            int prompt = text.startToken();
            TextTrainer.Result result;
            try (TextTrainingProgress progress = steps > 0 ? new TextTrainingProgress(firstStep, firstStep + steps, err) : null) {
                result = TextTrainer.train(model, adam, train, settings, firstStep, rng, new TextTrainer.Listener() {
                    @Override
                    public void stepDone(long step, double loss, double tokensPerSecond) {
                        progress.stepDone(step, loss, tokensPerSecond);
                    }

                    @Override
                    public void sampleDue(long step) {
                        int[] sample = model.generate(new int[] {prompt}, Math.min(sampleLength, 120), temperature, topK, sampling);
                        out.printf(Locale.ROOT, "%nsample at step %d:%n%s%n%n", step, indent(text.decode(sample)));
                        out.flush();
                    }
                });
            }
            long t0 = System.nanoTime();
            int[] sample = model.generate(new int[] {prompt}, sampleLength, temperature, topK, sampling);
            double generationSeconds = (System.nanoTime() - t0) / 1e9;
            double generationTokensPerSecond = sampleLength / Math.max(generationSeconds, 1e-9);
            double trainLoss = TextTrainer.loss(model, train, batch), valLoss = TextTrainer.loss(model, validation, batch);

            out.printf(Locale.ROOT, "sample    (temperature %s%s, after %d steps):%n%s%n", temperature, topK > 0 ? ", top-" + topK : "",
                    firstStep + steps, indent(text.decode(sample)));
            out.printf(Locale.ROOT, "loss      %.3f training, %.3f validation (nats per character; %.2f bits)%n", trainLoss, valLoss, valLoss / Math.log(2));
            if (steps > 0) {
                out.printf(Locale.ROOT, "speed     %,.0f tokens/s training (%d steps in %.1f s), %,.0f tokens/s generating%n",
                        result.tokensPerSecond(), steps, result.trainingSeconds(), generationTokensPerSecond);
            } else {
                out.printf(Locale.ROOT, "speed     %,.0f tokens/s generating%n", generationTokensPerSecond);
            }
            out.flush();

            boolean written = true;
            if (save != null) {
                long saved = firstStep + steps;
                written &= writeFile("saved", save, () -> {
                    try {
                        Checkpoint.save(save, model, adam, saved, rng, Map.of(CONTEXT_KEY, Integer.toString(config.contextLength()),
                                DIM_KEY, Integer.toString(config.dim()), HEADS_KEY, Integer.toString(config.heads()),
                                LAYERS_KEY, Integer.toString(config.layers())));
                    } catch (IOException e) {
                        throw new UncheckedIOException("cannot write " + save + ": " + e.getMessage(), e);
                    }
                });
            }
            if (plot != null && steps > 0) {
                written &= writeFile("plot", plot, () -> TrainingPlot.write(plot, TextLossPlot.render(result.losses(), firstStep, valLoss,
                        "Panamax demo: " + text.description())));
            }
            if (json != null) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("trainLoss", trainLoss);
                m.put("valLoss", valLoss);
                m.put("tokensPerSecond", steps > 0 ? result.tokensPerSecond() : null);
                m.put("generationTokensPerSecond", generationTokensPerSecond);
                m.put("steps", firstStep + steps);
                m.put("trainingSeconds", result.trainingSeconds());
                m.put("backend", selected.name());
                m.put("threads", selected.threads());
                m.put("data", text.description());
                m.put("parameters", config.parameterCount());
                m.put("sample", text.decode(sample));
                String textJson;
                try {
                    textJson = JSON.std.with(JSON.Feature.PRETTY_PRINT_OUTPUT).asString(m) + "\n";
                } catch (IOException e) {
                    throw new UncheckedIOException("the summary cannot be written as JSON", e);
                }
                written &= writeFile("json", json, () -> AtomicFile.write(json, textJson.getBytes(StandardCharsets.UTF_8)));
            }
            return written ? 0 : 2;
        } finally {
            model.close();
        }
    }

    /** The vocabulary a checkpoint holds (its {@code vocabulary} tensor). */
    // the metadata keys under which --save records the model's sizes, so that --load rebuilds it
    static final String CONTEXT_KEY = "demo.context";
    static final String DIM_KEY = "demo.dim";
    static final String HEADS_KEY = "demo.heads";
    static final String LAYERS_KEY = "demo.layers";

    /**
     * Takes the model's sizes from the checkpoint's metadata for each of {@code --context},
     * {@code --dim}, {@code --heads} and {@code --layers} not given on the command line. A file that
     * cannot be read, or lacks the keys (an older checkpoint, or one of another program), changes
     * nothing: reading its vocabulary and parameters reports what is wrong with it.
     */
    private void adoptSavedShape(Path file) {
        Map<String, String> metadata;
        try {
            if (!Files.isRegularFile(file)) return;
            metadata = SafeTensors.header(file).metadata();
        } catch (IOException | RuntimeException e) {
            return;
        }
        CommandLine.ParseResult given = spec.commandLine().getParseResult();
        context = saved(metadata, CONTEXT_KEY, given.hasMatchedOption("--context"), context);
        dim = saved(metadata, DIM_KEY, given.hasMatchedOption("--dim"), dim);
        heads = saved(metadata, HEADS_KEY, given.hasMatchedOption("--heads"), heads);
        layers = saved(metadata, LAYERS_KEY, given.hasMatchedOption("--layers"), layers);
    }

    private static int saved(Map<String, String> metadata, String key, boolean givenOnTheCommandLine, int current) {
        String value = metadata.get(key);
        if (givenOnTheCommandLine || value == null) return current;
        try {
            int n = Integer.parseInt(value.strip());
            return n > 0 ? n : current;
        } catch (NumberFormatException e) {
            return current;
        }
    }

    private static int[] savedVocabulary(Path file) throws DataFileException {
        if (!Files.isRegularFile(file)) throw new DataFileException(file, "no such file; expected a checkpoint --save wrote");
        try (var _ = TensorScope.open(); var content = SafeTensors.read(file)) {
            Tensor v = content.tensors().get(CharLanguageModel.VOCABULARY);
            if (v == null || v.rank() != 1 || v.dtype().isFloating() || v.dim(0) < 1) {
                throw new DataFileException(file, "has no '" + CharLanguageModel.VOCABULARY + "' tensor of code points (found "
                        + content.tensors().keySet().stream().limit(6).toList() + (content.tensors().size() > 6 ? ", ..." : "")
                        + "); expected a checkpoint 'panamax demo --save' wrote");
            }
            return v.toIntArray();
        } catch (IOException | RuntimeException e) {
            throw new DataFileException(file, "cannot be read as a safetensors checkpoint (" + e.getMessage() + "); expected a file 'panamax demo --save' wrote");
        }
    }

    private static String indent(String s) {
        return "  | " + s.replace("\n", "\n  | ");
    }

    private static boolean writeFile(String label, Path file, Runnable write) {
        try {
            write.run();
        } catch (UncheckedIOException e) {
            System.err.println("panamax demo: " + e.getMessage());
            return false;
        }
        System.out.printf(Locale.ROOT, "%-9s %s%n", label, file);
        return true;
    }

}
