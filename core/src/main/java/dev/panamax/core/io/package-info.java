/** File output shared by every Panamax layer: {@link dev.panamax.core.io.AtomicFile}. */
package dev.panamax.core.io;
