package io.kestrel.rpc.api.stream;

import io.kestrel.rpc.api.internal.SystemProperties;

/**
 * JVM-wide stream settings, read once (see {@code docs/streaming.md}):
 * <ul>
 *   <li>{@value #WINDOW_PROPERTY} (default {@value #DEFAULT_WINDOW}): messages a receiver lets a sender have in
 *       flight on one stream (its credit window); the sender waits beyond it, so a slow receiver slows the sender
 *       and neither side buffers more than this many messages of one stream.</li>
 *   <li>{@value #MAX_PER_CONNECTION_PROPERTY} (default {@value #DEFAULT_MAX_PER_CONNECTION}): streams open at
 *       once on one provider connection; more are answered "server busy" (they did not start).</li>
 * </ul>
 */
public final class StreamLimits {
    public static final String WINDOW_PROPERTY = "kestrel.rpc.stream.window";
    public static final String MAX_PER_CONNECTION_PROPERTY = "kestrel.rpc.stream.maxPerConnection";
    public static final int DEFAULT_WINDOW = 64;
    public static final int DEFAULT_MAX_PER_CONNECTION = 256;

    private static final int WINDOW = bounded(WINDOW_PROPERTY, DEFAULT_WINDOW, 1 << 20);
    private static final int MAX_PER_CONNECTION = bounded(MAX_PER_CONNECTION_PROPERTY, DEFAULT_MAX_PER_CONNECTION,
            1 << 20);

    private StreamLimits() {
    }

    /** Messages in flight per stream and direction (the initial and largest credit). */
    public static int window() {
        return WINDOW;
    }

    /** Streams open at once on one provider connection. */
    public static int maxPerConnection() {
        return MAX_PER_CONNECTION;
    }

    private static int bounded(String property, int fallback, int max) {
        long v = SystemProperties.wholeNumber(property, fallback);
        if (v < 1 || v > max) {
            throw new IllegalArgumentException("system property " + property + " must be between 1 and " + max
                    + ", was " + v);
        }
        return (int) v;
    }
}
