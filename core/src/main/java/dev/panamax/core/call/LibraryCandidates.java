package dev.panamax.core.call;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.SymbolLookup;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Where a library asked for by name or path may be: the plan {@link NativeLibrary#load} follows, in
 * order, until one candidate opens.
 *
 * <ul>
 *   <li>a path (anything with a {@code /}): that file only;</li>
 *   <li>a soname ({@code libz.so.1}): the system loader's search for it, then that file in each search directory;</li>
 *   <li>a short name ({@code z}): {@code libz.so} through the system loader (LD_LIBRARY_PATH, the ld.so
 *       cache, the default directories), then {@code libz.so} and every versioned {@code libz.so.N[.M..]}
 *       found in the search directories, shortest version first.</li>
 * </ul>
 * The search directories are {@code java.library.path}, {@code LD_LIBRARY_PATH}, those listed in
 * {@code /etc/ld.so.conf.d/*.conf} and the usual system library directories, the ones that exist.
 */
final class LibraryCandidates {
    /** One place to try. */
    sealed interface Candidate {
        /** Opens the library; throws IllegalArgumentException when it cannot. */
        SymbolLookup open(Arena arena);

        String describe();
    }

    /** A name handed to the system loader (dlopen), which searches its own path. */
    record SystemName(String soname) implements Candidate {
        @Override
        public SymbolLookup open(Arena arena) {
            return SymbolLookup.libraryLookup(soname, arena);
        }

        @Override
        public String describe() {
            return soname + " (system loader search)";
        }
    }

    /** A file. */
    record LibraryFile(Path path) implements Candidate {
        @Override
        public SymbolLookup open(Arena arena) {
            // libm.so and friends are often linker scripts (text): refuse anything but ELF before the
            // JVM's loader, which warns about the stack guard of any file it cannot read as ELF
            if (Files.isRegularFile(path) && !isElf(path)) {
                throw new IllegalArgumentException("not an ELF shared object (a linker script or other text?)");
            }
            return SymbolLookup.libraryLookup(path, arena);
        }

        @Override
        public String describe() {
            return path.toString();
        }
    }

    private LibraryCandidates() {}

    private static boolean isElf(Path file) {
        try (var in = Files.newInputStream(file)) {
            byte[] magic = in.readNBytes(4);
            return magic.length == 4 && magic[0] == 0x7f && magic[1] == 'E' && magic[2] == 'L' && magic[3] == 'F';
        } catch (IOException | SecurityException e) {
            return true; // let the loader report why it cannot read it
        }
    }

    static List<Candidate> forName(String nameOrPath, List<Path> searchDirectories) {
        List<Candidate> out = new ArrayList<>();
        if (nameOrPath.indexOf('/') >= 0) {
            out.add(new LibraryFile(Path.of(nameOrPath).toAbsolutePath().normalize()));
            return out;
        }
        boolean soname = nameOrPath.startsWith("lib") && nameOrPath.contains(".so");
        String base = soname ? nameOrPath : "lib" + nameOrPath + ".so";
        out.add(new SystemName(base));
        for (Path dir : searchDirectories) {
            Path exact = dir.resolve(base);
            if (Files.exists(exact)) out.add(new LibraryFile(exact));
        }
        if (!soname) {
            Pattern versioned = Pattern.compile(Pattern.quote(base) + "(\\.\\d+)+");
            for (Path dir : searchDirectories) {
                for (Path file : versionedFiles(dir, base, versioned)) out.add(new LibraryFile(file));
            }
        }
        return out;
    }

    private static List<Path> versionedFiles(Path dir, String base, Pattern versioned) {
        List<Path> found = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, base + ".*")) {
            for (Path f : files) {
                if (versioned.matcher(f.getFileName().toString()).matches()) found.add(f);
            }
        } catch (IOException | SecurityException e) {
            return List.of();
        }
        found.sort(Comparator.comparingInt((Path p) -> p.getFileName().toString().length())
                .thenComparing(p -> p.getFileName().toString()));
        return found;
    }

    /** The directories searched for library files, in order, those that exist. */
    static List<Path> defaultSearchDirectories() {
        Set<Path> dirs = new LinkedHashSet<>();
        addPathList(dirs, System.getProperty("java.library.path"));
        addPathList(dirs, System.getenv("LD_LIBRARY_PATH"));
        try (Stream<Path> confs = Files.list(Path.of("/etc/ld.so.conf.d"))) {
            for (Path conf : confs.filter(p -> p.toString().endsWith(".conf")).sorted().toList()) {
                for (String line : Files.readAllLines(conf)) {
                    String l = line.strip();
                    if (l.startsWith("/")) dirs.add(Path.of(l));
                }
            }
        } catch (IOException | RuntimeException e) {
            // no ld.so.conf.d: the fixed directories below still apply
        }
        String multiarch = multiarchTriplet();
        for (String d : List.of("/lib/" + multiarch, "/usr/lib/" + multiarch, "/lib64", "/usr/lib64", "/lib", "/usr/lib",
                "/usr/local/lib")) {
            dirs.add(Path.of(d));
        }
        return dirs.stream().filter(Files::isDirectory).toList();
    }

    private static void addPathList(Set<Path> dirs, String list) {
        if (list == null || list.isBlank()) return;
        for (String s : list.split(java.io.File.pathSeparator)) {
            if (!s.isBlank()) dirs.add(Path.of(s).toAbsolutePath().normalize());
        }
    }

    private static String multiarchTriplet() {
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        return switch (arch) {
            case "amd64", "x86_64" -> "x86_64-linux-gnu";
            case "aarch64", "arm64" -> "aarch64-linux-gnu";
            default -> arch + "-linux-gnu";
        };
    }
}
