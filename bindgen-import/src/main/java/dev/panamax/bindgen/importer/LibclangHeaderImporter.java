package dev.panamax.bindgen.importer;

import dev.panamax.bindgen.importing.HeaderImportReport;
import dev.panamax.bindgen.importing.HeaderImportRequest;
import dev.panamax.bindgen.importing.HeaderImporter;

/**
 * The {@link HeaderImporter} service on libclang: {@link HeaderImport#run} behind the interface the
 * Maven plugin's {@code import} goal finds with {@link java.util.ServiceLoader}.
 */
public final class LibclangHeaderImporter implements HeaderImporter {
    /** The service loader's constructor. */
    public LibclangHeaderImporter() {}

    @Override
    public HeaderImportReport importHeaders(HeaderImportRequest request) {
        ImportOptions options = new ImportOptions(request.headers(), request.library(), request.includes(), request.defines(),
                request.filter(), request.javaPackage());
        HeaderImport.Result r;
        try {
            r = HeaderImport.run(options, request.declarations());
        } catch (ImportException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        return new HeaderImportReport(r.summary(), r.reimport(), r.changes().lines(),
                r.skipped().stream().map(Skipped::toString).toList(), r.problem());
    }
}
