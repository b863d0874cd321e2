package dev.panamax.core.call;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

class LibraryCandidatesTest {
    @TempDir
    Path dir;

    private List<String> plan(String name) {
        return LibraryCandidates.forName(name, List.of(dir)).stream().map(LibraryCandidates.Candidate::describe).toList();
    }

    @Test
    void shortNameTriesTheSystemLoaderThenFilesShortestVersionFirst() throws IOException {
        for (String f : List.of("libfoo.so", "libfoo.so.1.2.3", "libfoo.so.1", "libfoo.so.10", "libfoobar.so.1", "libfoo.so.1.txt")) {
            Files.writeString(dir.resolve(f), "not a library");
        }
        assertEquals(List.of("libfoo.so (system loader search)", dir.resolve("libfoo.so").toString(),
                dir.resolve("libfoo.so.1").toString(), dir.resolve("libfoo.so.10").toString(),
                dir.resolve("libfoo.so.1.2.3").toString()), plan("foo"));
    }

    @Test
    void sonameIsTriedAsGiven() throws IOException {
        Files.writeString(dir.resolve("libbar.so.2"), "x");
        assertEquals(List.of("libbar.so.2 (system loader search)", dir.resolve("libbar.so.2").toString()), plan("libbar.so.2"));
    }

    @Test
    void pathIsTheOnlyCandidate() {
        assertEquals(List.of("/opt/x/libq.so"), plan("/opt/x/libq.so"));
    }

    @Test
    void pathThatIsNotALibraryIsReportedWithItsReason() throws IOException {
        // an ELF file that is a program, not a shared library: dlopen refuses it
        Path fake = Files.copy(Path.of(System.getProperty("java.home"), "bin", "java"), dir.resolve("libpmxfake.so.1"));
        LibraryNotFoundException e = assertThrows(LibraryNotFoundException.class, () -> NativeLibrary.load(fake.toString()));
        assertTrue(e.tried().getFirst().startsWith(fake + ": "), e.tried().toString());
    }

    @Test
    void textFilesAreRefusedWithoutHandingThemToTheLoader() throws IOException {
        Path script = dir.resolve("libpmxscript.so");
        Files.writeString(script, "/* GNU ld script */ INPUT(libc.so.6)");
        LibraryNotFoundException e = assertThrows(LibraryNotFoundException.class, () -> NativeLibrary.load(script.toString()));
        assertTrue(e.tried().getFirst().contains("not an ELF shared object"), e.tried().toString());
    }

    @Test
    void defaultDirectoriesExistAndIncludeTheSystemLibraryDirectory() {
        List<Path> dirs = LibraryCandidates.defaultSearchDirectories();
        assertFalse(dirs.isEmpty());
        assertTrue(dirs.stream().allMatch(Files::isDirectory));
    }
}
