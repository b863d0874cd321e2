package dev.panamax.bindgen.gen;

import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Compiles generated sources with javax.tools in this JVM, against the test class path (panamax-core on it). */
final class InProcessCompiler {
    private InProcessCompiler() {}

    /** What javac said: empty errors means the sources compiled into {@code classes}. */
    record Outcome(List<String> errors, Path classes) {
        boolean ok() {
            return errors.isEmpty();
        }
    }

    static Outcome compile(List<Bindgen.GeneratedFile> sources, Path classes) throws IOException {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        Files.createDirectories(classes);
        List<JavaFileObject> units = new ArrayList<>();
        for (Bindgen.GeneratedFile f : sources) {
            units.add(new SimpleJavaFileObject(URI.create("string:///" + f.path()), JavaFileObject.Kind.SOURCE) {
                @Override
                public CharSequence getCharContent(boolean ignoreEncodingErrors) {
                    return f.content();
                }
            });
        }
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        try (StandardJavaFileManager files = javac.getStandardFileManager(diagnostics, Locale.ROOT, null)) {
            List<String> options = List.of("-proc:none", "-Xlint:all", "-classpath", System.getProperty("java.class.path"),
                    "-d", classes.toString());
            javac.getTask(null, files, diagnostics, options, null, units).call();
        }
        List<String> errors = new ArrayList<>();
        for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
            if (d.getKind() == Diagnostic.Kind.ERROR || d.getKind() == Diagnostic.Kind.WARNING && !d.getMessage(Locale.ROOT).contains("[processing]")) {
                String where = d.getSource() == null ? "" : d.getSource().getName() + ":" + d.getLineNumber() + ": ";
                errors.add(d.getKind() + " " + where + d.getMessage(Locale.ROOT));
            }
        }
        return new Outcome(errors, classes);
    }
}
