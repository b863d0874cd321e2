package dev.panamax.cli.demo;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;

/**
 * A UTF-8 text as the transformer demo trains on it: its characters (Unicode code points) as token
 * ids into a sorted vocabulary, split into the first 90% (training) and the last 10% (validation).
 *
 * <pre>{@code
 * TextCorpus text = TextCorpus.load(Path.of("book.txt"), 128);
 * int[] ids = text.train();          // token ids
 * String s = text.decode(ids);       // back to text
 * }</pre>
 *
 * @param description what the text is, for the first line of output
 * @param vocabulary  the distinct code points, ascending: token id i stands for vocabulary[i]
 * @param ids         the whole text as token ids
 */
record TextCorpus(String description, int[] vocabulary, int[] ids) {
    /** The bundled text: the first 300 KB of tinyshakespeare (public domain; see NOTICE next to it). */
    static final String BUNDLED = "tinyshakespeare.txt";
    /** The share of the text, at its end, held out for validation. */
    static final double VALIDATION_FRACTION = 0.1;

    /** The bundled Shakespeare. */
    static TextCorpus bundled() {
        try (InputStream in = TextCorpus.class.getResourceAsStream(BUNDLED)) {
            if (in == null) throw new IllegalStateException("the bundled text " + BUNDLED + " is missing from the class path");
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            return of("Shakespeare (tinyshakespeare, first " + text.length() / 1000 + " KB, public domain)", text);
        } catch (IOException e) {
            throw new UncheckedIOException("reading the bundled text " + BUNDLED, e);
        }
    }

    /**
     * Reads {@code file} as UTF-8 text; refuses, naming the file, one that cannot be read, is empty,
     * is binary (a NUL byte, or bytes that are not UTF-8), or is too short for a context window of
     * {@code context} characters in its training part and one in its validation part.
     */
    static TextCorpus load(Path file, int context) throws DataFileException {
        byte[] bytes;
        try {
            if (Files.isDirectory(file)) throw new DataFileException(file, "is a directory; expected a UTF-8 text file");
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new DataFileException(file, "no such file; expected a UTF-8 text file");
        } catch (IOException e) {
            throw new DataFileException(file, "cannot be read (" + e.getMessage() + "); expected a UTF-8 text file");
        }
        if (bytes.length == 0) throw new DataFileException(file, "is empty; expected a UTF-8 text file to train on");
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] == 0) {
                throw new DataFileException(file, "has a NUL byte at offset " + i + ", so it is binary; expected a UTF-8 text file");
            }
        }
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new DataFileException(file, "is not valid UTF-8 (" + e.getMessage() + "), so it is binary or in another encoding;"
                    + " expected a UTF-8 text file");
        }
        TextCorpus corpus = of(file.getFileName() + String.format(Locale.ROOT, " (%,d characters)", text.codePointCount(0, text.length())), text);
        int needed = minimumLength(context);
        if (corpus.ids.length < needed) {
            throw new DataFileException(file, "has " + corpus.ids.length + " characters, too few for one context window of " + context
                    + " characters to train on and one to validate on; expected at least " + needed + " characters (or a smaller --context)");
        }
        return corpus;
    }

    /** The fewest characters a text needs: {@code context + 1} in its validation part, the last 10%. */
    static int minimumLength(int context) {
        return (context + 1) * 10;
    }

    static TextCorpus of(String description, String text) {
        int[] points = text.codePoints().toArray();
        int[] vocabulary = Arrays.stream(points).distinct().sorted().toArray();
        int[] ids = new int[points.length];
        for (int i = 0; i < points.length; i++) ids[i] = Arrays.binarySearch(vocabulary, points[i]);
        return new TextCorpus(description, vocabulary, ids);
    }

    /**
     * The same text in {@code vocabulary}'s ids (a checkpoint's); null when a character of the text
     * is missing from it, {@link #missingFrom} names them.
     */
    TextCorpus in(int[] otherVocabulary) {
        int[] mapped = new int[ids.length];
        for (int i = 0; i < ids.length; i++) {
            mapped[i] = Arrays.binarySearch(otherVocabulary, vocabulary[ids[i]]);
            if (mapped[i] < 0) return null;
        }
        return new TextCorpus(description, otherVocabulary, mapped);
    }

    /** The characters of this text that {@code otherVocabulary} lacks, quoted, at most 10. */
    String missingFrom(int[] otherVocabulary) {
        StringBuilder b = new StringBuilder();
        int shown = 0;
        for (int c : vocabulary) {
            if (Arrays.binarySearch(otherVocabulary, c) < 0 && shown++ < 10) b.append(shown > 1 ? ", " : "").append(quote(c));
        }
        return b.toString();
    }

    int vocabSize() {
        return vocabulary.length;
    }

    /** Where the validation part begins. */
    int split() {
        return (int) Math.round(ids.length * (1 - VALIDATION_FRACTION));
    }

    int[] train() {
        return Arrays.copyOfRange(ids, 0, split());
    }

    int[] validation() {
        return Arrays.copyOfRange(ids, split(), ids.length);
    }

    String decode(int[] tokens) {
        StringBuilder b = new StringBuilder();
        for (int t : tokens) b.appendCodePoint(vocabulary[t]);
        return b.toString();
    }

    /** The id of a newline (the prompt generation starts from), or of the text's first character. */
    int startToken() {
        int newline = Arrays.binarySearch(vocabulary, '\n');
        return newline >= 0 ? newline : ids[0];
    }

    static String quote(int codePoint) {
        return codePoint < 32 || codePoint == 127 ? String.format(Locale.ROOT, "U+%04X", codePoint) : "'" + Character.toString(codePoint) + "'";
    }
}
