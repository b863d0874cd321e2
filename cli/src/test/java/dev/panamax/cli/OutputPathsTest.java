package dev.panamax.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The paths given to {@code panamax} are the user's: relative ones resolve against the directory the
 * command was run from ({@code PANAMAX_WORKDIR}, which the launcher sets), an empty one is an error,
 * and a write that fails (here for real: a file size limit, {@code ulimit -f}, in a child JVM) names the
 * file and leaves the old output as it was.
 */
class OutputPathsTest {
    /** A file whose typed class is tens of kilobytes. */
    static String declarations(int functions) {
        StringBuilder b = new StringBuilder("format: 1\nlibrary: big\npackage: org.example.big\nfunctions:\n");
        for (int i = 0; i < functions; i++) {
            b.append("  - {name: f").append(i).append(", returns: i32, params: [[i32, a], [f64*, b], [i64, c]]}\n");
        }
        return b.toString();
    }

    record Child(int exit, String out, String err) {}

    /** Runs the CLI in a child JVM from {@code cwd} with {@code PANAMAX_WORKDIR=workdir}, under {@code ulimit -f} when {@code limitKb > 0}. */
    static Child cli(Path cwd, Path workdir, int limitKb, String... args) throws Exception {
        List<String> java = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:-UsePerfData", "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                "dev.panamax.cli.Main"));
        java.addAll(List.of(args));
        StringBuilder command = new StringBuilder(limitKb > 0 ? "ulimit -f " + limitKb + "; exec" : "exec");
        for (String a : java) command.append(" '").append(a.replace("'", "'\\''")).append('\'');
        ProcessBuilder pb = new ProcessBuilder("bash", "-c", command.toString()).directory(cwd.toFile());
        if (workdir != null) pb.environment().put("PANAMAX_WORKDIR", workdir.toString());
        else pb.environment().remove("PANAMAX_WORKDIR");
        Path out = Files.createTempFile("cli", ".out");
        Path err = Files.createTempFile("cli", ".err");
        try {
            Process p = pb.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            int exit = p.waitFor();
            return new Child(exit, Files.readString(out), Files.readString(err));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    static Map<String, byte[]> files(Path dir) throws IOException {
        Map<String, byte[]> out = new TreeMap<>();
        if (!Files.exists(dir)) return out;
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.filter(Files::isRegularFile).toList()) out.put(dir.relativize(p).toString(), Files.readAllBytes(p));
        }
        return out;
    }

    @Test
    void relativePathsAreTheUsersNotTheProcesss(@TempDir Path tmp) throws Exception {
        Path user = Files.createDirectories(tmp.resolve("user"));
        Path elsewhere = Files.createDirectories(tmp.resolve("checkout"));
        Files.writeString(user.resolve("big.yaml"), declarations(2));
        Child c = cli(elsewhere, user, 0, "bindgen", "big.yaml", "--out", "gen");
        assertEquals(0, c.exit(), c.err());
        assertTrue(Files.isRegularFile(user.resolve("gen/java/org/example/big/BigApi.java")), c.out());
        assertTrue(c.out().contains("-> " + user.resolve("gen")), c.out());
        assertEquals(Map.of(), files(elsewhere), "nothing is written where the process runs");

        Child abi = cli(elsewhere, user, 0, "abi", "big.yaml", "f1");
        assertEquals(0, abi.exit(), abi.err());
        assertTrue(abi.out().startsWith("{\"mode\": "), abi.out());

        // without the launcher's variable, the process's own directory is the user's
        Child direct = cli(user, null, 0, "bindgen", "big.yaml", "--out", "direct");
        assertEquals(0, direct.exit(), direct.err());
        assertTrue(Files.isRegularFile(user.resolve("direct/bindgen-big.txt")));
    }

    @Test
    void anEmptyPathIsAnError(@TempDir Path dir) throws IOException {
        Path f = Files.writeString(dir.resolve("big.yaml"), declarations(1));
        AbiCommandTest.Run r = AbiCommandTest.run("bindgen", f.toString(), "--out", "");
        assertEquals(2, r.exit());
        assertEquals("panamax bindgen: --out is empty; expected the directory to write into\n", r.err());
        assertFalse(Files.exists(Path.of("java")) || Files.exists(Path.of("c")), "nothing written into the working directory");
        AbiCommandTest.Run noFile = AbiCommandTest.run("bindgen", "", "--out", dir.resolve("out").toString());
        assertEquals(2, noFile.exit());
        assertEquals("panamax bindgen: FILE.yaml is empty; expected the path of a declarations file\n", noFile.err());
        AbiCommandTest.Run abi = AbiCommandTest.run("abi", " ", "f0");
        assertEquals(2, abi.exit());
        assertEquals("panamax abi: FILE.yaml is empty; expected the path of a declarations file\n", abi.err());
        AbiCommandTest.Run nul = AbiCommandTest.run("bindgen", f.toString(), "--out", "a\0b");
        assertEquals(2, nul.exit());
        assertTrue(nul.err().startsWith("panamax bindgen: --out 'a\\0b' is not a path (Nul character not allowed)"), nul.err());
    }

    /** Every Path option of every command (demo --data, --plot, --json; bindgen import's headers and --out) goes through one converter. */
    @Test
    void everyPathOptionIsResolvedTheSameWay() {
        if (System.getenv("PANAMAX_WORKDIR") == null) {
            assertEquals(Path.of(System.getProperty("user.dir")).resolve("gen/x.npz"), UserPaths.converted("gen/x.npz"));
        }
        assertEquals(Path.of("/tmp/abs"), UserPaths.converted("/tmp/abs"));
        picocli.CommandLine.TypeConversionException e = assertThrows(picocli.CommandLine.TypeConversionException.class,
                () -> UserPaths.converted(""));
        assertEquals("the path is empty; expected a file or directory", e.getMessage());
        AbiCommandTest.Run demo = AbiCommandTest.run("demo", "mlp", "--json", "");
        assertEquals(2, demo.exit());
        assertTrue(demo.err().contains("the path is empty; expected a file or directory"), demo.err());
    }

    @Test
    void aFailedWriteNamesTheFileAndLeavesTheOldOutput(@TempDir Path dir) throws Exception {
        Path yaml = Files.writeString(dir.resolve("big.yaml"), declarations(150));
        Path out = dir.resolve("out");
        assertEquals(0, AbiCommandTest.run("bindgen", yaml.toString(), "--out", out.toString()).exit());
        Map<String, byte[]> before = files(out);
        byte[] api = before.get("java/org/example/big/BigApi.java");
        assertTrue(api.length > 64 * 1024, "the typed class is larger than the limit: " + api.length);

        // one more function changes every file; a 64 KiB file size limit stops the first one larger than it
        Files.writeString(yaml, declarations(151));
        Child c = cli(dir, dir, 64, "bindgen", yaml.toString(), "--out", out.toString());
        assertEquals(2, c.exit(), c.out() + c.err());
        Path failed = out.resolve("java/org/example/big/BigApi.java");
        assertEquals("panamax bindgen: cannot write " + failed + ": File too large (the file as it was is left in place)\n", c.err());
        Map<String, byte[]> after = files(out);
        assertArrayEquals(api, after.get("java/org/example/big/BigApi.java"), "the old typed class is intact");
        assertEquals(before.keySet(), after.keySet(), "no temporary file is left behind");

        // without the limit the same command completes, and each file is whole
        Child ok = cli(dir, dir, 0, "bindgen", yaml.toString(), "--out", out.toString());
        assertEquals(0, ok.exit(), ok.err());
        assertTrue(new String(files(out).get("java/org/example/big/BigApi.java"), StandardCharsets.UTF_8).contains(" f150("));
    }

    @Test
    void aFileWhereADirectoryMustGoIsNamed(@TempDir Path dir) throws IOException {
        Path yaml = Files.writeString(dir.resolve("big.yaml"), declarations(1));
        Path out = Files.createDirectories(dir.resolve("out"));
        Files.writeString(out.resolve("java"), "not a directory");
        AbiCommandTest.Run r = AbiCommandTest.run("bindgen", yaml.toString(), "--out", out.toString());
        assertEquals(2, r.exit());
        // the first file written names the directory it needed and the file it was for
        assertTrue(r.err().startsWith("panamax bindgen: cannot create the directory " + out.resolve("java/org/example/big") + " for "
                + out.resolve("java/org/example/big") + "/"), r.err());
        assertTrue(r.err().endsWith(": Not a directory (the file as it was is left in place)\n")
                || r.err().endsWith(" exists and is not a directory (the file as it was is left in place)\n"), r.err());
        assertEquals("not a directory", Files.readString(out.resolve("java")));
    }
}
