/** The {@code panamax} command. */
module dev.panamax.cli {
    requires dev.panamax.core;
    requires dev.panamax.compute;
    requires dev.panamax.bindgen;
    requires dev.panamax.bindgen.importer;
    requires dev.panamax.tensor;
    requires dev.panamax.tensor.opencl;
    requires dev.panamax.clblast;
    requires info.picocli;
    requires me.tongfei.progressbar;
    requires org.jfree.jfreechart;
    requires com.fasterxml.jackson.jr.ob;
    requires java.desktop;

    uses dev.panamax.tensor.spi.BackendProvider;
    uses dev.panamax.compute.spi.ComputeBackend;

    opens dev.panamax.cli to info.picocli;
    opens dev.panamax.cli.demo to info.picocli;
}
