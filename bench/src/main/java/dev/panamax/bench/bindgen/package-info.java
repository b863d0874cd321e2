/**
 * The {@code bindgen} suite: what importing and checking headers costs, and what binding a large C API
 * costs (import, generation, javac, jar size) and how fast a generated binding of thousands of functions
 * starts.
 */
package dev.panamax.bench.bindgen;
