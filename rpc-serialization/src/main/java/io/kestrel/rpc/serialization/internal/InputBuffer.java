package io.kestrel.rpc.serialization.internal;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * A per-thread byte buffer that holds one whole encoded value, for engines that must know where the
 * value ends to tell a complete value from a truncated one or one followed by junk. A thread keeps at
 * most {@value #MAX_KEPT_BYTES} bytes between calls: a larger value is read into an array of its own,
 * used for that call only, so an idle business thread never holds on to the buffer of the largest
 * request it once served. Not part of the public API.
 *
 * <p>Usage: {@code InputBuffer b = InputBuffer.readAll(in); use b.bytes()[0 .. b.length())} before
 * the same thread calls {@code readAll} again.
 */
public final class InputBuffer {
    /** Bytes a thread keeps for its next call; also the bound engines use for their own per-thread buffers. */
    public static final int MAX_KEPT_BYTES = 64 * 1024;
    private static final int INITIAL_BYTES = 4096;
    private static final ThreadLocal<InputBuffer> BUFFERS = ThreadLocal.withInitial(() -> new InputBuffer(INITIAL_BYTES));

    private byte[] bytes;
    private int length;

    private InputBuffer(int capacity) {
        this.bytes = new byte[capacity];
    }

    /** Reads {@code in} to its end, into this thread's buffer if it fits, else into a one-off buffer. */
    public static InputBuffer readAll(InputStream in) throws IOException {
        InputBuffer kept = BUFFERS.get();
        int announced = Math.max(0, in.available());
        InputBuffer b = announced <= MAX_KEPT_BYTES ? kept : new InputBuffer(announced + 1);
        int n = 0;
        while (true) {
            if (n == b.bytes.length) {
                if (b == kept && n >= MAX_KEPT_BYTES) {
                    // grew past what a thread may keep: continue in a one-off buffer
                    InputBuffer big = new InputBuffer(n * 2);
                    System.arraycopy(b.bytes, 0, big.bytes, 0, n);
                    b = big;
                } else {
                    b.bytes = Arrays.copyOf(b.bytes, Math.min(Integer.MAX_VALUE - 8, b.bytes.length * 2));
                }
            }
            int read = in.read(b.bytes, n, b.bytes.length - n);
            if (read < 0) {
                break;
            }
            n += read;
        }
        b.length = n;
        return b;
    }

    /**
     * Copies the bytes between {@code in}'s position and limit (a direct buffer, which an engine
     * reading byte arrays cannot use in place), in one bulk copy, into this thread's buffer if they
     * fit, else into a one-off buffer. Leaves {@code in}'s position unchanged.
     */
    public static InputBuffer copyOf(ByteBuffer in) {
        int n = in.remaining();
        InputBuffer kept = BUFFERS.get();
        InputBuffer b = kept;
        if (n > kept.bytes.length) {
            if (n <= MAX_KEPT_BYTES) {
                kept.bytes = new byte[Math.min(MAX_KEPT_BYTES, Math.max(n, kept.bytes.length * 2))];
            } else {
                b = new InputBuffer(n);
            }
        }
        in.get(in.position(), b.bytes, 0, n);
        b.length = n;
        return b;
    }

    /** Bytes the calling thread keeps between calls (for tests). */
    public static int retainedBytes() {
        return BUFFERS.get().bytes.length;
    }

    /** The backing array; only the first {@link #length()} bytes are the value. */
    public byte[] bytes() {
        return bytes;
    }

    public int length() {
        return length;
    }
}
