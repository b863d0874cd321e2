/**
 * Panamax bindgen import: reads C headers with libclang (bound by bindgen from {@code libclang.yaml})
 * and writes declarations files, keeping what a person added on re-import.
 */
module dev.panamax.bindgen.importer {
    requires transitive dev.panamax.bindgen;
    requires org.snakeyaml.engine.v2;

    exports dev.panamax.bindgen.importer;

    provides dev.panamax.bindgen.importing.HeaderImporter with dev.panamax.bindgen.importer.LibclangHeaderImporter;
}
