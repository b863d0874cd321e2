package dev.panamax.cli;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

class HelpTest {
    @Test
    void helpListsEveryCommandTheLauncherRuns() {
        AbiCommandTest.Run r = AbiCommandTest.run("--help");
        assertEquals(0, r.exit(), r.err());
        for (String command : new String[] {"info", "abi", "bindgen", "help", "test", "bench SUITE"}) {
            assertTrue(r.out().lines().anyMatch(line -> line.stripLeading().startsWith(command)), command + " missing in:\n" + r.out());
        }
        for (String suite : new String[] {"calls", "memory", "batch", "opencl", "compute", "blas", "tensor", "bindgen"}) {
            assertTrue(r.out().contains(suite), suite + " missing in:\n" + r.out());
        }
    }

    @Test
    void everySubcommandTakesHelp() {
        for (String[] command : new String[][] {{"demo"}, {"demo", "mlp"}, {"demo", "cnn"}, {"info"}, {"abi"}, {"bindgen"}, {"bindgen", "import"}}) {
            String[] args = java.util.Arrays.copyOf(command, command.length + 1);
            args[command.length] = "--help";
            AbiCommandTest.Run r = AbiCommandTest.run(args);
            assertEquals(0, r.exit(), String.join(" ", args) + ": " + r.err());
            assertTrue(r.out().contains("Usage: panamax " + String.join(" ", command)), String.join(" ", args) + " printed:\n" + r.out() + r.err());
        }
    }

    @Test
    void helpFitsEightyColumnsAndNoSummaryIsCut() {
        AbiCommandTest.Run r = AbiCommandTest.run("--help");
        for (String line : r.out().lines().toList()) {
            assertTrue(line.length() <= 80, "a line of " + line.length() + " columns: " + line);
        }
        var footer = Main.class.getAnnotation(picocli.CommandLine.Command.class).footer();
        for (String line : footer) assertTrue(line.length() < 80, "a footer line picocli would wrap: " + line);
        // each command's summary in the list (its first line and the lines wrapped under it) is a sentence
        String commands = r.out().substring(r.out().indexOf("Commands:"), r.out().indexOf("The ./panamax launcher"));
        for (String summary : commands.split("\n  (?=[a-z])")) {
            if (summary.startsWith("Commands:")) continue;
            String text = summary.strip().replaceAll("\\s+", " ");
            assertTrue(text.endsWith("."), "a summary cut short: " + text);
        }
    }
}
