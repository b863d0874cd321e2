package dev.panamax.tensor.nn;

import dev.panamax.tensor.Tensor;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Layers applied in order; parameters are named {@code index.name} ({@code 0.weight}), as in PyTorch. */
public final class Sequential implements Module {
    private final List<Module> layers;

    public Sequential(Module... layers) {
        this.layers = List.of(layers);
    }

    @Override
    public Tensor forward(Tensor input) {
        Tensor x = input;
        for (Module m : layers) x = m.forward(x);
        return x;
    }

    public List<Module> layers() {
        return layers;
    }

    @Override
    public Map<String, Tensor> namedParameters() {
        Map<String, Tensor> m = new LinkedHashMap<>();
        for (int i = 0; i < layers.size(); i++) {
            for (Map.Entry<String, Tensor> e : layers.get(i).namedParameters().entrySet()) m.put(i + "." + e.getKey(), e.getValue());
        }
        return m;
    }

    @Override
    public Map<String, Tensor> namedBuffers() {
        Map<String, Tensor> m = new LinkedHashMap<>();
        for (int i = 0; i < layers.size(); i++) {
            for (Map.Entry<String, Tensor> e : layers.get(i).namedBuffers().entrySet()) m.put(i + "." + e.getKey(), e.getValue());
        }
        return m;
    }

    @Override
    public void setTraining(boolean training) {
        for (Module m : layers) m.setTraining(training);
    }
}
