package dev.panamax.bench;

import dev.panamax.core.Setting;
import dev.panamax.core.SettingDeclarations;
import dev.panamax.core.SettingType;

import java.nio.file.Path;
import java.util.List;

/**
 * The settings of {@code ./panamax bench}: the sizes and rounds of the tensor suite's figures, the
 * thread counts of its scaling tables, the Python environment of the PyTorch and NumPy peers, and the
 * seed of the alternating dispatch order. A setting whose default depends on {@code --full} reads as
 * null when unset, and its figure picks the default for the run.
 */
public final class BenchSettings implements SettingDeclarations {
    /** Elements of the device figures' add. */
    public static final Setting<Long> DEVICE_ADD_ELEMENTS = Setting.of("panamax.bench.device.addElements",
            SettingType.whole(1, Integer.MAX_VALUE), "16Mi elements (64Mi with --full)", () -> null,
            "Elements of each operand of the device figures' add (DeviceFigures).");

    /** Size of the device figures' square matmul. */
    public static final Setting<Integer> DEVICE_MATMUL_N = Setting.of("panamax.bench.device.matmulN",
            SettingType.count(1, 1 << 15), "1024 (4096 with --full)", () -> null,
            "Rows and columns of the device figures' square matrix product (DeviceFigures).");

    /** Rounds of the device figures. */
    public static final Setting<Integer> DEVICE_ROUNDS = Setting.of("panamax.bench.device.rounds",
            SettingType.count(1, 1000), "11 (5 for a quick run)", () -> null,
            "Rounds of each device figure, every side measured once per round (DeviceFigures).");

    /** Highest thread count of the scaling table. */
    public static final Setting<Integer> SCALING_THREADS = Setting.of("panamax.bench.scaling.threads",
            SettingType.count(1, 4096), "the available processors", () -> Runtime.getRuntime().availableProcessors(),
            "Highest thread count the thread scaling table measures (ThreadScaling).");

    /** Highest thread count of the model figures. */
    public static final Setting<Integer> MODELS_THREADS = Setting.of("panamax.bench.models.threads",
            SettingType.count(1, 4096), "the available processors, at most 2",
            () -> Math.min(2, Runtime.getRuntime().availableProcessors()),
            "Highest thread count the demo models' figures measure (ModelFigures).");

    /** The Python virtual environment of the peers. */
    public static final Setting<String> PYENV = Setting.of("panamax.pyenv", SettingType.text("a directory"),
            "target/pyenv", () -> "target/pyenv",
            "The Python virtual environment the PyTorch and NumPy peers run in (made there when missing).");

    /** A Python interpreter to use instead of the virtual environment's. */
    public static final Setting<String> PYTHON = Setting.text("panamax.python", "a path to a python3 executable",
            "the virtual environment's python3",
            "A Python interpreter with PyTorch and NumPy installed, used for the peers instead of panamax.pyenv.");

    /** Seed of the alternating dispatch order. */
    public static final Setting<Long> ALTERNATION_SEED = Setting.of("panamax.alternation.seed",
            SettingType.whole(Long.MIN_VALUE, Long.MAX_VALUE), 1L,
            "Seed of the order in which the alternating dispatch figures run their sides.");

    /** For {@link java.util.ServiceLoader}. */
    public BenchSettings() {}

    /** The Python environment's directory, absolute. */
    public static Path pyenv() {
        return Path.of(PYENV.get()).toAbsolutePath();
    }

    @Override
    public List<Setting<?>> settings() {
        return List.of(DEVICE_ADD_ELEMENTS, DEVICE_MATMUL_N, DEVICE_ROUNDS, SCALING_THREADS, MODELS_THREADS, PYENV, PYTHON,
                ALTERNATION_SEED);
    }
}
