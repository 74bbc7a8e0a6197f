package io.kestrel.rpc.api.stream;

import io.kestrel.rpc.api.internal.SystemProperties;

/**
 * JVM-wide stream settings, read once (see {@code docs/streaming.md}):
 * <ul>
 *   <li>{@value #WINDOW_PROPERTY} (default {@value #DEFAULT_WINDOW}): messages a receiver lets a sender have in
 *       flight on one stream (its credit window); the sender waits beyond it, so a slow receiver slows the sender
 *       and neither side buffers more than this many messages of one stream.</li>
 *   <li>{@value #WINDOW_BYTES_PROPERTY} (default {@value #DEFAULT_WINDOW_BYTES}, 0: off): under automatic flow control
 *       a receiver widens the window of a sender that fills it, at most doubling it at each grant, while the window
 *       times the average size of the messages it took stays within this many bytes, up to {@value #MAX_GROWN_WINDOW}
 *       messages; never below {@value #WINDOW_PROPERTY}. A consumer narrows a widened window back while unary calls
 *       wait on the same connection, since what is in flight sits in front of their answers. Small messages then
 *       flow without a credit round trip every few dozen; large ones keep the window where it started.</li>
 *   <li>{@value #MAX_PER_CONNECTION_PROPERTY} (default {@value #DEFAULT_MAX_PER_CONNECTION}): streams open at
 *       once on one provider connection; more are answered "server busy" (they did not start).</li>
 * </ul>
 */
public final class StreamLimits {
    public static final String WINDOW_PROPERTY = "kestrel.rpc.stream.window";
    public static final String MAX_PER_CONNECTION_PROPERTY = "kestrel.rpc.stream.maxPerConnection";
    public static final int DEFAULT_WINDOW = 64;
    public static final int DEFAULT_MAX_PER_CONNECTION = 256;
    public static final String WINDOW_BYTES_PROPERTY = "kestrel.rpc.stream.windowBytes";
    public static final int DEFAULT_WINDOW_BYTES = 16 * 1024;
    /** The widest a window grows by {@value #WINDOW_BYTES_PROPERTY} (a larger {@value #WINDOW_PROPERTY} stays as set). */
    public static final int MAX_GROWN_WINDOW = 8192;

    private static final int WINDOW = bounded(WINDOW_PROPERTY, DEFAULT_WINDOW, 1 << 20);
    private static final int WINDOW_BYTES = boundedOrZero(WINDOW_BYTES_PROPERTY, DEFAULT_WINDOW_BYTES, 1 << 30);
    private static final int MAX_PER_CONNECTION = bounded(MAX_PER_CONNECTION_PROPERTY, DEFAULT_MAX_PER_CONNECTION,
            1 << 20);

    private StreamLimits() {
    }

    /** Messages in flight per stream and direction (the initial and largest credit). */
    public static int window() {
        return WINDOW;
    }

    /**
     * Bytes of messages in flight per stream and direction that automatic flow control widens a window toward (0:
     * the window stays at {@link #window()}).
     */
    public static int windowBytes() {
        return WINDOW_BYTES;
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

    private static int boundedOrZero(String property, int fallback, int max) {
        return SystemProperties.wholeNumber(property, fallback) == 0 ? 0 : bounded(property, fallback, max);
    }
}
