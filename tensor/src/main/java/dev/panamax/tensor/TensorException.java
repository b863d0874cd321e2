package dev.panamax.tensor;

import java.util.StringJoiner;

/**
 * A tensor operation called with operands it cannot take: the message names the op, each operand's
 * shape and dtype, and what was expected.
 *
 * <pre>{@code
 * add: shapes do not broadcast: expected equal sizes or 1 in each dimension aligned from the right
 *      [a: (2, 3) f32, b: (4,) f32]
 * }</pre>
 */
public final class TensorException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final String op;

    /** For backends that check operands on their device: {@code op: message}. */
    public TensorException(String op, String message) {
        super(op + ": " + message);
        this.op = op;
    }

    /** The op that refused its operands ({@code add}, {@code matmul}, ...). */
    public String op() {
        return op;
    }

    /** {@code op: problem [a: (2, 3) f32, b: (4,) f32]} for operands named a, b, c... */
    static TensorException of(String op, String problem, Tensor... operands) {
        StringJoiner j = new StringJoiner(", ", " [", "]");
        for (int i = 0; i < operands.length; i++) {
            Tensor t = operands[i];
            j.add((char) ('a' + i) + ": " + (t == null ? "null" : t.shape() + " " + t.dtype().label()));
        }
        return new TensorException(op, problem + (operands.length == 0 ? "" : j.toString()));
    }
}
