package dev.panamax.core;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The kernel set OpenBLAS runs on this CPU, chosen before OpenBLAS loads. A DYNAMIC_ARCH OpenBLAS
 * (Debian's, for one) picks its kernels from the CPU's family and model, and a release older than the
 * CPU does not know it: Debian 12's OpenBLAS 0.3.21 runs its Prescott (SSE3) kernels on a Sapphire
 * Rapids Xeon, four times slower in SGEMM than the AVX-512 kernels the CPU can run, and says nothing.
 * On Intel CPUs every AVX-512 model runs OpenBLAS's SkylakeX kernels and every other AVX2 model its
 * Haswell kernels, whatever newer name a later OpenBLAS gives them, so Panamax sets
 * {@code OPENBLAS_CORETYPE} to that (unless the user set it: their value wins). Other vendors are left
 * to OpenBLAS's own choice (it names AMD's Zen cores itself). {@code panamax info} shows the core
 * OpenBLAS took.
 *
 * <pre>{@code
 * OpenBlasCoreType.chooseBeforeLoading();   // Optional[SkylakeX] on a Sapphire Rapids Xeon; then load OpenBLAS
 * }</pre>
 */
public final class OpenBlasCoreType {
    /** The environment variable OpenBLAS reads its kernel set from when it loads. */
    public static final String VARIABLE = "OPENBLAS_CORETYPE";

    private static Optional<String> chosen;

    private OpenBlasCoreType() {}

    /**
     * Sets {@value #VARIABLE} for this CPU unless it is set already; returns the core type Panamax set,
     * or empty when it set none (the user's value, a CPU OpenBLAS names itself, or no /proc/cpuinfo).
     * Call it before the first library that links OpenBLAS loads; later calls return the first answer.
     */
    public static synchronized Optional<String> chooseBeforeLoading() {
        if (chosen != null) return chosen;
        Optional<String> choice = Optional.empty();
        if (System.getenv(VARIABLE) == null) {
            choice = readCpuInfo(Path.of("/proc/cpuinfo")).flatMap(cpu -> forCpu(cpu.vendor(), cpu.flags()));
            choice.ifPresent(core -> NativeEnvironment.setIfUnset(VARIABLE, core));
        }
        chosen = choice;
        return choice;
    }

    /** The core type for a CPU of {@code vendor} (as {@code vendor_id}) with these {@code /proc/cpuinfo} flags. */
    static Optional<String> forCpu(String vendor, Set<String> flags) {
        if (!"GenuineIntel".equals(vendor)) return Optional.empty();
        if (flags.containsAll(Set.of("avx512f", "avx512bw", "avx512vl", "avx512dq", "avx512cd"))) return Optional.of("SkylakeX");
        if (flags.containsAll(Set.of("avx2", "fma"))) return Optional.of("Haswell");
        return Optional.empty();
    }

    /** The vendor and flags of the first processor in a {@code /proc/cpuinfo} text. */
    record CpuInfo(String vendor, Set<String> flags) {
        static Optional<CpuInfo> parse(Stream<String> lines) {
            String vendor = null;
            Set<String> flags = null;
            for (String line : (Iterable<String>) lines::iterator) {
                int colon = line.indexOf(':');
                if (colon < 0) continue;
                String key = line.substring(0, colon).strip();
                String value = line.substring(colon + 1).strip();
                if (key.equals("vendor_id") && vendor == null) vendor = value;
                if (key.equals("flags") && flags == null) flags = Arrays.stream(value.split("\\s+")).collect(Collectors.toUnmodifiableSet());
                if (vendor != null && flags != null) return Optional.of(new CpuInfo(vendor, flags));
            }
            return Optional.empty();
        }
    }

    private static Optional<CpuInfo> readCpuInfo(Path file) {
        try (Stream<String> lines = Files.lines(file)) {
            return CpuInfo.parse(lines);
        } catch (IOException | RuntimeException unreadable) {
            return Optional.empty(); // not Linux, or no procfs: OpenBLAS chooses alone
        }
    }
}
