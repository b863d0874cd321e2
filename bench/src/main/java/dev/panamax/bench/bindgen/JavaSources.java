package dev.panamax.bench.bindgen;

import dev.panamax.bindgen.gen.Bindgen;

import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

/** Generated sources compiled with javac in this JVM (against this class path), and the classes as a jar. */
final class JavaSources {
    private JavaSources() {}

    /** Compiles {@code sources} into {@code classes}; fails with javac's first errors. */
    static void compile(List<Bindgen.GeneratedFile> sources, Path classes) throws IOException {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        if (javac == null) throw new IllegalStateException("no javac in this JVM: run the bench on a JDK");
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
            List<String> options = List.of("-proc:none", "-classpath", System.getProperty("java.class.path"), "-d", classes.toString());
            if (!javac.getTask(null, files, diagnostics, options, null, units).call()) {
                List<String> errors = diagnostics.getDiagnostics().stream().filter(d -> d.getKind() == Diagnostic.Kind.ERROR)
                        .limit(5).map(d -> d.getSource().getName() + ":" + d.getLineNumber() + ": " + d.getMessage(Locale.ROOT)).toList();
                throw new IllegalStateException("the generated sources do not compile:\n" + String.join("\n", errors));
            }
        }
    }

    /** Writes the class files under {@code classes} into {@code jar} (deflated); returns its size in bytes. */
    static long jar(Path classes, Path jar) throws IOException {
        try (OutputStream out = Files.newOutputStream(jar); JarOutputStream j = new JarOutputStream(out);
             Stream<Path> files = Files.walk(classes)) {
            for (Path f : files.filter(Files::isRegularFile).sorted().toList()) {
                j.putNextEntry(new JarEntry(classes.relativize(f).toString().replace('\\', '/')));
                Files.copy(f, j);
                j.closeEntry();
            }
        }
        return Files.size(jar);
    }
}
