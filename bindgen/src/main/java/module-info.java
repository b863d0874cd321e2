/**
 * Panamax bindgen: declarations files (YAML) parsed into a model mapped onto the core's C type
 * model; the Java bindings and the MetaABI thunks (C glue) generated from them.
 */
module dev.panamax.bindgen {
    requires transitive dev.panamax.core;
    requires org.snakeyaml.engine.v2;

    exports dev.panamax.bindgen.decl;
    exports dev.panamax.bindgen.gen;
    exports dev.panamax.bindgen.check;
    exports dev.panamax.bindgen.glue;
    exports dev.panamax.bindgen.importing;
}
