/** The {@code panamax} command. */
module dev.panamax.cli {
    requires dev.panamax.core;
    requires dev.panamax.compute;
    requires dev.panamax.bindgen;
    requires dev.panamax.bindgen.importer;
    requires info.picocli;

    opens dev.panamax.cli to info.picocli;
}
