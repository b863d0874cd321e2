package dev.panamax.core.upcall;

import java.util.concurrent.atomic.LongAdder;

/**
 * Where exceptions caught at an upcall boundary go: counted (per stub and in total) and handed to
 * the stub's handler, or to the current default. Never throws, whatever the handler does.
 */
final class FailureSink {
    private final String name;
    private final UpcallExceptionHandler handler; // null: use Upcalls' default at the time of the failure
    private final LongAdder count = new LongAdder();

    FailureSink(String name, UpcallExceptionHandler handler) {
        this.name = name;
        this.handler = handler;
    }

    void record(Throwable error) {
        try {
            count.increment();
            Upcalls.TOTAL_EXCEPTIONS.increment();
            UpcallExceptionHandler h = handler != null ? handler : Upcalls.defaultExceptionHandler();
            h.onException(name, error);
        } catch (Throwable ignored) {
            // the handler failed too; nothing may leave an upcall, so this is where it ends
        }
    }

    long count() {
        return count.sum();
    }

    String name() {
        return name;
    }
}
