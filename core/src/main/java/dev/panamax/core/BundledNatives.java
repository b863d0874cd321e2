package dev.panamax.core;

import dev.panamax.core.internal.BundledLibrary;

import java.nio.file.Path;

/**
 * Shared libraries that modules ship inside their jars, as libpanamax does: a resource
 * {@code native/<platform>/<file>} extracted once to a content-addressed cache. Generated bindings
 * find their compiled C glue (the MetaABI thunks) this way.
 *
 * <pre>{@code
 * NativeLibrary glue = NativeLibrary.load(BundledNatives.extract(CLThunks.class, "libpanamax_glue_opencl.so"));
 * }</pre>
 */
public final class BundledNatives {
    private BundledNatives() {}

    /**
     * Extracts {@code native/<platform>/<fileName>}, found through {@code anchor}'s class loader,
     * and returns where it is on disk.
     *
     * @throws IllegalStateException when the jar (or build output) does not contain it
     */
    public static Path extract(Class<?> anchor, String fileName) {
        ClassLoader loader = anchor.getClassLoader() != null ? anchor.getClassLoader() : ClassLoader.getSystemClassLoader();
        return BundledLibrary.extract(loader, fileName, BundledLibrary.defaultCacheDir());
    }

    /** The folder under {@code native/} that holds this platform's libraries: {@code linux-x86_64}. */
    public static String platform() {
        return BundledLibrary.platform();
    }
}
