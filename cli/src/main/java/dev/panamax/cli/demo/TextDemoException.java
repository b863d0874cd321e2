package dev.panamax.cli.demo;

/** Why the transformer demo cannot go on (a checkpoint that does not fit, a text too short): said in one line. */
final class TextDemoException extends Exception {
    TextDemoException(String message) {
        super(message);
    }
}
