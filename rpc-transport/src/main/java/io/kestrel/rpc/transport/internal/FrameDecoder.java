package io.kestrel.rpc.transport.internal;

import io.kestrel.rpc.transport.TransportCounters;
import io.kestrel.rpc.transport.internal.stream.StreamFrames;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.CorruptedFrameException;
import java.util.List;

/**
 * Splits the byte stream into {@link Frame}s. The wire format, big-endian:
 *
 * <pre>
 *  0       2     3     4     5      6               14              18
 *  +-------+-----+-----+-----+------+---------------+---------------+-------------------+
 *  | magic | ver |flags| ser |status|  request id   |  body length  |  body             |
 *  +-------+-----+-----+-----+------+---------------+---------------+-------------------+
 *  magic 0x4B52 ("KR"), ver 1,
 *  flags: 0x01 request, 0x02 two-way, 0x04 event (heartbeat), 0x08 method definition inside,
 *         0x20 stream frame (status: its operations, see {@link io.kestrel.rpc.transport.internal.stream.StreamFrames}),
 *         0x40 with 0x20: a compact stream DATA frame, with a 12-byte header of its own (magic, ver, flags,
 *         4-byte stream id, body length; see {@link io.kestrel.rpc.transport.internal.stream.StreamFrames})
 *
 *  status: a {@link io.kestrel.rpc.transport.Status} code on responses and events, 0 on requests
 *
 *  request body:  see {@link RequestEncoder} (written by the consumer) / {@link RequestDecoder}
 *  response body: see {@link ResponseEncoder} (written by the provider) / {@link ResponseDecoder}
 *  event frames (heartbeats, going-away notices) have no body
 * </pre>
 *
 * <p>The body length is checked against the payload limit as soon as the header is read, before
 * any buffer for the body exists. An oversized frame is passed on as a header-only {@link Frame}
 * (so its request can be answered) and its body bytes are skipped as they arrive. A wrong magic or
 * version means the stream cannot be trusted: the decoder throws and the connection is closed.
 *
 * <p>Both sides hold bodies within a {@link MemoryBudget} from the moment the header is read (a provider's
 * for requests, a consumer's for everything its provider sends) and close a connection whose frame stays
 * incomplete past the frame timeout, so that a peer trickling a large frame cannot hold memory for long.
 */
public final class FrameDecoder extends BoundedFrameDecoder {
    private static final int EVERY_FRAME = -1;

    private final int maxBodyBytes;
    private final TransportCounters counters;
    private long discardRemaining;
    /** The skipped request's header, held until {@link #prefix} has its definition (null: none). */
    private Frame skipped;
    private ByteBuf prefix;
    private int prefixWanted;
    /**
     * The kind of frame whose body the budget is taken for: its request and event flags (a provider's
     * budget holds requests), or {@link #EVERY_FRAME} (a consumer's holds whatever a provider sends).
     */
    private final int budgetedKind;

    /** A decoder with no budget and no frame deadline (tests, tools). */
    public FrameDecoder(int maxBodyBytes, TransportCounters counters) {
        this(maxBodyBytes, counters, null, 0, null);
    }

    /**
     * A consumer's decoder: {@code budget} is taken for each response's body as soon as its header is
     * read (one that does not fit is passed on header-only, {@link Frame#overBudget}, and its call fails);
     * a frame incomplete {@code frameTimeoutMillis} after its first byte fires a {@link FrameTimeoutException}
     * (the connection's handler closes it and fails its calls with that message). Every frame a provider
     * sends counts, events included.
     */
    public static FrameDecoder consumer(int maxBodyBytes, TransportCounters counters, MemoryBudget budget,
            long frameTimeoutMillis) {
        return new FrameDecoder(maxBodyBytes, counters, budget, frameTimeoutMillis, null, EVERY_FRAME);
    }

    /** A provider's decoder that decodes whatever its connection's answers. */
    public FrameDecoder(int maxBodyBytes, TransportCounters counters, MemoryBudget budget, long frameTimeoutMillis) {
        this(maxBodyBytes, counters, budget, frameTimeoutMillis, null);
    }

    /**
     * A provider's decoder.
     *
     * @param counters counts every frame read
     * @param budget taken for each request's body as soon as its header is read (null: none); a
     *     request that does not fit is passed on header-only, {@link Frame#overBudget}, its body
     *     skipped
     * @param frameTimeoutMillis a frame still incomplete this long after its first byte closes the
     *     connection (0: no limit)
     * @param output the connection's answers: no frame is decoded while it is full (null: none)
     */
    public FrameDecoder(int maxBodyBytes, TransportCounters counters, MemoryBudget budget, long frameTimeoutMillis,
            ResponseQueue output) {
        this(maxBodyBytes, counters, budget, frameTimeoutMillis, output, Wire.FLAG_REQUEST);
    }

    private FrameDecoder(int maxBodyBytes, TransportCounters counters, MemoryBudget budget, long frameTimeoutMillis,
            ResponseQueue output, int budgetedKind) {
        super(budget, frameTimeoutMillis, output, budgetedKind == EVERY_FRAME);
        this.budgetedKind = budgetedKind;
        this.maxBodyBytes = maxBodyBytes;
        this.counters = counters;
    }

    @Override
    protected void decodeFrame(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (discardRemaining > 0) {
            discard(in, out);
            if (discardRemaining > 0) {
                partial(ctx);
                return;
            }
            frameDone();
        }
        if (in.readableBytes() < 4) {
            if (in.isReadable()) {
                partial(ctx);
            }
            return;
        }
        int start = in.readerIndex();
        short magic = in.getShort(start);
        if (magic != Wire.MAGIC) {
            in.skipBytes(in.readableBytes()); // nothing after this can be trusted
            throw new CorruptedFrameException(String.format("bad magic 0x%04X (expected 0x%04X): not a Kestrel RPC peer"
                    + " or a corrupted stream", magic & 0xFFFF, Wire.MAGIC));
        }
        byte version = in.getByte(start + 2);
        if (version != Wire.VERSION) {
            in.skipBytes(in.readableBytes());
            throw new CorruptedFrameException("unsupported protocol version " + version + " (this side speaks " + Wire.VERSION + ")");
        }
        byte flags = in.getByte(start + 3);
        boolean compact = (flags & Wire.FLAG_COMPACT) != 0;
        if (compact && (flags & ~Wire.FLAG_REQUEST) != (Wire.FLAG_STREAM | Wire.FLAG_COMPACT)) {
            in.skipBytes(in.readableBytes());
            throw new CorruptedFrameException(String.format("frame flags 0x%02X: the compact flag 0x40 goes with the"
                    + " stream flag 0x20 (and the request flag 0x01) only", flags & 0xFF));
        }
        int headerBytes = compact ? Wire.COMPACT_HEADER_BYTES : Wire.HEADER_BYTES;
        if (in.readableBytes() < headerBytes) {
            partial(ctx);
            return;
        }
        int bodyLength = in.getInt(start + (compact ? Wire.COMPACT_LENGTH_OFFSET : Wire.LENGTH_OFFSET));
        if (bodyLength < 0) {
            in.skipBytes(in.readableBytes());
            throw new CorruptedFrameException("negative body length " + bodyLength);
        }
        // a compact frame is a stream's DATA: its serialization is the stream's, its id an unsigned 4-byte number
        byte serializationId = compact ? 0 : in.getByte(start + 4);
        byte status = compact ? StreamFrames.DATA : in.getByte(start + 5);
        long requestId = compact ? in.getUnsignedInt(start + 4) : in.getLong(start + 6);
        boolean complete = in.readableBytes() >= headerBytes + bodyLength;
        long reserved = 0;
        boolean overBudget = false;
        if (bodyLength <= maxBodyBytes
                && ((flags & (Wire.FLAG_REQUEST | Wire.FLAG_EVENT)) == budgetedKind || budgetedKind == EVERY_FRAME)) {
            reserved = reserveBody(bodyLength, complete);
            overBudget = reserved == OVER_BUDGET;
        }
        if (bodyLength > maxBodyBytes || overBudget) {
            in.skipBytes(headerBytes);
            discardRemaining = bodyLength;
            if ((flags & Wire.FLAG_METHOD_DEF) != 0 && (flags & Wire.FLAG_REQUEST) != 0 && bodyLength > 0) {
                // keep the start of the body: the method it defines must still be defined, or every
                // later call of it on this connection would name an unknown reference
                prefixWanted = Math.min(bodyLength, RequestDecoder.DEFINITION_BYTES);
                prefix = ctx.alloc().heapBuffer(prefixWanted);
                skipped = new Frame(flags, serializationId, status, requestId, bodyLength, null, overBudget, prefix);
            } else {
                out.add(new Frame(flags, serializationId, status, requestId, bodyLength, null, overBudget, null));
                counters.frameRead();
            }
            discard(in, out);
            skipping(ctx, discardRemaining);
            return;
        }
        if (!complete) {
            partial(ctx);
            return;
        }
        in.skipBytes(headerBytes);
        ByteBuf body = in.readRetainedSlice(bodyLength);
        Frame frame = new Frame(flags, serializationId, status, requestId, bodyLength, body);
        frame.receivedNanos = readNanos();
        if (reserved > 0 && (budgetedKind != EVERY_FRAME || (flags & (Wire.FLAG_REQUEST | Wire.FLAG_EVENT)) == 0)) {
            frame.holdReservation(budget(), reserved); // a request (provider) or response (consumer): until it is done
        } else if (reserved > 0) {
            budget().release(reserved); // a consumer's event or stray request: handled on this thread at once
        }
        out.add(frame);
        counters.frameRead();
        frameDone();
    }

    /** Skips body bytes being discarded, first keeping what a skipped definition needs. */
    private void discard(ByteBuf in, List<Object> out) {
        if (prefix != null) {
            int n = Math.min(prefixWanted - prefix.readableBytes(), in.readableBytes());
            prefix.writeBytes(in, n);
            discardRemaining -= n;
            if (prefix.readableBytes() == prefixWanted) {
                out.add(skipped);
                counters.frameRead();
                prefix = null;
                skipped = null;
            }
        }
        int skip = (int) Math.min(discardRemaining, in.readableBytes());
        in.skipBytes(skip);
        discardRemaining -= skip;
    }

    @Override
    protected void removed() {
        if (prefix != null) {
            prefix.release();
            prefix = null;
            skipped = null;
        }
    }

    /** The payload limit this decoder enforces. */
    public int maxBodyBytes() {
        return maxBodyBytes;
    }
}
