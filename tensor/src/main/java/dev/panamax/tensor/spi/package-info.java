/**
 * The backend SPI: a {@link dev.panamax.tensor.spi.Backend} allocates {@link dev.panamax.tensor.spi.Storage}
 * (owned native memory through core's handles) and runs {@link dev.panamax.tensor.spi.Kernel}s, a
 * closed set of primitive operations over strided {@link dev.panamax.tensor.spi.Operand}s
 * (elementwise, reduce, matmul, fill, index select/add), now or recorded and run at the next
 * {@code sync()}. Everything the public API offers (softmax, layer norm, cross-entropy, autograd,
 * views) is built from these kernels in Java, so a backend implements only this set.
 */
package dev.panamax.tensor.spi;
