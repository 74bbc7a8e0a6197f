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
 *  first buffer (as given)      next buffers: each max(4 KiB, bytes so far, the write under way), at most 1 MiB
 *  +------------------------+   +-----------------+   +-------------------------------+
 *  | header room | body ... |-->| body ...        |-->| body ...                      |
 *  +------------------------+   +-----------------+   +-------------------------------+
 * </pre>
 *
 * Serializers that build the whole value first (fory, kryo) hand it over in one large write. Such a
 * write is its own size hint: when it does not fit the first buffer and that buffer holds only a small
 * prefix (at most {@value #MAX_MOVED_BYTES} bytes: the header room and the head of the body), the prefix
 * is moved into one buffer sized for prefix and write, so a 50 KB value is one buffer rather than a
 * composite of six growing chunks (their buffers, the composite and its components were about 1.4 KB
 * of allocation per call); a write too large for one chunk, or one after a larger prefix, goes to the
 * next buffers, each sized for what is still to write.
 */
public final class FrameOutput extends OutputStream {
    static final int MIN_CHUNK_BYTES = 4096;
    static final int MAX_CHUNK_BYTES = 1 << 20;
    /**
     * Capacity of the first buffer of a value body: a nested DTO of a kilobyte or two (the bid call's
     * request and response) fits it whole, so it takes one pooled buffer, neither moved nor chained
     * (a pooled buffer costs the same to take whatever its size class).
     */
    public static final int FIRST_BUFFER_BYTES = 2048;
    /** Bytes of the first buffer copied into a larger one instead of starting a composite. */
    static final int MAX_MOVED_BYTES = 1024;

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
            next(1);
        }
        current.writeByte(b);
    }

    @Override
    public void write(byte[] b, int off, int len) {
        if (len > current.writableBytes() && composite == null && current.writerIndex() <= MAX_MOVED_BYTES
                && (long) current.writerIndex() + len <= MAX_CHUNK_BYTES) {
            moveFirst(current.writerIndex() + len);
        }
        while (len > 0) {
            if (!current.isWritable()) {
                next(len);
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

    /**
     * Replaces the first buffer by one of {@code capacity} bytes holding the same bytes at the same
     * indexes (the encoders write the header at index 0 and may reset the writer index afterwards).
     */
    private void moveFirst(int capacity) {
        ByteBuf first = current;
        ByteBuf larger = alloc.ioBuffer(capacity, capacity);
        larger.writeBytes(first, 0, first.writerIndex());
        larger.readerIndex(first.readerIndex());
        current = larger;
        first.release();
    }

    /** Starts a new buffer, sized for at least {@code wanted} more bytes (within the chunk bounds). */
    private void next(int wanted) {
        if (composite == null) {
            composite = alloc.compositeBuffer(Integer.MAX_VALUE);
        }
        bytesBefore += current.readableBytes();
        composite.addComponent(true, current);
        int chunk = (int) Math.min(MAX_CHUNK_BYTES, Math.max(Math.max(MIN_CHUNK_BYTES, wanted), bytesBefore));
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
