package io.kestrel.rpc.transport.internal.dubbo;

import io.kestrel.rpc.transport.TransportCounters;
import io.kestrel.rpc.transport.internal.BoundedFrameDecoder;
import io.kestrel.rpc.transport.internal.MemoryBudget;
import io.kestrel.rpc.transport.internal.ResponseQueue;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.CorruptedFrameException;
import java.util.List;

/**
 * Splits a dubbo-protocol byte stream into {@link DubboFrame}s (header layout in {@link DubboWire}), held to the
 * same bounds as the native protocol's ({@link BoundedFrameDecoder}). The body length is checked against the
 * payload limit, and a request's body taken from the provider's memory budget (a consumer's: every frame), as soon as
 * the header is read,
 * before any buffer for the body exists; a frame over either is passed on without its body (so its request can
 * be answered) and its bytes are skipped as they arrive. A wrong magic or a negative length means the stream
 * cannot be trusted: the decoder throws and only this connection is closed.
 */
final class DubboFrameDecoder extends BoundedFrameDecoder {
    /** {@link DubboFrame#skippedBecause} of a response that did not fit a consumer's budget. */
    static final String OVER_CONSUMER_BUDGET = "over the consumer's memory budget";

    private final int maxBodyBytes;
    private final TransportCounters counters;
    private long discardRemaining;

    /**
     * A consumer's decoder, held to the bounds of the native consumer's ({@link
     * io.kestrel.rpc.transport.internal.FrameDecoder#consumer}): every frame the provider sends is taken from
     * {@code budget} as soon as its header is read (one that does not fit is passed on without its body, its call
     * fails); a frame incomplete {@code frameTimeoutMillis} after its first byte fails the connection's calls
     * with the reason and closes it.
     */
    static DubboFrameDecoder consumer(int maxBodyBytes, TransportCounters counters, MemoryBudget budget,
            long frameTimeoutMillis) {
        return new DubboFrameDecoder(maxBodyBytes, counters, budget, frameTimeoutMillis, null, true);
    }

    /**
     * @param budget taken for each request body once its header is read (null: none)
     * @param frameTimeoutMillis a frame incomplete this long after its first byte closes the connection (0: none)
     * @param output the connection's answers: no frame is decoded while it is full (null: none)
     */
    DubboFrameDecoder(int maxBodyBytes, TransportCounters counters, MemoryBudget budget, long frameTimeoutMillis,
            ResponseQueue output) {
        this(maxBodyBytes, counters, budget, frameTimeoutMillis, output, false);
    }

    private DubboFrameDecoder(int maxBodyBytes, TransportCounters counters, MemoryBudget budget,
            long frameTimeoutMillis, ResponseQueue output, boolean consumer) {
        super(budget, frameTimeoutMillis, output, consumer);
        this.maxBodyBytes = maxBodyBytes;
        this.counters = counters;
    }

    @Override
    protected void decodeFrame(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (discardRemaining > 0) {
            int n = (int) Math.min(discardRemaining, in.readableBytes());
            in.skipBytes(n);
            discardRemaining -= n;
            if (discardRemaining > 0) {
                partial(ctx);
                return;
            }
            frameDone();
        }
        if (!in.isReadable()) {
            return;
        }
        if (in.readableBytes() >= 2 && in.getShort(in.readerIndex()) != DubboWire.MAGIC) {
            int magic = in.getShort(in.readerIndex()) & 0xffff;
            in.skipBytes(in.readableBytes()); // nothing after this can be trusted
            throw new CorruptedFrameException(String.format("not a dubbo frame: magic 0x%04x instead of 0xdabb;"
                    + " this port speaks Apache Dubbo's dubbo protocol (a native Kestrel consumer needs"
                    + " protocol=\"dubbo\" on its reference)", magic));
        }
        if (in.readableBytes() < DubboWire.HEADER_BYTES) {
            partial(ctx);
            return;
        }
        int start = in.readerIndex();
        byte flags = in.getByte(start + 2);
        byte status = in.getByte(start + 3);
        long requestId = in.getLong(start + 4);
        int length = in.getInt(start + 12);
        if (length < 0) {
            in.skipBytes(in.readableBytes());
            throw new CorruptedFrameException("dubbo frame " + requestId + " claims a negative body length "
                    + length);
        }
        boolean complete = in.readableBytes() >= DubboWire.HEADER_BYTES + length;
        boolean request = (flags & DubboWire.FLAG_REQUEST) != 0;
        String skip = null;
        byte skipStatus = DubboWire.STATUS_BAD_REQUEST;
        long reserved = 0;
        if (length > maxBodyBytes) {
            skip = "body of " + length + " bytes exceeds the payload limit of " + maxBodyBytes + " bytes; send less"
                    + " data or raise payload on the protocol";
        } else if (consumer() || (request && (flags & DubboWire.FLAG_EVENT) == 0)) {
            reserved = reserveBody(length, complete);
            if (reserved == OVER_BUDGET) {
                skip = consumer() ? OVER_CONSUMER_BUDGET : "the provider is over its memory budget (" + budget().used()
                        + " of " + budget().limit() + " bytes held by requests and unsent responses); the call did"
                        + " not run. Retry later, or raise memory-budget on the protocol";
                skipStatus = DubboWire.STATUS_SERVER_BUSY;
                reserved = 0;
            }
        }
        if (skip != null) {
            in.skipBytes(DubboWire.HEADER_BYTES);
            int n = Math.min(length, in.readableBytes());
            in.skipBytes(n);
            discardRemaining = length - n;
            counters.frameRead();
            out.add(new DubboFrame(flags, status, requestId, length, null, 0, skip, skipStatus));
            skipping(ctx, discardRemaining);
            return;
        }
        if (!complete) {
            partial(ctx);
            return;
        }
        frameDone();
        in.skipBytes(DubboWire.HEADER_BYTES);
        counters.frameRead();
        ByteBuf body = in.readRetainedSlice(length);
        out.add(new DubboFrame(flags, status, requestId, length, body, reserved, null, (byte) 0));
    }
}
