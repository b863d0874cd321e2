package dev.panamax.tensor.nn;

import dev.panamax.tensor.Tensor;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.random.RandomGenerator;

/**
 * A pre-LayerNorm transformer block, as in GPT-2: {@code x + attn(ln1(x))}, then
 * {@code x + mlp(ln2(x))}, where {@code attn} is causal multi-head self-attention
 * ({@link MultiheadAttention}) and {@code mlp} is {@code Linear(E, 4E)}, GELU (tanh), {@code Linear(4E, E)}.
 * Parameters are named {@code ln1.*}, {@code attn.*} (PyTorch's MultiheadAttention names),
 * {@code ln2.*}, {@code mlp.fc.*} and {@code mlp.proj.*}.
 *
 * <pre>{@code
 * var block = new TransformerBlock(128, 4, new SplittableRandom(0));
 * Tensor y = block.forward(x);    // x (N, T, 128) -> (N, T, 128); position t sees 0..t
 * }</pre>
 */
public final class TransformerBlock implements Module {
    private final int dim;
    private final LayerNorm ln1;
    private final MultiheadAttention attention;
    private final LayerNorm ln2;
    private final Linear fc;
    private final Linear proj;

    public TransformerBlock(int dim, int heads, RandomGenerator rng) {
        if (dim <= 0 || heads <= 0 || dim % heads != 0) {
            throw new IllegalArgumentException("TransformerBlock(dim=" + dim + ", heads=" + heads
                    + "): expected positive sizes, dim divisible by heads");
        }
        this.dim = dim;
        this.ln1 = new LayerNorm(dim);
        this.attention = new MultiheadAttention(dim, heads, rng);
        this.ln2 = new LayerNorm(dim);
        this.fc = new Linear(dim, 4 * dim, rng);
        this.proj = new Linear(4 * dim, dim, rng);
    }

    /** {@code x (N, T, E)} to {@code (N, T, E)}, causal: position {@code t} attends to positions {@code 0..t}. */
    @Override
    public Tensor forward(Tensor x) {
        if (x.rank() != 3 || x.dim(2) != dim) {
            throw new dev.panamax.tensor.TensorException("TransformerBlock", "input " + x.shape() + "; expected (N, T, " + dim + ")");
        }
        Tensor h = ln1.forward(x);
        x = x.add(attention.forward(h, h, h, null, true));
        Tensor rows = ln2.forward(x).reshape(-1, dim);
        Tensor mlp = proj.forward(fc.forward(rows).gelu("tanh"));
        return x.add(mlp.reshape(x.dims()));
    }

    /**
     * {@link #forward} of positions {@code start..start+T-1} of {@code x (N, T, E)}, attending to the
     * earlier positions' keys and values in {@code keyCache} and {@code valueCache}
     * ({@code (N, capacity, E)}), to which it adds the new positions' (see {@link KvCache}).
     */
    Tensor forwardIncremental(Tensor x, Tensor keyCache, Tensor valueCache, int start) {
        Tensor h = ln1.forward(x);
        x = x.add(attention.forwardIncremental(h, keyCache, valueCache, start));
        Tensor rows = ln2.forward(x).reshape(-1, dim);
        Tensor mlp = proj.forward(fc.forward(rows).gelu("tanh"));
        return x.add(mlp.reshape(x.dims()));
    }

    public int dim() {
        return dim;
    }

    @Override
    public Map<String, Tensor> namedParameters() {
        Map<String, Tensor> m = new LinkedHashMap<>();
        put(m, "ln1.", ln1);
        put(m, "attn.", attention);
        put(m, "ln2.", ln2);
        put(m, "mlp.fc.", fc);
        put(m, "mlp.proj.", proj);
        return m;
    }

    static void put(Map<String, Tensor> into, String prefix, Module module) {
        module.namedParameters().forEach((name, t) -> into.put(prefix + name, t));
    }
}
