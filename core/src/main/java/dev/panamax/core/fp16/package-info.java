/**
 * IEEE binary16 (fp16) conversion: scalar through the JDK intrinsics, bulk through
 * {@link dev.panamax.core.fp16.Fp16Converter}, which picks between the vectorized JDK loop and the
 * libpanamax F16C kernel (streaming stores, optional threads) by measurement, and
 * {@link dev.panamax.core.fp16.Fp16Reference}, the exact bit-manipulation oracle.
 *
 * <h2>Scalar and bulk</h2>
 * {@code Fp16.toHalf(float)} / {@code toFloat(short)} are the JDK's {@code Float.floatToFloat16} /
 * {@code float16ToFloat}, which HotSpot compiles to F16C (in every tier, so results never depend on
 * warm-up). The bulk methods take {@code float[]} or a {@code MemorySegment} on one side and
 * {@code short[]} or a segment on the other (arrays by element index, segments by byte offset, native
 * order, no alignment needed), check bounds, count, read-only destination and overlap first, and run
 * on one of these paths:
 *
 * <table class="striped">
 *   <caption>Bulk conversion paths (64 MiB figures: docs/BENCHMARKS.md)</caption>
 *   <thead><tr><th scope="col">path</th><th scope="col">what</th><th scope="col">where it wins</th></tr></thead>
 *   <tbody>
 *     <tr><th scope="row">JDK loop</th>
 *         <td>the JDK conversion in a plain loop; C2 vectorizes it over arrays, not over segments</td>
 *         <td>arrays below 2 MiB: equal to F16C on float&rarr;half, ahead on half&rarr;float (62 vs 54 GB/s
 *             at 1 MiB)</td></tr>
 *     <tr><th scope="row">native</th>
 *         <td>{@code pmx_fp16_from_f32} / {@code pmx_fp16_to_f32} in {@code fp16.c}: F16C (AVX2 width, 4x
 *             unrolled) when {@code __builtin_cpu_supports} says so, portable bit-twiddling C otherwise</td>
 *         <td>segments from 32 elements (the JDK segment loop is scalar, 4-9 GB/s); arrays from 2 MiB
 *             (half&rarr;float 40 vs 31 GB/s at 4 MiB)</td></tr>
 *     <tr><th scope="row">native, streaming stores</th>
 *         <td>the same kernel with {@code movntdq}/{@code movntps}: destination lines are written without
 *             being read first and without passing through the caches</td>
 *         <td>from 16 MiB (at 4 MiB it loses, 26 vs 40 GB/s; at 16 MiB it wins, 34 vs 26); at 64 MiB the
 *             one-thread path that clearly beats {@code MemorySegment.copy} (19.6 / 21.0 vs 12.5 GB/s)</td></tr>
 *     <tr><th scope="row">native, N threads</th>
 *         <td>the range cut in N parts (multiples of 64 elements), parts 1.. on pthreads inside the same
 *             call</td>
 *         <td>from 32 MiB, 2 threads by default (1 on a single-CPU machine;
 *             {@code -Dpanamax.fp16.threads=N} sets it)</td></tr>
 *   </tbody>
 * </table>
 *
 * <p>{@code Fp16Converter.auto()} (what {@code Fp16} uses) picks by operand kind and size as in the
 * last column; {@code Fp16Converter.of(Fp16Strategy, threads)} forces a path.
 *
 * <p><b>Why streaming stores.</b> Converting 64 MiB of floats to halves reads 64 MiB and writes 32 MiB,
 * but with ordinary stores each destination line is first read (read-for-ownership), so the memory
 * sees 128 MiB; streaming stores bring that to 96 MiB, less than the 128 MiB (or more) of a copy
 * (half&rarr;float: 160 &rarr; 96 MiB).
 *
 * <p><b>Why two threads.</b> One core cannot keep enough cache misses in flight to saturate memory.
 * Over four JMH runs at 64 MiB, two streaming threads beat one in 7 of 8 comparisons, by 1.1-1.6x
 * (float&rarr;half 26.7 vs 19.6 GB/s, half&rarr;float 24.5 vs 21.0 in the run recorded in
 * docs/BENCHMARKS.md), and lost once (0.8x) under load. They need a free core: in interleaved A/B runs
 * while other benchmarks held both cores, they only tied on segments and lost on arrays (12 vs 15 GB/s),
 * which is why they start at 32 MiB only and can be turned off with {@code -Dpanamax.fp16.threads=1}.
 *
 * <h2>Calls</h2>
 * Native calls are CRITICAL (no thread-state transition, heap arrays passed in place). A critical call
 * holds off safepoints, so heap operands are converted in calls of at most 2 Mi elements per thread
 * (about 0.4 ms); native-only conversions from 1 Mi elements use a standard downcall instead, so the GC
 * is never kept waiting on a long conversion. Threads live inside the native call, so a confined
 * segment is converted by two threads without ever being touched from another Java thread.
 *
 * <h2>Exactness</h2>
 * One semantics on every path, that of F16C (and of HotSpot's intrinsics on x86-64): round to nearest
 * even, signed zeros, infinities and subnormals kept, a NaN stays a NaN of the same sign with its
 * payload truncated and its quiet bit set (so a signalling-NaN half comes back quiet after a round
 * trip, as with the JDK). {@code Fp16Reference} states it in integer arithmetic and is the oracle:
 * tests check all 65,536 halves and 10 million floats (every tie between neighbouring halves and its
 * neighbours, every special value, random bit patterns) bit for bit against it and against the JDK on
 * every path and operand kind, plus unaligned offsets and odd lengths, and the portable C path (forced
 * with a flag) as well.
 */
package dev.panamax.core.fp16;
