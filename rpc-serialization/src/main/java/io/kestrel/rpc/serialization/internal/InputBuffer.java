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
 * <p>Usage: {@code InputBuffer b = InputBuffer.readAll(in); try { use b.bytes()[0 .. b.length()) }
 * finally { b.release(); }}. A platform thread keeps its buffer; a virtual thread borrows one from a
 * small shared pool for the call (see {@link PerThread}), so a business pool of virtual threads does
 * not build a buffer per call.
 */
public final class InputBuffer {
    /** Bytes a thread keeps for its next call; also the bound engines use for their own per-thread buffers. */
    public static final int MAX_KEPT_BYTES = 64 * 1024;
    private static final int INITIAL_BYTES = 4096;
    private static final PerThread<InputBuffer> BUFFERS = new PerThread<>(() -> new InputBuffer(INITIAL_BYTES, true));

    private final boolean kept;
    private byte[] bytes;
    private int length;

    private InputBuffer(int capacity, boolean kept) {
        this.bytes = new byte[capacity];
        this.kept = kept;
    }

    /** Reads {@code in} to its end, into this thread's buffer if it fits, else into a one-off buffer. */
    public static InputBuffer readAll(InputStream in) throws IOException {
        int announced = Math.max(0, in.available());
        if (announced > MAX_KEPT_BYTES) {
            return readAll(in, new InputBuffer(announced + 1, false));
        }
        InputBuffer kept = BUFFERS.acquire();
        try {
            InputBuffer b = readAll(in, kept);
            if (b != kept) {
                kept.release();
            }
            return b;
        } catch (IOException | RuntimeException e) {
            kept.release();
            throw e;
        }
    }

    private static InputBuffer readAll(InputStream in, InputBuffer into) throws IOException {
        InputBuffer b = into;
        int n = 0;
        while (true) {
            if (n == b.bytes.length) {
                if (b.kept && n >= MAX_KEPT_BYTES) {
                    // grew past what a thread may keep: continue in a one-off buffer
                    InputBuffer big = new InputBuffer(n * 2, false);
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
        InputBuffer b;
        if (n > MAX_KEPT_BYTES) {
            b = new InputBuffer(n, false);
        } else {
            b = BUFFERS.acquire();
            if (n > b.bytes.length) {
                b.bytes = new byte[Math.min(MAX_KEPT_BYTES, Math.max(n, b.bytes.length * 2))];
            }
        }
        in.get(in.position(), b.bytes, 0, n);
        b.length = n;
        return b;
    }

    /** Ends this call's use of the bytes: a virtual thread's borrowed buffer goes back to the pool. */
    public void release() {
        if (kept) {
            length = 0;
            BUFFERS.release(this, true);
        }
    }

    /** Bytes the calling (platform) thread keeps between calls (for tests). */
    public static int retainedBytes() {
        InputBuffer b = BUFFERS.acquire();
        BUFFERS.release(b, true);
        return b.bytes.length;
    }

    /** The backing array; only the first {@link #length()} bytes are the value. */
    public byte[] bytes() {
        return bytes;
    }

    public int length() {
        return length;
    }
}
