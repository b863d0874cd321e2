package dev.panamax.tensor.nn;

import dev.panamax.tensor.Autograd;
import dev.panamax.tensor.Tensor;
import dev.panamax.tensor.TensorException;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.random.RandomGenerator;

/**
 * PyTorch's {@code nn.MultiheadAttention} with {@code batch_first=True}: query {@code (N, L, E)},
 * key and value {@code (N, S, E)} (or unbatched {@code (L, E)}, {@code (S, E)}) are projected by
 * {@code in_proj_weight (3E, E)} and {@code in_proj_bias (3E)}, split into {@code heads} heads of
 * {@code E / heads} features, attended ({@link Tensor#scaledDotProductAttention}) and joined by
 * {@code out_proj}. Parameters carry PyTorch's names and layouts ({@code in_proj_weight},
 * {@code in_proj_bias}, {@code out_proj.weight}, {@code out_proj.bias}), so a state dict saved by
 * either loads in the other; initialization is PyTorch's (Xavier-uniform in-projection, zero biases).
 * {@link #forward} returns the output only ({@code need_weights=False}).
 *
 * <pre>{@code
 * var attention = new MultiheadAttention(64, 4, new SplittableRandom(0));
 * Tensor y = attention.forward(x);                   // self-attention, x (8, 10, 64) -> (8, 10, 64)
 * Tensor z = attention.forward(x, x, x, null, true); // causal: position i sees 0..i
 * }</pre>
 */
public final class MultiheadAttention implements Module {
    private final int embedDim;
    private final int heads;
    private final Tensor inProjWeight;
    private final Tensor inProjBias;
    private final Tensor outProjWeight;
    private final Tensor outProjBias;

    public MultiheadAttention(int embedDim, int heads, RandomGenerator rng) {
        this(embedDim, heads, true, rng);
    }

    /** With {@code bias} false, neither projection has a bias (PyTorch's {@code bias=False}). */
    public MultiheadAttention(int embedDim, int heads, boolean bias, RandomGenerator rng) {
        if (embedDim <= 0 || heads <= 0 || embedDim % heads != 0) {
            throw new IllegalArgumentException("MultiheadAttention(embedDim=" + embedDim + ", heads=" + heads
                    + "): expected positive sizes, embedDim divisible by heads");
        }
        this.embedDim = embedDim;
        this.heads = heads;
        this.inProjWeight = Parameters.uniform(rng, Math.sqrt(6.0 / (embedDim + 3 * embedDim)), 3 * embedDim, embedDim);
        this.outProjWeight = Parameters.uniform(rng, 1 / Math.sqrt(embedDim), embedDim, embedDim);
        this.inProjBias = bias ? Parameters.full(0, 3 * embedDim) : null;
        this.outProjBias = bias ? Parameters.full(0, embedDim) : null;
    }

    /** Self-attention: {@code input} is query, key and value. */
    @Override
    public Tensor forward(Tensor input) {
        return forward(input, input, input, null, false);
    }

    public Tensor forward(Tensor query, Tensor key, Tensor value) {
        return forward(query, key, value, null, false);
    }

    /**
     * @param attnMask null, or PyTorch's {@code attn_mask} of shape {@code (L, S)} or
     *                 {@code (N * heads, L, S)}: an integer one is PyTorch's bool mask, nonzero where the
     *                 query may <em>not</em> attend (the opposite of {@code scaledDotProductAttention}'s,
     *                 as in PyTorch); a floating one is added to the scores
     * @param causal   query {@code i} attends to keys {@code 0..i} only (needs no mask, unlike PyTorch's hint)
     */
    public Tensor forward(Tensor query, Tensor key, Tensor value, Tensor attnMask, boolean causal) {
        return multiHeadAttentionForward(query, key, value, heads, inProjWeight, inProjBias, outProjWeight, outProjBias, attnMask, causal);
    }

    /**
     * The layer as a function of its weights (PyTorch's {@code F.multi_head_attention_forward}
     * with {@code batch_first} inputs); the biases may be null.
     */
    public static Tensor multiHeadAttentionForward(Tensor query, Tensor key, Tensor value, int heads, Tensor inProjWeight,
                                                   Tensor inProjBias, Tensor outProjWeight, Tensor outProjBias, Tensor attnMask,
                                                   boolean causal) {
        String op = "MultiheadAttention";
        if (query == null || key == null || value == null || inProjWeight == null || outProjWeight == null) {
            throw new TensorException(op, "query, key, value, inProjWeight and outProjWeight must not be null");
        }
        int e = outProjWeight.rank() == 2 ? outProjWeight.dim(0) : -1;
        if (heads <= 0 || e <= 0 || e % heads != 0 || !inProjWeight.shape().equals(dev.panamax.tensor.Shape.of(3 * e, e))
                || outProjWeight.dim(1) != e || (inProjBias != null && !inProjBias.shape().equals(dev.panamax.tensor.Shape.of(3 * e)))
                || (outProjBias != null && !outProjBias.shape().equals(dev.panamax.tensor.Shape.of(e)))) {
            throw new TensorException(op, "weights " + describe(inProjWeight) + ", " + describe(inProjBias) + ", " + describe(outProjWeight)
                    + ", " + describe(outProjBias) + " with heads=" + heads + "; expected in_proj_weight (3E, E), in_proj_bias (3E), "
                    + "out_proj.weight (E, E), out_proj.bias (E) with E divisible by heads");
        }
        int rank = query.rank();
        boolean shapesFit = (rank == 2 || rank == 3) && key.rank() == rank && value.rank() == rank && query.dim(-1) == e
                && key.dim(-1) == e && value.dim(-1) == e && key.dim(-2) == value.dim(-2)
                && (rank == 2 || (key.dim(0) == query.dim(0) && value.dim(0) == query.dim(0)));
        if (!shapesFit) {
            throw new TensorException(op, "query " + describe(query) + ", key " + describe(key) + ", value " + describe(value)
                    + "; expected query (N, L, " + e + "), key and value (N, S, " + e + ") (batch first), or (L, " + e + ") and (S, " + e + ")");
        }
        if (rank == 2) {
            Tensor out = multiHeadAttentionForward(query.unsqueeze(0), key.unsqueeze(0), value.unsqueeze(0), heads, inProjWeight, inProjBias,
                    outProjWeight, outProjBias, attnMask, causal);
            return out.squeeze(0);
        }
        int n = query.dim(0), l = query.dim(1), s = key.dim(1), d = e / heads;
        Tensor q, k, v;
        // Self-attention takes one product for all three when no gradient is asked for. When one is,
        // three products of the weight's row blocks: the backward of three slices of one (N, L, 3E)
        // product fills a zero tensor of the whole product per slice and adds the three, where three
        // products add only their (N, L, E) input gradients, and q, k, v come out contiguous.
        boolean gradients = Autograd.isEnabled() && (query.requiresGrad() || inProjWeight.requiresGrad()
                || (inProjBias != null && inProjBias.requiresGrad()));
        if (query == key && key == value && !gradients) {
            Tensor qkv = project(query, inProjWeight, inProjBias);     // (N, L, 3E): one product for all three
            q = qkv.slice(-1, 0, e);
            k = qkv.slice(-1, e, 2 * e);
            v = qkv.slice(-1, 2 * e, 3 * e);
        } else {
            q = project(query, inProjWeight.slice(0, 0, e), inProjBias == null ? null : inProjBias.slice(0, 0, e));
            k = project(key, inProjWeight.slice(0, e, 2 * e), inProjBias == null ? null : inProjBias.slice(0, e, 2 * e));
            v = project(value, inProjWeight.slice(0, 2 * e, 3 * e), inProjBias == null ? null : inProjBias.slice(0, 2 * e, 3 * e));
        }
        Tensor mask = attnMask == null ? null : headsMask(attnMask, n, heads, l, s);
        Tensor attended = Tensor.scaledDotProductAttention(splitHeads(q, n, l, heads, d), splitHeads(k, n, s, heads, d),
                splitHeads(v, n, s, heads, d), mask, causal, null);
        Tensor joined = attended.permute(0, 2, 1, 3).reshape(n, l, e);
        return project(joined, outProjWeight, outProjBias);
    }

    /**
     * Causal self-attention of {@code x (N, T, E)}, the positions {@code start..start+T-1} of a
     * sequence whose earlier positions' keys and values are in {@code keyCache} and
     * {@code valueCache} ({@code (N, capacity, E)}, projected, heads not split): this call writes
     * the new positions' keys and values there, then attends each new position to positions
     * {@code 0} to itself. Equals {@link #forward(Tensor, Tensor, Tensor, Tensor, boolean) causal}
     * self-attention over the whole sequence at those positions.
     */
    Tensor forwardIncremental(Tensor x, Tensor keyCache, Tensor valueCache, int start) {
        int n = x.dim(0), t = x.dim(1), e = embedDim, d = e / heads, s = start + t;
        Tensor qkv = project(x, inProjWeight, inProjBias);
        keyCache.slice(1, start, s).copyFrom(qkv.slice(-1, e, 2 * e));
        valueCache.slice(1, start, s).copyFrom(qkv.slice(-1, 2 * e, 3 * e));
        Tensor k = keyCache.slice(1, 0, s), v = valueCache.slice(1, 0, s);
        Tensor mask = t == 1 ? null : offsetCausalMask(start, t);
        Tensor attended = Tensor.scaledDotProductAttention(splitHeads(qkv.slice(-1, 0, e), n, t, heads, d), splitHeads(k, n, s, heads, d),
                splitHeads(v, n, s, heads, d), mask, false, null);
        return project(attended.permute(0, 2, 1, 3).reshape(n, t, e), outProjWeight, outProjBias);
    }

    /** {@code (T, start + T)}, nonzero where new position {@code start + i} may attend to position {@code j <= start + i}. */
    private static Tensor offsetCausalMask(int start, int t) {
        int s = start + t;
        int[] allowed = new int[t * s];
        for (int i = 0; i < t; i++) java.util.Arrays.fill(allowed, i * s, i * s + start + i + 1, 1);
        return Tensor.of(allowed, t, s);
    }

    /** {@code x W^T + b} over the last dimension of {@code x (N, T, in)}. */
    private static Tensor project(Tensor x, Tensor weight, Tensor bias) {
        Tensor rows = x.reshape(-1, x.dim(-1));
        return Tensor.linear(rows, weight, bias).reshape(x.dim(0), x.dim(1), weight.dim(0));
    }

    /** {@code (N, T, E)} to {@code (N, heads, T, E / heads)}. */
    private static Tensor splitHeads(Tensor x, int n, int t, int heads, int d) {
        return x.reshape(n, t, heads, d).permute(0, 2, 1, 3);
    }

    /** PyTorch's MHA mask, {@code (L, S)} or {@code (N * heads, L, S)}, as the attention mask of {@code (N, heads, L, S)} scores. */
    private static Tensor headsMask(Tensor attnMask, int n, int heads, int l, int s) {
        Tensor mask;
        if (attnMask.rank() == 2 && attnMask.dim(0) == l && attnMask.dim(1) == s) mask = attnMask;
        else if (attnMask.rank() == 3 && attnMask.dim(0) == n * heads && attnMask.dim(1) == l && attnMask.dim(2) == s) {
            mask = attnMask.reshape(n, heads, l, s);
        } else {
            throw new TensorException("MultiheadAttention", "attnMask " + describe(attnMask) + "; expected (L, S) = (" + l + ", " + s
                    + ") or (N * heads, L, S) = (" + n * heads + ", " + l + ", " + s + ")");
        }
        // PyTorch's MHA bool mask marks what may not be attended; scaledDotProductAttention's marks what may
        return mask.dtype().isFloating() ? mask : mask.eq(mask.zerosLike());
    }

    private static String describe(Tensor t) {
        return t == null ? "null" : t.shape() + " " + t.dtype().label();
    }

    public int embedDim() {
        return embedDim;
    }

    public int heads() {
        return heads;
    }

    @Override
    public Map<String, Tensor> namedParameters() {
        Map<String, Tensor> m = new LinkedHashMap<>();
        m.put("in_proj_weight", inProjWeight);
        if (inProjBias != null) m.put("in_proj_bias", inProjBias);
        m.put("out_proj.weight", outProjWeight);
        if (outProjBias != null) m.put("out_proj.bias", outProjBias);
        return m;
    }
}
