package dev.panamax.bench.bindgen;

import dev.panamax.bench.Measurement;
import dev.panamax.bench.Result;
import dev.panamax.bench.batch.BatchNatives;
import dev.panamax.bench.batch.StartupSignatures;
import dev.panamax.bindgen.decl.Declarations;
import dev.panamax.bindgen.decl.DeclarationsParser;
import dev.panamax.bindgen.gen.Bindgen;
import dev.panamax.bindgen.importer.HeaderImport;
import dev.panamax.bindgen.importer.ImportOptions;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * bindgen at scale. A large real API, Vulkan ({@code vulkan_core.h}, Debian's libvulkan-dev): import time
 * (libclang), generation time, javac time and jar size of the generated binding. A generated library of
 * 20,000 functions: generation and javac. And the start of a generated binding of the batch suite's 2,000
 * startup fixtures, in fresh JVMs: link and first call of every function through the generated thunks (one
 * batch) and through the generated raw layer (a downcall each).
 */
public final class BindgenScale implements Measurement {
    static final Path VULKAN = Path.of("/usr/include/vulkan/vulkan_core.h");

    @Override
    public String suite() {
        return "bindgen";
    }

    @Override
    public List<Result> run(boolean quick) throws Exception {
        int runs = quick ? 3 : 7;
        List<Result> out = new ArrayList<>();
        Path work = Files.createTempDirectory("panamax-bench-bindgen");
        try {
            if (Files.isRegularFile(VULKAN)) {
                out.addAll(vulkan(work.resolve("vulkan"), runs));
            } else {
                System.err.println("panamax bench bindgen: " + VULKAN + " is missing (apt-get install libvulkan-dev); Vulkan figures skipped");
            }
            out.addAll(startup(work.resolve("startup"), runs));
            out.addAll(large(work.resolve("large"), 20_000));
        } finally {
            delete(work);
        }
        return out;
    }

    private static List<Result> vulkan(Path dir, int runs) throws IOException {
        Files.createDirectories(dir);
        Path yaml = dir.resolve("vulkan.yaml");
        ImportOptions options = new ImportOptions(List.of(VULKAN), "vulkan", List.of(), List.of(), null, "org.example.vulkan");
        double[] imports = new double[runs];
        double[] generations = new double[runs];
        Bindgen.Generation g = null;
        HeaderImport.Result imported = null;
        for (int i = 0; i < runs; i++) {
            Files.deleteIfExists(yaml);
            long t0 = System.nanoTime();
            imported = HeaderImport.run(options, yaml);
            long t1 = System.nanoTime();
            g = Bindgen.generate(DeclarationsParser.parse(yaml));
            long t2 = System.nanoTime();
            imports[i] = (t1 - t0) / 1e6;
            generations[i] = (t2 - t1) / 1e6;
            progress("vulkan import + generate " + (i + 1) + "/" + runs);
        }
        System.err.println(imported.summary());
        System.err.println(Bindgen.summary(g));
        double[] javac = new double[Math.min(runs, 3)];
        long jar = 0;
        for (int i = 0; i < javac.length; i++) {
            Path classes = dir.resolve("classes" + i);
            long t0 = System.nanoTime();
            JavaSources.compile(g.java(), classes);
            javac[i] = (System.nanoTime() - t0) / 1e6;
            jar = JavaSources.jar(classes, dir.resolve("vulkan.jar"));
            progress("vulkan javac " + (i + 1) + "/" + javac.length);
        }
        Declarations d = imported.declarations();
        List<Result> out = new ArrayList<>();
        out.add(Result.single("vulkan.functions", "count", d.functions().size()));
        out.add(Result.single("vulkan.types", "count", d.types().size()));
        out.add(Result.single("vulkan.constants", "count", d.constants().size()));
        out.add(Result.single("vulkan.javaFiles", "count", g.java().size()));
        out.add(Result.of("vulkan.import.ms", "ms", imports, ""));
        out.add(Result.of("vulkan.generate.ms", "ms", generations, ""));
        out.add(Result.of("vulkan.javac.ms", "ms", javac, ""));
        out.add(Result.single("vulkan.jar.kib", "KiB", jar / 1024.0));
        return out;
    }

    /** The generated binding of the 2,000 startup fixtures, compiled once, then started in fresh JVMs. */
    private static List<Result> startup(Path dir, int runs) throws Exception {
        Files.createDirectories(dir);
        Path yaml = dir.resolve("startup.yaml");
        Files.writeString(yaml, StartupDeclarations.yaml(StartupSignatures.functions(), BatchNatives.libraryFile().toString(), 1));
        Bindgen.Generation g = Bindgen.generate(DeclarationsParser.parse(yaml));
        Path classes = dir.resolve("classes");
        List<Bindgen.GeneratedFile> sources = new ArrayList<>(g.java());
        sources.add(StartupCalls.source(StartupSignatures.functions()));
        JavaSources.compile(sources, classes);
        double[] thunks = new double[runs];
        double[] raw = new double[runs];
        for (int i = 0; i < runs; i++) {
            thunks[i] = child(classes, "thunks");
            raw[i] = child(classes, "raw");
            progress("startup " + (i + 1) + "/" + runs);
        }
        return List.of(Result.of("startup.2000.generatedThunks.ms", "ms", thunks, ""),
                Result.of("startup.2000.generatedRaw.ms", "ms", raw, ""),
                Result.single("startup.2000.speedup", "x", Result.median(raw) / Result.median(thunks)));
    }

    /** A generated library of {@code functions} functions (the fixtures' signatures repeated): generation and javac, once. */
    private static List<Result> large(Path dir, int functions) throws IOException {
        Files.createDirectories(dir);
        Path yaml = dir.resolve("large.yaml");
        int copies = functions / StartupSignatures.functions().size();
        Files.writeString(yaml, StartupDeclarations.yaml(StartupSignatures.functions(), "panamax_bench_large", copies));
        long t0 = System.nanoTime();
        Bindgen.Generation g = Bindgen.generate(DeclarationsParser.parse(yaml));
        long t1 = System.nanoTime();
        progress("large: " + Bindgen.summary(g) + "; javac ...");
        JavaSources.compile(g.java(), dir.resolve("classes"));
        long t2 = System.nanoTime();
        long jar = JavaSources.jar(dir.resolve("classes"), dir.resolve("large.jar"));
        String n = "large." + functions;
        return List.of(Result.single(n + ".generate.ms", "ms", (t1 - t0) / 1e6), Result.single(n + ".javac.ms", "ms", (t2 - t1) / 1e6),
                Result.single(n + ".javaFiles", "count", g.java().size()), Result.single(n + ".jar.kib", "KiB", jar / 1024.0));
    }

    private static double child(Path classes, String mode) throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String cp = classes + File.pathSeparator + System.getProperty("java.class.path");
        Process p = new ProcessBuilder(java, "--enable-native-access=ALL-UNNAMED", "-Dpanamax.leakDetection=DISABLED",
                "-cp", cp, GeneratedStartupChild.class.getName(), mode).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        if (p.waitFor() != 0) throw new IllegalStateException("startup child failed: mode=" + mode + " exit=" + p.exitValue());
        return Double.parseDouble(out);
    }

    private static void progress(String what) {
        System.err.println("panamax bench bindgen: " + what);
    }

    private static void delete(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : files.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(f);
        }
    }
}
