package dev.panamax.bindgen.maven;

import dev.panamax.bindgen.importing.HeaderImportReport;
import dev.panamax.bindgen.importing.HeaderImportRequest;
import dev.panamax.bindgen.importing.HeaderImporter;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.ServiceLoader;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * {@code panamax bindgen import} in a build: imports C headers into a declarations file in
 * {@code generate-sources}, before the {@code generate} goal turns the file into bindings. An existing
 * file is merged (every annotation kept, what the headers changed logged); with {@code failOnChange}
 * the file is left as it is and a header that changes it fails the build. The importer is found with
 * {@link ServiceLoader}: panamax-bindgen-import, which reads headers with libclang, is a dependency of
 * the plugin in the project's pom.
 *
 * <pre>{@code
 * <plugin>
 *   <groupId>dev.panamax</groupId>
 *   <artifactId>panamax-bindgen-maven-plugin</artifactId>
 *   <dependencies><dependency>
 *     <groupId>dev.panamax</groupId><artifactId>panamax-bindgen-import</artifactId><version>${panamax.version}</version>
 *   </dependency></dependencies>
 *   <executions>
 *     <execution><id>import</id><goals><goal>import</goal></goals><configuration>
 *       <headers><header>/usr/include/sqlite3.h</header></headers>
 *       <library>sqlite3</library>
 *       <filter>^(sqlite3|SQLITE_)</filter>
 *       <javaPackage>org.example.sqlite</javaPackage>
 *       <declarations>src/main/decl/sqlite3.yaml</declarations>
 *     </configuration></execution>
 *     <execution><id>generate</id><goals><goal>generate</goal></goals><configuration>
 *       <declarations>src/main/decl/sqlite3.yaml</declarations>
 *     </configuration></execution>
 *   </executions>
 * </plugin>
 * }</pre>
 */
@Mojo(name = "import", defaultPhase = LifecyclePhase.GENERATE_SOURCES, threadSafe = true)
public final class ImportMojo extends AbstractMojo {
    /** The headers to import. */
    @Parameter(required = true)
    private List<File> headers;

    /** The library's logical name ({@code library:} of a new file). */
    @Parameter(required = true)
    private String library;

    /** The declarations file to write, or to update when it exists. */
    @Parameter(required = true)
    private File declarations;

    /** Keep only the functions, types and constants whose name this regular expression finds. */
    @Parameter
    private String filter;

    /** The Java package of a new file (default {@code panamax.LIBRARY}). */
    @Parameter
    private String javaPackage;

    /** Include directories ({@code -I}). */
    @Parameter
    private List<File> includes = List.of();

    /** Macro definitions {@code NAME} or {@code NAME=VALUE} ({@code -D}). */
    @Parameter
    private List<String> defines = List.of();

    /**
     * Leave the declarations file as it is and fail when importing the headers would change it (a
     * check that the file is the headers' import plus its annotations); false updates the file.
     */
    @Parameter(defaultValue = "false", property = "panamax.bindgen.failOnChange")
    private boolean failOnChange;

    /** Where the check of {@code failOnChange} imports into. */
    @Parameter(defaultValue = "${project.build.directory}/panamax-import", readonly = true)
    private File workDirectory;

    @Parameter(defaultValue = "false", property = "panamax.bindgen.import.skip")
    private boolean skip;

    @Override
    public void execute() throws MojoExecutionException, MojoFailureException {
        if (skip) {
            getLog().info("panamax bindgen import skipped");
            return;
        }
        Path file = declarations.toPath();
        Path target = failOnChange ? copyToCheck(file) : file;
        HeaderImportReport report;
        try {
            report = importer().importHeaders(new HeaderImportRequest(headers.stream().map(File::toPath).toList(), library,
                    includes.stream().map(File::toPath).toList(), defines, pattern(), javaPackage, target));
        } catch (IllegalArgumentException e) {
            throw new MojoFailureException("panamax bindgen import into " + file + ": " + e.getMessage(), e);
        } catch (UncheckedIOException e) {
            throw new MojoExecutionException("panamax bindgen import into " + file + ": " + e.getMessage(), e);
        } catch (RuntimeException e) {   // libclang missing or failing: say which import it stopped
            throw new MojoExecutionException("panamax bindgen import of " + headers + " into " + file + " failed: " + e, e);
        }
        getLog().info(report.summary());
        if (report.problem() != null) {
            throw new MojoFailureException(target + " was written but does not validate, fix it by hand: " + report.problem());
        }
        if (!report.reimport()) {
            if (failOnChange) throw new MojoFailureException(file + " does not exist; expected the annotated declarations file"
                    + " (build once with -Dpanamax.bindgen.failOnChange=false to import it)");
            return;
        }
        if (report.changes().isEmpty()) {
            getLog().info("the headers changed nothing in " + file);
        } else if (failOnChange) {
            throw new MojoFailureException("the headers " + headers + " change " + file + ":\n  " + String.join("\n  ", report.changes())
                    + "\n(the merged file is " + target + "; build with -Dpanamax.bindgen.failOnChange=false to update "
                    + file.getFileName() + ")");
        } else {
            getLog().info("the headers changed " + file + ":");
            report.changes().forEach(c -> getLog().info("  " + c));
        }
    }

    /** A copy of the declarations file to import into, so that the file itself stays as it is. */
    private Path copyToCheck(Path file) throws MojoExecutionException {
        Path copy = workDirectory.toPath().resolve(file.getFileName());
        try {
            Files.createDirectories(copy.getParent());
            if (Files.isRegularFile(file)) Files.copy(file, copy, StandardCopyOption.REPLACE_EXISTING);
            else Files.deleteIfExists(copy);
        } catch (IOException e) {
            throw new MojoExecutionException("cannot copy " + file + " to " + copy + ": " + e.getMessage(), e);
        }
        return copy;
    }

    private Pattern pattern() throws MojoFailureException {
        if (filter == null) return null;
        try {
            return Pattern.compile(filter);
        } catch (PatternSyntaxException e) {
            throw new MojoFailureException("<filter>" + filter + "</filter> is not a regular expression: " + e.getDescription());
        }
    }

    private HeaderImporter importer() throws MojoExecutionException {
        return ServiceLoader.load(HeaderImporter.class, ImportMojo.class.getClassLoader()).findFirst()
                .orElseThrow(() -> new MojoExecutionException("no header importer on the plugin's class path; expected"
                        + " dev.panamax:panamax-bindgen-import among the dependencies of panamax-bindgen-maven-plugin"
                        + " (<plugin>...<dependencies><dependency><groupId>dev.panamax</groupId>"
                        + "<artifactId>panamax-bindgen-import</artifactId>...)"));
    }
}
