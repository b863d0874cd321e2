package dev.panamax.core.memory;

/**
 * Which threads may use a handle's segment, as with {@link java.lang.foreign.Arena#ofShared()} and
 * {@link java.lang.foreign.Arena#ofConfined()}. Either way the segment stops working the moment the
 * handle is released: it is scoped to an arena the release closes.
 */
public enum SegmentAccess {
    /**
     * Any thread may use the segment and release the handle. Releasing a handle whose segment was
     * handed out closes a shared arena, which costs a thread handshake (tens of microseconds).
     */
    SHARED,
    /**
     * Only the creating thread may use the segment, retain, release or close the handle (others get
     * {@link WrongThreadException}); releasing costs next to nothing. The GC may still release it.
     */
    CONFINED
}
