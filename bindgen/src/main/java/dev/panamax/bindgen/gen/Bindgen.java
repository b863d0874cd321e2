package dev.panamax.bindgen.gen;

import dev.panamax.bindgen.decl.Declarations;
import dev.panamax.bindgen.decl.DeclarationsException;
import dev.panamax.bindgen.decl.DeclarationsParser;
import dev.panamax.bindgen.gen.BindingPlan.CallbackPlan;
import dev.panamax.bindgen.gen.BindingPlan.HandlePlan;
import dev.panamax.bindgen.gen.BindingPlan.StructPlan;
import dev.panamax.bindgen.glue.ThunkEmitter;
import dev.panamax.bindgen.glue.ThunkSources;
import dev.panamax.core.abi.CFunction;
import dev.panamax.core.io.AtomicFile;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * bindgen: a declarations file in, Java bindings (raw and typed layers), C glue and a report out.
 * Three steps, each testable alone: parse and validate ({@link DeclarationsParser}), plan
 * ({@link Planner}, pure), write (the writers render the plan; files change only when their bytes do).
 *
 * <pre>{@code
 * Bindgen.Generation g = Bindgen.run(Path.of("opencl.yaml"), Path.of("target/generated-sources/panamax/java"),
 *         Path.of("target/generated-sources/panamax/c"), Path.of("target/generated-sources/panamax"));
 * }</pre>
 *
 * Every problem with the file is a {@link DeclarationsException} naming {@code file:line:column}.
 */
public final class Bindgen {
    private Bindgen() {}

    /** A generated file: its path relative to its output directory, and its text. */
    public record GeneratedFile(String path, String content) {}

    /** Everything generated from one declarations file. */
    public record Generation(BindingPlan plan, List<GeneratedFile> java, List<GeneratedFile> c, GeneratedFile report) {
        public Generation {
            java = List.copyOf(java);
            c = List.copyOf(c);
        }
    }

    /**
     * Whether a constant or function may keep C name {@code name} in the raw layer, where the Java field or
     * method is named exactly as the C one: not a Java keyword or literal ({@code null}, {@code native}).
     */
    public static boolean usableAsJavaMember(String name) {
        return JavaNames.usableAsIs(name);
    }

    /** Plans and renders {@code d}; writes nothing. Equal declarations give byte-equal output. */
    public static Generation generate(Declarations d) {
        BindingPlan plan = Planner.plan(d);
        BindingPlan.Names n = plan.names();
        String dir = n.javaPackage().replace('.', '/') + "/";
        List<GeneratedFile> java = new ArrayList<>();
        ByAddressClassWriter.Output byAddress = ByAddressClassWriter.write(plan);
        RawClassWriter.write(plan).forEach((c, text) -> java.add(new GeneratedFile(dir + c + ".java", text)));
        TypedClassWriter.write(plan, byAddress.classOfShape()).forEach((c, text) -> java.add(new GeneratedFile(dir + c + ".java", text)));
        java.add(new GeneratedFile(dir + n.exception() + ".java", ExceptionWriter.write(plan)));
        byAddress.sources().forEach((c, text) -> java.add(new GeneratedFile(dir + c + ".java", text)));
        for (StructPlan s : plan.structs()) java.add(new GeneratedFile(dir + s.className() + ".java", StructClassWriter.write(plan, s)));
        for (HandlePlan h : plan.handles()) java.add(new GeneratedFile(dir + h.className() + ".java", HandleClassWriter.write(plan, h)));
        for (CallbackPlan c : plan.callbacks()) java.add(new GeneratedFile(dir + c.className() + ".java", CallbackWriter.write(plan, c)));
        List<GeneratedFile> c = new ArrayList<>();
        if (!plan.thunks().isEmpty()) {
            ThunksClassWriter.write(plan).forEach((cl, text) -> java.add(new GeneratedFile(dir + cl + ".java", text)));
            List<CFunction> batchable = plan.thunks().stream().map(BindingPlan.ThunkPlan::function).toList();
            ThunkSources sources = ThunkEmitter.emit(plan.glueUnit(), batchable);
            c.add(new GeneratedFile(sources.headerName(), sources.header()));
            c.add(new GeneratedFile(sources.sourceName(), sources.source()));
        }
        GeneratedFile report = new GeneratedFile(reportName(plan), ReportWriter.write(plan, d.functions().size()));
        return new Generation(plan, java, c, report);
    }

    /** The report's file name: {@code bindgen-LIBRARY.txt}. */
    static String reportName(BindingPlan plan) {
        return "bindgen-" + plan.glueUnit() + ".txt";
    }

    /**
     * Parses {@code declarations}, generates, and writes Java sources under {@code javaDir}, the C glue
     * under {@code cDir} and the report under {@code reportDir}. Files are rewritten only when their
     * bytes change; generated Java files of the same declarations that are no longer generated are deleted.
     */
    public static Generation run(Path declarations, Path javaDir, Path cDir, Path reportDir) {
        Generation g = generate(DeclarationsParser.parse(declarations));
        write(g, javaDir, cDir, reportDir);
        return g;
    }

    /**
     * Reads {@code declarations} and checks it exactly as {@link #run} does (parse, validate, plan,
     * render), writing nothing: a file this accepts, bindgen generates; a file it refuses, bindgen
     * refuses with the same {@link DeclarationsException}. {@code panamax abi} reads files through it.
     */
    public static Declarations check(Path declarations) {
        Declarations d = DeclarationsParser.parse(declarations);
        generate(d);
        return d;
    }

    /**
     * Writes a generation (see {@link #run}). Each file is written atomically ({@link AtomicFile}): a
     * failed write names the file and leaves it as it was.
     */
    public static void write(Generation g, Path javaDir, Path cDir, Path reportDir) {
        for (Path dir : List.of(javaDir, cDir, reportDir)) {
            if (dir.toString().isEmpty()) throw new IllegalArgumentException("an output directory is the empty path; expected a directory");
        }
        Set<Path> written = new HashSet<>();
        for (GeneratedFile f : g.java()) written.add(writeIfChanged(javaDir.resolve(f.path()), f.content()));
        Path packageDir = javaDir.resolve(g.plan().names().javaPackage().replace('.', '/'));
        try {
            deleteStale(packageDir, g.plan().sourceName(), written);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete stale generated files in " + packageDir + ": " + e.getMessage(), e);
        }
        for (GeneratedFile f : g.c()) writeIfChanged(cDir.resolve(f.path()), f.content());
        writeIfChanged(reportDir.resolve(g.report().path()), g.report().content());
    }

    /** Writes {@code text} to {@code file} unless it already holds exactly those bytes; returns the file. */
    static Path writeIfChanged(Path file, String text) {
        return AtomicFile.write(file, text.getBytes(StandardCharsets.UTF_8));
    }

    private static void deleteStale(Path packageDir, String sourceName, Set<Path> keep) throws IOException {
        if (!Files.isDirectory(packageDir)) return;
        String header = Source.HEADER + sourceName;
        try (Stream<Path> files = Files.list(packageDir)) {
            for (Path p : files.filter(f -> f.toString().endsWith(".java") && !keep.contains(f)).sorted().toList()) {
                String first;
                try (var lines = Files.lines(p, StandardCharsets.UTF_8)) {
                    first = lines.findFirst().orElse("");
                } catch (java.io.UncheckedIOException notText) {
                    continue;
                }
                if (first.equals(header)) Files.delete(p);
            }
        }
    }

    /**
     * {@code Bindgen FILE.yaml JAVA_DIR C_DIR [REPORT_DIR]}: for builds (exec) and tests. Prints one line
     * per run; a problem with the file is printed as {@code file:line:column: message}, exit status 2.
     */
    public static void main(String[] args) {
        if (args.length < 3 || args.length > 4) {
            System.err.println("usage: Bindgen FILE.yaml JAVA_DIR C_DIR [REPORT_DIR]");
            System.exit(64);
        }
        try {
            Path report = Path.of(args.length == 4 ? args[3] : args[2]);
            Generation g = run(Path.of(args[0]), Path.of(args[1]), Path.of(args[2]), report);
            System.out.println(summary(g) + " -> " + args[1]);
        } catch (DeclarationsException e) {      // exit codes as the CLI's: 1 bad declarations, 2 files
            System.err.println("panamax bindgen: " + e.getMessage());
            System.exit(1);
        } catch (UncheckedIOException e) {
            System.err.println("panamax bindgen: " + e.getMessage());
            System.exit(2);
        }
    }

    /** One line: what was generated. */
    public static String summary(Generation g) {
        BindingPlan p = g.plan();
        long typed = p.typedFunctions().stream().map(TypedFunction::name).distinct().count();
        return "panamax bindgen: " + p.library() + ": " + p.rawFunctions().size() + " raw, " + typed + " typed, "
                + p.thunks().size() + " thunks, " + p.skipped().size() + " skipped; " + g.java().size() + " Java files, "
                + g.c().size() + " C files";
    }
}
