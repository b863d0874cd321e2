/**
 * The service through which C headers are imported into a declarations file ({@link
 * dev.panamax.bindgen.importing.HeaderImporter}), found with {@link java.util.ServiceLoader}.
 */
package dev.panamax.bindgen.importing;
