package dev.panamax.tensor.io;

import dev.panamax.tensor.Tensor;

import java.util.Map;

/**
 * What a safetensors file holds: its tensors by name (in the order of their data in the file) and
 * its {@code __metadata__} strings. Closing it frees the tensors.
 *
 * <pre>{@code
 * try (var file = SafeTensors.read(Path.of("model.safetensors"))) {
 *     Tensor w = file.tensors().get("0.weight");
 *     String step = file.metadata().get("step");
 * }
 * }</pre>
 */
public record SafeTensorsContent(Map<String, Tensor> tensors, Map<String, String> metadata) implements AutoCloseable {
    public SafeTensorsContent {
        tensors = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(tensors));
        metadata = Map.copyOf(metadata);
    }

    /** Frees every tensor. */
    @Override
    public void close() {
        for (Tensor t : tensors.values()) t.close();
    }
}
