package io.kestrel.rpc.transport.internal;

import io.kestrel.rpc.transport.TransportCounters;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
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
 *  flags: 0x01 request, 0x02 two-way, 0x04 event (heartbeat), 0x08 method definition inside
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
 */
public final class FrameDecoder extends ByteToMessageDecoder {
    private final int maxBodyBytes;
    private final TransportCounters counters;
    private long discardRemaining;

    /** @param counters counts every frame read */
    public FrameDecoder(int maxBodyBytes, TransportCounters counters) {
        this.maxBodyBytes = maxBodyBytes;
        this.counters = counters;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (discardRemaining > 0) {
            int skip = (int) Math.min(discardRemaining, in.readableBytes());
            in.skipBytes(skip);
            discardRemaining -= skip;
            if (discardRemaining > 0) {
                return;
            }
        }
        if (in.readableBytes() < Wire.HEADER_BYTES) {
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
        int bodyLength = in.getInt(start + Wire.LENGTH_OFFSET);
        if (bodyLength < 0) {
            in.skipBytes(in.readableBytes());
            throw new CorruptedFrameException("negative body length " + bodyLength);
        }
        byte flags = in.getByte(start + 3);
        byte serializationId = in.getByte(start + 4);
        byte status = in.getByte(start + 5);
        long requestId = in.getLong(start + 6);
        if (bodyLength > maxBodyBytes) {
            in.skipBytes(Wire.HEADER_BYTES);
            discardRemaining = bodyLength;
            int skip = (int) Math.min(discardRemaining, in.readableBytes());
            in.skipBytes(skip);
            discardRemaining -= skip;
            out.add(new Frame(flags, serializationId, status, requestId, bodyLength, null));
            counters.frameRead();
            return;
        }
        if (in.readableBytes() < Wire.HEADER_BYTES + bodyLength) {
            return;
        }
        in.skipBytes(Wire.HEADER_BYTES);
        ByteBuf body = in.readRetainedSlice(bodyLength);
        out.add(new Frame(flags, serializationId, status, requestId, bodyLength, body));
        counters.frameRead();
    }

    /** The payload limit this decoder enforces. */
    public int maxBodyBytes() {
        return maxBodyBytes;
    }
}
