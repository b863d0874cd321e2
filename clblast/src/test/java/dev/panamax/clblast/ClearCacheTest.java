package dev.panamax.clblast;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;

/** CLBlastClearCache succeeds with or without compiled kernels in the cache. */
class ClearCacheTest {
    @Test
    void clearsTheCacheTwice() {
        assertDoesNotThrow(ClBlast::clearCache);
        assertDoesNotThrow(ClBlast::clearCache);
    }
}
