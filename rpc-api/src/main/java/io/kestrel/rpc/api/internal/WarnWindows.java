package io.kestrel.rpc.api.internal;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Rate limit for log lines: at most one line per key per interval, counting the lines skipped in
 * between so the next one can say how many. Keys may come from the wire, so at most
 * {@code maxKeys} are remembered; further keys share one window. Thread-safe. Used by the provider's call log
 * and the registry's ZooKeeper errors; not part of the public API.
 */
public final class WarnWindows {
    public static final String OTHER_KEYS = "(other keys)";

    private final long intervalNanos;
    private final int maxKeys;
    private final Map<String, Window> windows = new ConcurrentHashMap<>();

    /** When the last line of a key was logged, and how many were skipped since. */
    private static final class Window {
        long loggedAt;
        boolean logged;
        final AtomicLong skipped = new AtomicLong();
    }

    public WarnWindows(long intervalNanos, int maxKeys) {
        this.intervalNanos = intervalNanos;
        this.maxKeys = maxKeys;
    }

    /**
     * Whether a line for {@code key} may be logged at {@code nowNanos}: null if not (it is counted as
     * skipped), else the note to end the line with ("" or "; N more like it in the last S s not logged").
     */
    public String admit(String key, long nowNanos) {
        Window w = windows.get(key);
        if (w == null) {
            w = windows.computeIfAbsent(windows.size() >= maxKeys ? OTHER_KEYS : key, k -> new Window());
        }
        long since;
        synchronized (w) {
            if (w.logged && nowNanos - w.loggedAt < intervalNanos) {
                w.skipped.incrementAndGet();
                return null;
            }
            since = w.logged ? nowNanos - w.loggedAt : 0;
            w.loggedAt = nowNanos;
            w.logged = true;
        }
        long skipped = w.skipped.getAndSet(0);
        return skipped == 0 ? "" : "; " + skipped + " more like it in the last " + Math.max(1, since / 1_000_000_000L)
                + " s not logged";
    }

    /** Keys remembered, for tests. */
    int size() {
        return windows.size();
    }
}
