package io.kestrel.rpc.core.internal.consumer;

import io.kestrel.rpc.api.ServiceKey;
import io.kestrel.rpc.api.config.ResilienceConfig;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The retry budget of one reference (see {@link ResilienceConfig}): over the last {@value #WINDOW_SECONDS}
 * seconds, retries may number at most a share of the calls plus a minimum per second, so failover never
 * multiplies the load on providers that are already failing. Counts are kept per second in a ring of
 * {@value #WINDOW_SECONDS} slots; a slot is cleared when its second comes round again. Concurrent updates
 * may lose a count at a second's turn, which only moves the limit by one. Thread-safe, lock-free.
 */
final class RetryBudget {
    static final int WINDOW_SECONDS = 10;
    private static final Logger log = LoggerFactory.getLogger(RetryBudget.class);

    private final ServiceKey service;
    private final int percent;
    private final int minPerSecond;
    private final LongSupplier nanoClock;
    private final AtomicLongArray seconds = new AtomicLongArray(WINDOW_SECONDS);
    /** Added to on every call: adders, so threads calling at once do not contend on one counter. */
    private final LongAdder[] calls = new LongAdder[WINDOW_SECONDS];
    private final AtomicLongArray retries = new AtomicLongArray(WINDOW_SECONDS);
    /** The clock's reading at the last "budget spent" warning (one per window). */
    private volatile long warnedAt;

    RetryBudget(ServiceKey service, ResilienceConfig config) {
        this(service, config, System::nanoTime);
    }

    /** @param nanoClock the clock, {@link System#nanoTime()}'s in use */
    RetryBudget(ServiceKey service, ResilienceConfig config, LongSupplier nanoClock) {
        this.service = service;
        this.warnedAt = nanoClock.getAsLong() - (1L << 50);
        this.percent = config.retryBudgetPercent();
        this.minPerSecond = config.retryBudgetMinPerSecond();
        this.nanoClock = nanoClock;
        long now = second();
        for (int i = 0; i < WINDOW_SECONDS; i++) {
            seconds.set(i, now - WINDOW_SECONDS); // every slot outside the window
            calls[i] = new LongAdder();
        }
    }

    /** A call's first attempt. */
    void call() {
        calls[slot(second())].increment();
    }

    /** Takes a retry from the budget; false when the window has none left (the caller then does not retry). */
    boolean tryRetry() {
        long now = second();
        long callsInWindow = 0;
        long retriesInWindow = 0;
        for (int i = 0; i < WINDOW_SECONDS; i++) {
            long s = seconds.get(i);
            if (now - s < WINDOW_SECONDS) {
                callsInWindow += calls[i].sum();
                retriesInWindow += retries.get(i);
            }
        }
        if (retriesInWindow >= allowed(callsInWindow)) {
            return false;
        }
        retries.incrementAndGet(slot(now));
        return true;
    }

    /** Retries allowed in a window with {@code callsInWindow} calls. */
    long allowed(long callsInWindow) {
        return callsInWindow * percent / 100 + (long) minPerSecond * WINDOW_SECONDS;
    }

    /** A retry of {@code call} that {@link #tryRetry} refused: one WARN per window, the rest at debug. */
    void refused(String call, Throwable cause) {
        long now = nanoClock.getAsLong();
        if (now - warnedAt >= WINDOW_SECONDS * 1_000_000_000L) {
            warnedAt = now;
            log.warn("Retry budget of {} spent ({}); {} and later failures are not retried until the window moves on"
                    + " (retry-budget-percent, retry-budget-min-per-second): {}", service, describe(), call,
                    cause.toString());
        } else {
            log.debug("Retry budget of {} spent; not retrying {}: {}", service, call, cause.toString());
        }
    }

    /** For messages: the rule. */
    String describe() {
        return percent + "% of calls + " + minPerSecond + "/s over " + WINDOW_SECONDS + " s";
    }

    private long second() {
        return Math.floorDiv(nanoClock.getAsLong(), 1_000_000_000L);
    }

    /** The slot of {@code second}, cleared first if it still holds an older second. */
    private int slot(long second) {
        int i = (int) Math.floorMod(second, (long) WINDOW_SECONDS);
        long held = seconds.get(i);
        if (held != second && seconds.compareAndSet(i, held, second)) {
            calls[i].reset();
            retries.set(i, 0);
        }
        return i;
    }
}
