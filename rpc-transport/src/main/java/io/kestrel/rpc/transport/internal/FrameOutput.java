package io.kestrel.rpc.transport.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;
import java.io.OutputStream;

/**
 * The stream a serializer writes a frame body into, straight into pooled (direct) buffers. A buffer
 * that fills up is never grown by copying: the next bytes go to a new buffer and the frame becomes a
 * {@link CompositeByteBuf} of them, written to the socket as one gathering write. Small values stay in
 * the first buffer (no composite, nothing more allocated). Not thread-safe; one per value written.
 *
 * <pre>
 *  first buffer (as given)      next buffers: each max(4 KiB, bytes so far), at most 1 MiB
 *  +------------------------+   +-----------------+   +-------------------------------+
 *  | header room | body ... |-->| body ...        |-->| body ...                      |
 *  +------------------------+   +-----------------+   +-------------------------------+
 * </pre>
 */
public final class FrameOutput extends OutputStream {
    static final int MIN_CHUNK_BYTES = 4096;
    static final int MAX_CHUNK_BYTES = 1 << 20;

    private final ByteBufAllocator alloc;
    private ByteBuf current;
    private CompositeByteBuf composite; // null while everything fits the first buffer
    private long bytesBefore; // readable bytes of the buffers before current

    /** @param first the buffer to start with; this output owns it from now on */
    public FrameOutput(ByteBufAllocator alloc, ByteBuf first) {
        this.alloc = alloc;
        this.current = first;
    }

    @Override
    public void write(int b) {
        if (!current.isWritable()) {
            next();
        }
        current.writeByte(b);
    }

    @Override
    public void write(byte[] b, int off, int len) {
        while (len > 0) {
            if (!current.isWritable()) {
                next();
            }
            int n = Math.min(len, current.writableBytes());
            current.writeBytes(b, off, n);
            off += n;
            len -= n;
        }
    }

    /** Bytes written so far, the first buffer's from its reader index on. */
    public long size() {
        return bytesBefore + current.readableBytes();
    }

    private void next() {
        if (composite == null) {
            composite = alloc.compositeBuffer(Integer.MAX_VALUE);
        }
        bytesBefore += current.readableBytes();
        composite.addComponent(true, current);
        int chunk = (int) Math.min(MAX_CHUNK_BYTES, Math.max(MIN_CHUNK_BYTES, bytesBefore));
        current = null; // not owned until allocated: release() must not free a component twice
        current = alloc.ioBuffer(chunk, chunk);
    }

    /** The frame: the first buffer, or a composite of all buffers written. This output is done. */
    public ByteBuf finish() {
        if (composite == null) {
            return current;
        }
        composite.addComponent(true, current);
        current = null;
        return composite;
    }

    /** Releases everything written (after a failure). */
    public void release() {
        if (current != null) {
            current.release();
            current = null;
        }
        if (composite != null) {
            composite.release();
            composite = null;
        }
    }
}
