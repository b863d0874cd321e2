package dev.panamax.bindgen.decl;

/** An entry of the {@code constants} section: a {@link Long} or a {@link Double} value. */
public record Constant(String name, Number value, Location location) {}
