package io.kestrel.rpc.transport.internal;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;

/**
 * Copies the small frames a {@link WriteQueue} run writes into one pooled buffer of the event loop's allocator, so
 * a burst of stream messages goes down the pipeline (byte counter, idle handlers, TLS) and into the outbound
 * buffer as one write instead of one per frame: per small frame that bookkeeping (an outbound entry, a promise, a
 * pass through every handler) cost more than the frame's bytes. Frames over {@value #SMALL_FRAME_BYTES} bytes are
 * written as they are (after what was gathered, so the order is kept). The bytes on the wire do not change.
 * Not thread-safe: the channel's event loop only, one per connection.
 */
public final class WriteCoalescer {
    /** Frames up to this many bytes are copied into the shared buffer. */
    static final int SMALL_FRAME_BYTES = 1024;
    /** Capacity of one shared buffer: a full one is written and the next frames start another. */
    static final int BUFFER_BYTES = 16 * 1024;

    private final Channel channel;
    private ByteBuf gathered; // null while nothing is gathered

    public WriteCoalescer(Channel channel) {
        this.channel = channel;
    }

    /** Writes {@code frame} (without flushing), gathered with its neighbours when small; owns it from now on. */
    public void write(ByteBuf frame) {
        int n = frame.readableBytes();
        if (n > SMALL_FRAME_BYTES) {
            writeGathered();
            channel.write(frame, channel.voidPromise());
            return;
        }
        try {
            if (gathered != null && gathered.writableBytes() < n) {
                writeGathered();
            }
            if (gathered == null) {
                gathered = channel.alloc().ioBuffer(BUFFER_BYTES, BUFFER_BYTES);
            }
            gathered.writeBytes(frame, frame.readerIndex(), n);
        } finally {
            frame.release();
        }
    }

    /** Writes what was gathered (without flushing): before a flush, and before anything written past this. */
    public void writeGathered() {
        ByteBuf g = gathered;
        if (g != null) {
            gathered = null;
            channel.write(g, channel.voidPromise());
        }
    }
}
