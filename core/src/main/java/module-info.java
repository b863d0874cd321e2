/**
 * Panamax core runtime: library loading, call tiers, upcalls, owned native memory, the MetaABI
 * and batched crossings. Only API packages are exported; {@code dev.panamax.core.internal} is not.
 */
module dev.panamax.core {
    requires java.logging;

    exports dev.panamax.core;
    exports dev.panamax.core.memory;
    exports dev.panamax.core.call;
    exports dev.panamax.core.binding;
    exports dev.panamax.core.upcall;
    exports dev.panamax.core.abi;
    exports dev.panamax.core.batch;
    exports dev.panamax.core.fp16;
    exports dev.panamax.core.region;
    exports dev.panamax.core.io;

    uses dev.panamax.core.SettingDeclarations;
    provides dev.panamax.core.SettingDeclarations with dev.panamax.core.CoreSettings;
}
