package io.kestrel.rpc.serialization.internal;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * A per-thread byte buffer that holds one whole encoded value, for engines that must know where the
 * value ends to tell a complete value from a truncated one or one followed by junk. Buffers up to
 * {@value #MAX_KEPT_BYTES} bytes are kept for the thread's next call; larger ones are dropped after
 * use. Not part of the public API.
 *
 * <p>Usage: {@code InputBuffer b = InputBuffer.readAll(in); use b.bytes()[0 .. b.length())} before
 * the same thread calls {@code readAll} again.
 */
public final class InputBuffer {
    private static final int INITIAL_BYTES = 4096;
    private static final int MAX_KEPT_BYTES = 1024 * 1024;
    private static final ThreadLocal<InputBuffer> BUFFERS = ThreadLocal.withInitial(InputBuffer::new);

    private byte[] bytes = new byte[INITIAL_BYTES];
    private int length;

    private InputBuffer() {
    }

    /** Reads {@code in} to its end into this thread's buffer. */
    public static InputBuffer readAll(InputStream in) throws IOException {
        InputBuffer b = BUFFERS.get();
        if (b.bytes.length > MAX_KEPT_BYTES) {
            b.bytes = new byte[INITIAL_BYTES];
        }
        int n = 0;
        while (true) {
            if (n == b.bytes.length) {
                b.bytes = Arrays.copyOf(b.bytes, b.bytes.length * 2);
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

    /** The backing array; only the first {@link #length()} bytes are the value. */
    public byte[] bytes() {
        return bytes;
    }

    public int length() {
        return length;
    }
}
