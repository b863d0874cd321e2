package dev.panamax.core;

import java.util.List;

/**
 * A module's settings, found through {@link java.util.ServiceLoader}: each module that reads
 * {@code panamax.*} properties declares them as {@link Setting} constants of one class implementing
 * this, registered in {@code META-INF/services} (and {@code provides} in its module descriptor).
 */
public interface SettingDeclarations {
    /** This module's settings. */
    List<Setting<?>> settings();
}
