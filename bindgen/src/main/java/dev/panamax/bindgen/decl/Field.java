package dev.panamax.bindgen.decl;

/** A struct or union field: {@code [f32, x]}. */
public record Field(TypeRef type, String name, Location location) {}
