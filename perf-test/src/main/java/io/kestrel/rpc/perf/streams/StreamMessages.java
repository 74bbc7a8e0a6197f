package io.kestrel.rpc.perf.streams;

import java.nio.ByteBuffer;

/**
 * The messages every streams system carries: {@code payload} bytes (16 by default, at least 8), message {@code i}
 * of a stream holding {@code i} big-endian in its first 8 bytes, zeros after, so the receiver checks order and size
 * of each. perf-test-grpc's {@code ByteMethods} makes the same bytes (it cannot share this class).
 */
public final class StreamMessages {
    /** The smallest payload: the sequence number. */
    public static final int MIN_PAYLOAD = 8;

    private StreamMessages() {
    }

    /** Message {@code seq} of {@code payload} bytes. */
    public static byte[] message(long seq, int payload) {
        byte[] m = new byte[payload];
        ByteBuffer.wrap(m).putLong(0, seq);
        return m;
    }

    /**
     * Checks that {@code m} is message {@code expected} of {@code payload} bytes.
     *
     * @throws IllegalStateException naming what came instead
     */
    public static void check(byte[] m, long expected, int payload) {
        long seq = m != null && m.length >= MIN_PAYLOAD ? ByteBuffer.wrap(m).getLong(0) : -1;
        if (m == null || m.length != payload || seq != expected) {
            throw new IllegalStateException("message " + expected + " came as " + (m == null ? "null" : m.length
                    + " bytes numbered " + seq) + " (out of order or wrong size)");
        }
    }
}
