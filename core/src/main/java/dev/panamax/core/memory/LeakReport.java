package dev.panamax.core.memory;

import java.util.List;
import java.util.Locale;

/**
 * A handle released by the GC instead of by code: what it was, where it was allocated and the last
 * places that touched it.
 *
 * @param type       the handle type ({@code NativeBuffer}, ...)
 * @param id         the handle's id (monotonic: later handles have larger ids)
 * @param address    the native address it held
 * @param byteSize   native bytes it held (0 when unknown)
 * @param allocation the allocation stack, innermost frame first, Panamax's own frames left out
 * @param touches    the last {@code touch(hint)} records, oldest first
 */
public record LeakReport(String type, long id, long address, long byteSize,
                         List<StackTraceElement> allocation, List<Touch> touches) {
    /** One {@link NativeHandle#touch(Object)} record. */
    public record Touch(String hint, String thread, List<StackTraceElement> site) {}

    public LeakReport {
        allocation = List.copyOf(allocation);
        touches = List.copyOf(touches);
    }

    /** The first allocation frame outside Panamax's memory code, or {@code unknown}. */
    public String allocationSite() {
        return allocation.isEmpty() ? "unknown" : allocation.getFirst().toString();
    }

    /** Reports with equal keys come from the same allocation stack and are reported once. */
    public String dedupKey() {
        return type + "@" + allocation;
    }

    /** A multi-line description: the key=value headline, then the allocation stack and the touches. */
    public String describe() {
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT,
                "LEAK: native handle released by the GC, not by code: type=%s id=%d address=0x%x bytes=%d site=%s"
                        + " (close() it, release() it, or hand it to a NativeScope)",
                type, id, address, byteSize, allocationSite()));
        b.append("\n  allocated at:");
        for (StackTraceElement e : allocation) b.append("\n    ").append(e);
        for (int i = 0; i < touches.size(); i++) {
            Touch t = touches.get(i);
            b.append("\n  touch #").append(i + 1).append(" hint=").append(t.hint()).append(" thread=").append(t.thread()).append(':');
            for (StackTraceElement e : t.site()) b.append("\n    ").append(e);
        }
        return b.toString();
    }
}
