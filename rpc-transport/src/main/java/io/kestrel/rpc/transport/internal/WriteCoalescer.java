package io.kestrel.rpc.transport.internal;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;

/**
 * Copies the small frames a {@link WriteQueue} run writes into pooled buffers of the event loop's allocator, so
 * a burst of stream messages goes down the pipeline (byte counter, idle handlers, TLS) and into the outbound
 * buffer as a few writes instead of one per frame: per small frame that bookkeeping (an outbound entry, a promise, a
 * pass through every handler) cost more than the frame's bytes. Frames over {@value #SMALL_FRAME_BYTES} bytes are
 * written as they are (after what was gathered, so the order is kept), and so is a small frame that is alone in its
 * run (nothing is copied for a lone answer). The gathering buffers start at {@value #MIN_BUFFER_BYTES} bytes and
 * double up to {@value #MAX_BUFFER_BYTES}, so what they hold is never much less than their size (what a peer that
 * does not read makes the provider keep stays close to the bytes counted). The bytes on the wire do not change.
 * Not thread-safe: the channel's event loop only, one per connection.
 */
public final class WriteCoalescer {
    /** Frames up to this many bytes are copied into a gathering buffer. */
    static final int SMALL_FRAME_BYTES = 1024;
    /** Capacity of a run's first gathering buffer; each next one is twice the last. */
    static final int MIN_BUFFER_BYTES = 1024;
    /** Capacity of a gathering buffer at most. */
    static final int MAX_BUFFER_BYTES = 16 * 1024;

    private final Channel channel;
    private ByteBuf first; // a small frame not copied yet: written as it is when no other joins it
    private ByteBuf gathered; // null while nothing is gathered
    private int nextCapacity = MIN_BUFFER_BYTES;

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
        if (first == null && gathered == null) {
            first = frame;
            return;
        }
        try {
            if (gathered == null || gathered.writableBytes() < n) {
                writeFull(n + (first == null ? 0 : first.readableBytes()));
            }
            gathered.writeBytes(frame, frame.readerIndex(), n);
        } finally {
            frame.release();
        }
    }

    /** Writes the full gathering buffer and starts one with room for {@code bytes} (at most 2 small frames). */
    private void writeFull(int bytes) {
        if (gathered != null) {
            channel.write(gathered, channel.voidPromise());
            gathered = null;
        }
        int capacity = Math.max(nextCapacity, bytes);
        nextCapacity = Math.min(MAX_BUFFER_BYTES, capacity * 2);
        gathered = channel.alloc().ioBuffer(capacity, capacity);
        if (first != null) {
            gathered.writeBytes(first, first.readerIndex(), first.readableBytes());
            first.release();
            first = null;
        }
    }

    /** Writes what was gathered (without flushing): before a flush, and before anything written past this. */
    public void writeGathered() {
        ByteBuf g = first != null ? first : gathered;
        first = null;
        gathered = null;
        nextCapacity = MIN_BUFFER_BYTES;
        if (g != null) {
            channel.write(g, channel.voidPromise());
        }
    }
}
