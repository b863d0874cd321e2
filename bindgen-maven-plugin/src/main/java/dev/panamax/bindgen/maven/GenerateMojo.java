package dev.panamax.bindgen.maven;

import dev.panamax.bindgen.check.HeaderCheck;
import dev.panamax.bindgen.decl.Declarations;
import dev.panamax.bindgen.decl.DeclarationsException;
import dev.panamax.bindgen.decl.DeclarationsParser;
import dev.panamax.bindgen.gen.Bindgen;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.project.MavenProject;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Generates the bindings of a declarations file in {@code generate-sources}: Java sources under
 * {@code outputDirectory/java} (added as a source root), the C glue under {@code outputDirectory/c}
 * and the report in {@code outputDirectory}. The glue (the MetaABI thunks of the batchable
 * functions) is compiled with gcc into {@code libpanamax_glue_UNIT.so} in the module's native output,
 * linked against the bound library, so the jar carries it.
 *
 * <pre>{@code
 * <plugin>
 *   <groupId>dev.panamax</groupId>
 *   <artifactId>panamax-bindgen-maven-plugin</artifactId>
 *   <executions><execution>
 *     <goals><goal>generate</goal></goals>
 *     <configuration><declarations>src/main/decl/opencl.yaml</declarations></configuration>
 *   </execution></executions>
 * </plugin>
 * }</pre>
 */
@Mojo(name = "generate", defaultPhase = LifecyclePhase.GENERATE_SOURCES, threadSafe = true)
public final class GenerateMojo extends AbstractMojo {
    /** The declarations file. */
    @Parameter(required = true)
    private File declarations;

    /** Where generated sources, glue and report go. */
    @Parameter(defaultValue = "${project.build.directory}/generated-sources/panamax")
    private File outputDirectory;

    /** Where the compiled glue library goes (inside the jar's {@code native/<platform>/}). */
    @Parameter(defaultValue = "${project.build.outputDirectory}/native/linux-x86_64")
    private File nativeOutputDirectory;

    /** Compile the C glue (set false to compile it elsewhere). */
    @Parameter(defaultValue = "true")
    private boolean compileGlue;

    /** The C compiler. */
    @Parameter(defaultValue = "gcc")
    private String compiler;

    /** Compiler flags for the glue: baseline x86-64, no -march=native. */
    @Parameter
    private List<String> cflags = List.of("-O2", "-fPIC", "-std=gnu11", "-Wall");

    /**
     * How to link the bound library ({@code -l:libOpenCL.so.1}, {@code -lopenblas}, a path); by default
     * derived from the file's {@code sonames}, tried in order until one links.
     */
    @Parameter
    private List<String> linkWith;

    @Parameter(defaultValue = "false", property = "panamax.bindgen.skip")
    private boolean skip;

    /**
     * Check every declaration against the file's {@code headers:} (and {@code <headers>}) with g++; a
     * declaration that differs from its header fails the build.
     */
    @Parameter(defaultValue = "true", property = "panamax.bindgen.checkHeaders")
    private boolean checkHeaders;

    /** More headers to check against, besides the file's {@code headers:}. */
    @Parameter
    private List<String> headers = List.of();

    /** The C++ compiler the header check runs ({@code -fsyntax-only}). */
    @Parameter(defaultValue = "g++")
    private String headerCheckCompiler;

    @Parameter(defaultValue = "${project}", readonly = true, required = true)
    private MavenProject project;

    @Override
    public void execute() throws MojoExecutionException, MojoFailureException {
        if (skip) {
            getLog().info("panamax bindgen skipped");
            return;
        }
        Path out = outputDirectory.toPath();
        Path javaDir = out.resolve("java");
        Path cDir = out.resolve("c");
        Bindgen.Generation g;
        try {
            g = Bindgen.run(declarations.toPath(), javaDir, cDir, out);
            if (checkHeaders) {
                Declarations d = DeclarationsParser.parse(declarations.toPath());
                List<String> all = HeaderCheck.headers(d, headers);
                HeaderCheck.Result checked = HeaderCheck.run(d, all, out.resolve("check"), headerCheckCompiler);
                if (checked.checks() > 0) getLog().info("checked against " + all + ": " + checked.checks() + " facts agree");
            }
        } catch (DeclarationsException e) {
            throw new MojoFailureException(e.getMessage(), e);
        } catch (UncheckedIOException e) {
            throw new MojoExecutionException(e.getMessage(), e);
        }
        project.addCompileSourceRoot(javaDir.toString());
        getLog().info(Bindgen.summary(g) + " (report: " + out.resolve(g.report().path()) + ")");
        if (compileGlue && !g.c().isEmpty()) compile(g, cDir);
    }

    private void compile(Bindgen.Generation g, Path cDir) throws MojoExecutionException {
        Bindgen.GeneratedFile source = g.c().stream().filter(f -> f.path().endsWith(".c")).findFirst().orElseThrow();
        Bindgen.GeneratedFile header = g.c().stream().filter(f -> f.path().endsWith(".h")).findFirst().orElseThrow();
        Path sourceFile = cDir.resolve(source.path());
        Path library = nativeOutputDirectory.toPath().resolve(g.plan().glueLibraryFile());
        List<String> links = linkOptions(g.plan().libraryNames());
        List<String> recipe = new ArrayList<>(cflags);
        recipe.add(GlueCompiler.RECIPE);
        GlueFingerprint inputs = GlueFingerprint.of(compiler, recipe, links, header.content(), source.content());
        Path stamp = cDir.resolve(g.plan().glueLibraryFile() + ".inputs");
        try {
            if (inputs.builtInto(library, stamp)) {
                getLog().info("glue up to date: " + library);
                return;
            }
            Files.createDirectories(library.getParent());
        } catch (IOException e) {
            throw new MojoExecutionException("cannot prepare " + library + ": " + e.getMessage(), e);
        }
        List<String> attempts = new ArrayList<>();
        GlueCompiler gcc = new GlueCompiler(compiler, cflags, getLog()::warn);
        for (String link : links) {
            String failure;
            try {
                failure = gcc.compile(cDir, source.path(), library, link);
            } catch (IOException e) {
                throw new MojoExecutionException("cannot run " + compiler + ": " + e.getMessage() + " (install gcc, or set <compiler>)", e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new MojoExecutionException("interrupted while compiling the glue", e);
            }
            if (failure == null) {
                try {
                    inputs.record(stamp);
                } catch (IOException e) {
                    throw new MojoExecutionException("cannot write " + stamp + ": " + e.getMessage(), e);
                }
                getLog().info("glue compiled: " + library + " (" + link + ")");
                return;
            }
            attempts.add(failure);
        }
        throw new MojoExecutionException("cannot compile the C glue " + sourceFile + " into " + library + "; tried:\n"
                + String.join("\n", attempts) + "\n(set <linkWith> to the linker option that finds the library)");
    }

    /** The linker options to try: the configured ones, else one per soname. */
    private List<String> linkOptions(List<String> libraryNames) {
        if (linkWith != null && !linkWith.isEmpty()) return linkWith;
        List<String> options = new ArrayList<>();
        for (String n : libraryNames) {
            if (n.contains("/")) options.add(n);
            else if (n.startsWith("lib") && n.contains(".so")) options.add("-l:" + n);
            else options.add("-l" + n);
        }
        return options;
    }
}
