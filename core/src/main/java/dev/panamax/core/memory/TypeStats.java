package dev.panamax.core.memory;

/**
 * Counters for one handle type.
 *
 * @param liveHandles    handles of this type not yet released
 * @param liveBytes      native bytes they hold (reserved)
 * @param releasedByCode released by close, the last release, or a scope
 * @param releasedByGc   released by the GC because code forgot them (leaks)
 */
public record TypeStats(long liveHandles, long liveBytes, long releasedByCode, long releasedByGc) {}
