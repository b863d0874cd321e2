package dev.panamax.cli.demo;

import java.io.Serial;

/** Why the transformer demo cannot go on (a checkpoint that does not fit, a text too short): said in one line. */
final class TextDemoException extends Exception {
    @Serial
    private static final long serialVersionUID = 1L;

    TextDemoException(String message) {
        super(message);
    }
}
