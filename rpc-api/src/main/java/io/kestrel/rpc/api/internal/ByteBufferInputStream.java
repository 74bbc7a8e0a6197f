package io.kestrel.rpc.api.internal;

import java.io.InputStream;
import java.nio.ByteBuffer;

/**
 * An {@link InputStream} over the bytes between a buffer's position and limit, reading in place (no
 * copy of the whole value); advances the buffer's position. Not part of the public API.
 */
public final class ByteBufferInputStream extends InputStream {
    private final ByteBuffer in;

    public ByteBufferInputStream(ByteBuffer in) {
        this.in = in;
    }

    @Override
    public int read() {
        return in.hasRemaining() ? in.get() & 0xFF : -1;
    }

    @Override
    public int read(byte[] b, int off, int len) {
        if (len == 0) {
            return 0;
        }
        if (!in.hasRemaining()) {
            return -1;
        }
        int n = Math.min(len, in.remaining());
        in.get(b, off, n);
        return n;
    }

    @Override
    public long skip(long n) {
        int skipped = (int) Math.max(0, Math.min(n, in.remaining()));
        in.position(in.position() + skipped);
        return skipped;
    }

    @Override
    public int available() {
        return in.remaining();
    }
}
