package dev.panamax.cli;

import dev.panamax.cli.demo.DemoCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** Entry point of the {@code panamax} command; the launcher script builds and runs it. */
// INHERIT: every subcommand takes --help and --version as well (demo --help, bindgen import --help)
@Command(name = "panamax", mixinStandardHelpOptions = true, scope = CommandLine.ScopeType.INHERIT, version = "panamax 0.1.0",
        description = "Drive native compute libraries from the JVM at the cost of a plain C call.",
        subcommands = {DemoCommand.class, InfoCommand.class, AbiCommand.class, BindgenCommand.class, CommandLine.HelpCommand.class},
        footer = {"", "The ./panamax launcher also runs:",
                "  test      the whole test suite (mvn verify; leak detection PARANOID)",
                "  install   the artifacts, with sources and javadoc jars, into ~/.m2",
                "  bench SUITE [--json FILE] [--full] [--filter REGEX]",
                "            JMH benchmarks side by side with the peers; SUITE is calls,",
                "            memory, batch, opencl, compute, blas, tensor or bindgen",
                "            (./panamax bench --help)"})
public final class Main implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs the command line and returns its exit code (tests call this). */
    public static int run(String... args) {
        // every Path a command takes is the user's: relative to the directory ./panamax was run from
        return new CommandLine(new Main()).registerConverter(java.nio.file.Path.class, UserPaths::converted).execute(args);
    }
}
