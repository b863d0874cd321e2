/**
 * The service through which C headers are imported into a declarations file ({@link
 * dev.panamax.bindgen.importing.HeaderImporter}), found with {@link java.util.ServiceLoader}.
 *
 * <p>The Maven plugin's {@code import} goal reaches the importer through this service
 * ({@code LibclangHeaderImporter} in panamax-bindgen-import, found on the plugin's class path), not
 * through a dependency: bindgen-import's own build runs the plugin, so the plugin depending on it would
 * be a cycle. A project adds panamax-bindgen-import to the plugin's {@code <dependencies>} (as
 * {@code examples/sqlite/pom.xml} does).
 */
package dev.panamax.bindgen.importing;
