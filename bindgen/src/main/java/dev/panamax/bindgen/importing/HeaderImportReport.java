package dev.panamax.bindgen.importing;

import java.util.List;

/**
 * What an import did.
 *
 * @param summary  one line: how much was imported, into which file
 * @param reimport whether an existing file was merged
 * @param changes  for a re-import, what the headers changed since the file was written, a line each
 *                 ({@code + added}, {@code - removed}, {@code ~ changed}); empty for a first import
 * @param skipped  the declarations of the headers left out, with where and why, a line each
 * @param problem  for a re-import whose merged file does not validate, the parser's message; else null
 */
public record HeaderImportReport(String summary, boolean reimport, List<String> changes, List<String> skipped, String problem) {
    public HeaderImportReport {
        changes = List.copyOf(changes);
        skipped = List.copyOf(skipped);
    }
}
