package dev.panamax.core.internal;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.*;

class BundledLibraryTest {
    @Test
    void extractsIntoContentAddressedDirectoryOnce(@TempDir Path cache) throws Exception {
        Path first = BundledLibrary.extract(getClass().getClassLoader(), "libpanamax.so", cache);
        Path second = BundledLibrary.extract(getClass().getClassLoader(), "libpanamax.so", cache);
        assertEquals(first, second);
        byte[] bytes = Files.readAllBytes(first);
        assertEquals(BundledLibrary.quickKey(bytes), first.getParent().getFileName().toString());
        try (var files = Files.list(first.getParent())) {
            assertEquals(1, files.count(), "no temp files left behind");
        }
    }

    @Test
    void concurrentExtractionsAgreeAndLeaveOneFile(@TempDir Path cache) throws Exception {
        byte[] bytes = new byte[1 << 20];
        new java.util.Random(7).nextBytes(bytes);
        int threads = 8;
        CyclicBarrier start = new CyclicBarrier(threads);
        List<Future<Path>> results = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(threads)) {
            for (int i = 0; i < threads; i++) {
                results.add(pool.submit(() -> {
                    start.await();
                    return BundledLibrary.install(bytes, "libx.so", cache);
                }));
            }
        }
        Path p = results.getFirst().get();
        for (Future<Path> f : results) assertEquals(p, f.get());
        assertArrayEquals(bytes, Files.readAllBytes(p));
        try (var files = Files.list(p.getParent())) {
            assertEquals(1, files.count());
        }
    }

    @Test
    void anotherFileUnderTheSameKeyIsLeftAloneAndTheLibraryGoesUnderItsSha256(@TempDir Path cache) throws Exception {
        byte[] bytes = "library".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        byte[] other = "LIBRARY".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        Path squatter = cache.resolve(BundledLibrary.quickKey(bytes)).resolve("libx.so");
        Files.createDirectories(squatter.getParent());
        Files.write(squatter, other);

        Path p = BundledLibrary.install(bytes, "libx.so", cache);

        assertEquals(cache.resolve(BundledLibrary.sha256(bytes)).resolve("libx.so"), p);
        assertArrayEquals(bytes, Files.readAllBytes(p));
        assertArrayEquals(other, Files.readAllBytes(squatter), "the file already there is not rewritten");
        assertEquals(p, BundledLibrary.install(bytes, "libx.so", cache));
    }

    @Test
    void missingResourceNamesWhatWasExpected(@TempDir Path cache) {
        var e = assertThrows(IllegalStateException.class,
                () -> BundledLibrary.extract(getClass().getClassLoader(), "libnothere.so", cache));
        assertTrue(e.getMessage().contains("native/" + BundledLibrary.platform() + "/libnothere.so"), e.getMessage());
    }
}
