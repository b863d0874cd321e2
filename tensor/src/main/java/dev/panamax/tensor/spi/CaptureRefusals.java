package dev.panamax.tensor.spi;

import dev.panamax.tensor.TensorException;

/**
 * What a backend that captures steps ({@link Backend#beginCapture()}) throws, at capture time, for
 * what a replayed program could not repeat: one wording for every backend.
 */
public final class CaptureRefusals {
    private CaptureRefusals() {}

    /** The refusal of a read of {@code s} on the host while capturing. */
    public static TensorException read(Storage s) {
        return new TensorException("capture", "a value was read on the host (item(), toFloatArray(), a host check of indices, ...)"
                + " from " + describe(s) + " while capturing a step: a captured step cannot read values mid-step, since replays"
                + " run without Java; read the step's outputs after it ran");
    }

    /** The refusal of a write from Java into {@code s} while capturing. */
    public static TensorException write(Storage s) {
        return new TensorException("capture", "Java wrote into " + describe(s) + " while capturing a step: a captured step"
                + " cannot write values from Java mid-step (a replay would not repeat the write), except into a tensor made"
                + " in the step before any kernel used it; pass changing values as inputs of the step");
    }

    /** The refusal of a copy between storages made in Java while capturing. */
    public static TensorException copy(Storage from, Storage to) {
        return new TensorException("capture", "Java copied " + describe(from) + " into " + describe(to)
                + " while capturing a step: a captured step cannot copy through Java mid-step; use tensor ops (copyFrom)");
    }

    /** The refusal of a second capture on a backend that captures one step at a time. */
    public static TensorException alreadyCapturing(String backend) {
        return new TensorException("capture", "the " + backend + " backend is already capturing a step (on this or another thread);"
                + " finish or abandon that capture first: captures do not nest");
    }

    private static String describe(Storage s) {
        return "a storage of " + s.length() + " " + s.dtype().label();
    }
}
