package dev.panamax.bindgen.maven;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * Everything a compiled glue library depends on, as one digest: the compiler, its flags, the link
 * options and the bytes of the generated header and source. The library is rebuilt when the digest
 * recorded at its last build (in a stamp file beside the generated C, not in the jar) differs, so a
 * changed {@code <cflags>} or {@code <linkWith>} rebuilds it as a changed declaration does; file times
 * play no part.
 */
record GlueFingerprint(String digest) {
    static GlueFingerprint of(String compiler, List<String> cflags, List<String> linkOptions, String header, String source) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            for (String part : List.of(compiler, String.join("\u0001", cflags), String.join("\u0001", linkOptions), header, source)) {
                sha.update(part.getBytes(StandardCharsets.UTF_8));
                sha.update((byte) 0);
            }
            return new GlueFingerprint(HexFormat.of().formatHex(sha.digest()));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JDK has no SHA-256", e);
        }
    }

    /** True when {@code library} exists and {@code stamp} says it was built from exactly these inputs. */
    boolean builtInto(Path library, Path stamp) throws IOException {
        return Files.isRegularFile(library) && Files.isRegularFile(stamp) && Files.readString(stamp).strip().equals(digest);
    }

    /** Records in {@code stamp} that the library was built from these inputs. */
    void record(Path stamp) throws IOException {
        Files.writeString(stamp, digest + "\n");
    }
}
