package dev.panamax.compute;

/**
 * A command refused while encoding or at commit: it names the command buffer, the command's index,
 * the pipeline and the argument (index and name) where they apply.
 * {@code command buffer 'step' command 2 (dispatch 'saxpy'): argument 1 'x' (float*) takes a buffer, got 4 bytes}
 */
public final class EncodingException extends ComputeException {
    private static final long serialVersionUID = 1L;
    public EncodingException(String message) {
        super(message, null);
    }
}
