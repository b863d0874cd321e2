package dev.panamax.opencl.misuse;

import java.util.List;

/**
 * One misuse, run alone in a child JVM: a class with a {@code main} that does it, the outcome it must
 * end with, and the child's extra JVM options and arguments.
 *
 * <pre>{@code
 * new MisuseCase("typed double release", TypedDoubleRelease.class, Outcome.throwsException(HandleReleasedException.class))
 * }</pre>
 */
record MisuseCase(String name, Class<?> main, Outcome expected, List<String> jvmOptions, List<String> args) {
    MisuseCase {
        jvmOptions = List.copyOf(jvmOptions);
        args = List.copyOf(args);
    }

    MisuseCase(String name, Class<?> main, Outcome expected) {
        this(name, main, expected, List.of(), List.of());
    }

    MisuseCase withJvmOptions(String... options) {
        return new MisuseCase(name, main, expected, List.of(options), args);
    }

    MisuseCase withArgs(String... arguments) {
        return new MisuseCase(name, main, expected, jvmOptions, List.of(arguments));
    }
}
