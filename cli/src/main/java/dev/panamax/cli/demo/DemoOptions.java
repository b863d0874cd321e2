package dev.panamax.cli.demo;

import dev.panamax.tensor.cpu.ThreadBudget;
import picocli.CommandLine;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/** What every demo checks in its options before it trains: the thread budget and its output files. */
final class DemoOptions {
    private DemoOptions() {}

    /** Sets the process's thread budget from {@code --threads} (read once, when the native backend first loads). */
    static void applyThreads(CommandLine.Model.CommandSpec spec, Integer threads) {
        if (threads == null) return;
        try {
            ThreadBudget.check("--threads", threads);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        System.setProperty(ThreadBudget.PROPERTY, Integer.toString(threads));
    }

    /** Refuses an output path that exists and is not a regular file, before anything is trained or written. */
    static void refuseNonRegular(CommandLine.Model.CommandSpec spec, String option, Path file) {
        if (file == null || !Files.exists(file, LinkOption.NOFOLLOW_LINKS) || Files.isRegularFile(file)) return;
        String kind = Files.isDirectory(file) ? "a directory" : "not a regular file (a device, pipe or socket)";
        throw new CommandLine.ParameterException(spec.commandLine(), option + "=" + file + ": it exists and is " + kind
                + "; expected a regular file or a new file's path (nothing was written or deleted)");
    }
}
