package io.kestrel.rpc.transport.internal;

import io.kestrel.rpc.api.internal.WarnWindows;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The provider's WARN lines about calls that went wrong, each under its own logger name so they can
 * be turned up or down separately, and rate-limited: at most one line per key (method and kind of
 * failure) per interval; the next line says how many like it were not logged meanwhile. Thread-safe.
 *
 * <ul>
 *   <li>{@value #ERRORS}: a service method threw (method, exception, consumer address, request id,
 *       and the stack trace);</li>
 *   <li>{@value #REFUSED}: a request refused or not decodable (bad request, unknown service or
 *       method, busy), with the answer the consumer got;</li>
 *   <li>{@value #OVERSIZED}: a request or response over the payload limit;</li>
 *   <li>{@value #LATE}: work that finished, or was dropped, after its caller's deadline.</li>
 * </ul>
 * The interval is {@value #INTERVAL_PROPERTY} (milliseconds, default 10000; 0 logs every occurrence).
 */
public final class ProviderLog {
    public static final String ERRORS = "io.kestrel.rpc.provider.errors";
    public static final String REFUSED = "io.kestrel.rpc.provider.refused";
    public static final String OVERSIZED = "io.kestrel.rpc.provider.oversized";
    public static final String LATE = "io.kestrel.rpc.provider.late";
    /** System property: milliseconds between two lines of the same key. */
    public static final String INTERVAL_PROPERTY = "kestrel.rpc.provider.warnIntervalMillis";
    static final long DEFAULT_INTERVAL_MILLIS = 10_000;
    /** Keys remembered at most (keys may come from the wire); beyond, one shared key rate-limits the rest. */
    static final int MAX_KEYS = 1024;

    private static final Logger errors = LoggerFactory.getLogger(ERRORS);
    private static final Logger refused = LoggerFactory.getLogger(REFUSED);
    private static final Logger oversized = LoggerFactory.getLogger(OVERSIZED);
    private static final Logger late = LoggerFactory.getLogger(LATE);
    private static final long INTERVAL_NANOS = interval() * 1_000_000L;

    private static volatile WarnWindows windows = new WarnWindows(INTERVAL_NANOS, MAX_KEYS);

    private ProviderLog() {
    }

    private static long interval() {
        String value = System.getProperty(INTERVAL_PROPERTY);
        if (value == null || value.isBlank()) {
            return DEFAULT_INTERVAL_MILLIS;
        }
        try {
            long ms = Long.parseLong(value.trim());
            if (ms >= 0) {
                return ms;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        LoggerFactory.getLogger(ProviderLog.class).warn("-D{}={} is not a number of milliseconds >= 0; using {}",
                INTERVAL_PROPERTY, value, DEFAULT_INTERVAL_MILLIS);
        return DEFAULT_INTERVAL_MILLIS;
    }

    /**
     * A service method threw {@code t} for the consumer at {@code remote}; one it {@code declared} is part of its
     * contract (a business outcome) and goes to DEBUG, unlimited.
     */
    public static void serviceError(String method, Throwable t, boolean declared, String remote, long requestId) {
        if (declared) {
            errors.debug("{} threw declared {} for consumer {} (request {})", method, t, remote, requestId);
            return;
        }
        if (errors.isWarnEnabled()) {
            String skipped = admit("error " + method + " " + t.getClass().getName());
            if (skipped != null) {
                errors.warn("{} threw {} for consumer {} (request {}){}", method, t, remote, requestId, skipped, t);
            }
        }
    }

    /** A request from {@code remote} was answered with an error status instead of running. */
    public static void refused(String status, String what, String message, String remote, long requestId) {
        if (refused.isWarnEnabled()) {
            String skipped = admit("refused " + status + " " + what);
            if (skipped != null) {
                refused.warn("Refused request {} from {} with {}: {}{}", requestId, remote, status, message, skipped);
            }
        }
    }

    /** A request or response of {@code what} was over the payload limit. */
    public static void oversized(String what, String message, String remote, long requestId) {
        if (oversized.isWarnEnabled()) {
            String skipped = admit("oversized " + what);
            if (skipped != null) {
                oversized.warn("Request {} from {}: {}{}", requestId, remote, message, skipped);
            }
        }
    }

    /**
     * A call finished (or was dropped) after its caller's deadline: nobody waits for its answer.
     *
     * @param what the rate-limit key within this kind: the method, or where a dropped call came from
     */
    public static void late(String what, String message, String remote, long requestId) {
        if (late.isWarnEnabled()) {
            String skipped = admit("late " + what);
            if (skipped != null) {
                late.warn("Request {} from {}: {}{}", requestId, remote, message, skipped);
            }
        }
    }

    /**
     * Forgets which lines were logged recently, so the next of each kind is logged. For tests, which
     * share one JVM and so one rate limit: a test asserting a line must not depend on what ran before.
     */
    public static void forgetRecentLines() {
        windows = new WarnWindows(INTERVAL_NANOS, MAX_KEYS);
    }

    /** Null when this key logged within the interval (counted as skipped), else the note for the line. */
    private static String admit(String key) {
        return windows.admit(key, System.nanoTime());
    }
}
