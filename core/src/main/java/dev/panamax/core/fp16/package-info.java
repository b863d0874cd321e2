/**
 * IEEE binary16 (fp16) conversion: scalar through the JDK intrinsics, bulk through
 * {@link dev.panamax.core.fp16.Fp16Converter}, which picks between the vectorized JDK loop and the
 * libpanamax F16C kernel (streaming stores, optional threads) by measurement, and
 * {@link dev.panamax.core.fp16.Fp16Reference}, the exact bit-manipulation oracle.
 */
package dev.panamax.core.fp16;
