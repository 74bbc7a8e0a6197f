package io.kestrel.rpc.transport.internal.dubbo;

import io.kestrel.rpc.transport.TransportCounters;
import io.kestrel.rpc.transport.internal.MemoryBudget;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.CorruptedFrameException;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Splits a dubbo-protocol byte stream into {@link DubboFrame}s (header layout in {@link DubboWire}). The body
 * length is checked against the payload limit, and a request's body against the provider's memory budget, as
 * soon as the header is read, before any buffer for the body exists; such a frame is passed on without its body
 * (so its request can be answered) and its bytes are skipped as they arrive. A wrong magic, a negative length
 * or a frame still incomplete after the frame timeout means the stream cannot be trusted: the decoder throws
 * and only this connection is closed.
 */
final class DubboFrameDecoder extends ByteToMessageDecoder {
    private final int maxBodyBytes;
    private final TransportCounters counters;
    private final MemoryBudget budget;
    private final long frameTimeoutNanos;
    private long discardRemaining;
    private long partialSinceNanos;

    /**
     * @param budget taken for each request body once its header is read (null: none)
     * @param frameTimeoutMillis a frame incomplete this long after its first byte closes the connection (0: none)
     */
    DubboFrameDecoder(int maxBodyBytes, TransportCounters counters, MemoryBudget budget, long frameTimeoutMillis) {
        this.maxBodyBytes = maxBodyBytes;
        this.counters = counters;
        this.budget = budget;
        this.frameTimeoutNanos = TimeUnit.MILLISECONDS.toNanos(frameTimeoutMillis);
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        while (true) {
            if (discardRemaining > 0) {
                int n = (int) Math.min(discardRemaining, in.readableBytes());
                in.skipBytes(n);
                discardRemaining -= n;
                if (discardRemaining > 0) {
                    return;
                }
            }
            if (in.readableBytes() == 0) {
                partialSinceNanos = 0;
                return;
            }
            if (in.readableBytes() >= 2 && in.getShort(in.readerIndex()) != DubboWire.MAGIC) {
                throw new CorruptedFrameException(String.format("not a dubbo frame: magic 0x%04x instead of 0xdabb;"
                        + " this port speaks Apache Dubbo's dubbo protocol (a native Kestrel consumer needs"
                        + " protocol=\"dubbo\" on its reference)", in.getShort(in.readerIndex()) & 0xffff));
            }
            if (in.readableBytes() < DubboWire.HEADER_BYTES) {
                checkFrameTimeout(ctx);
                return;
            }
            int start = in.readerIndex();
            byte flags = in.getByte(start + 2);
            byte status = in.getByte(start + 3);
            long requestId = in.getLong(start + 4);
            int length = in.getInt(start + 12);
            if (length < 0) {
                throw new CorruptedFrameException("dubbo frame " + requestId + " claims a negative body length "
                        + length);
            }
            boolean request = (flags & DubboWire.FLAG_REQUEST) != 0;
            if (length > maxBodyBytes) {
                in.skipBytes(DubboWire.HEADER_BYTES);
                discardRemaining = length;
                counters.frameRead();
                out.add(new DubboFrame(flags, status, requestId, length, null, 0, "body of " + length
                        + " bytes exceeds the payload limit of " + maxBodyBytes + " bytes; send less data or raise"
                        + " payload on the protocol", DubboWire.STATUS_BAD_REQUEST));
                continue;
            }
            if (in.readableBytes() < DubboWire.HEADER_BYTES + length) {
                checkFrameTimeout(ctx);
                return;
            }
            partialSinceNanos = 0;
            in.skipBytes(DubboWire.HEADER_BYTES);
            counters.frameRead();
            if (request && budget != null && length > 0 && !budget.tryAcquire(length)) {
                in.skipBytes(length);
                out.add(new DubboFrame(flags, status, requestId, length, null, 0, "the provider is over its memory"
                        + " budget (" + budget.used() + " of " + budget.limit() + " bytes held by requests and unsent"
                        + " responses); the call did not run. Retry later, or raise memory-budget on the protocol",
                        DubboWire.STATUS_SERVER_BUSY));
                continue;
            }
            ByteBuf body = in.readRetainedSlice(length);
            out.add(new DubboFrame(flags, status, requestId, length, body, request && budget != null ? length : 0,
                    null, (byte) 0));
        }
    }

    /**
     * Starts the clock of an incomplete frame (and a check that fires even if no further byte arrives), or fails
     * when it has run out.
     */
    private void checkFrameTimeout(ChannelHandlerContext ctx) {
        long now = System.nanoTime();
        if (partialSinceNanos == 0) {
            partialSinceNanos = now;
            if (frameTimeoutNanos > 0) {
                long started = now;
                ctx.executor().schedule(() -> {
                    if (partialSinceNanos == started && ctx.channel().isActive()) {
                        ctx.fireExceptionCaught(new CorruptedFrameException("a dubbo frame stayed incomplete for more"
                                + " than " + TimeUnit.NANOSECONDS.toMillis(frameTimeoutNanos) + " ms (frame-timeout on"
                                + " the protocol)"));
                    }
                }, frameTimeoutNanos, TimeUnit.NANOSECONDS);
            }
        } else if (frameTimeoutNanos > 0 && now - partialSinceNanos > frameTimeoutNanos) {
            throw new CorruptedFrameException("a dubbo frame stayed incomplete for more than "
                    + TimeUnit.NANOSECONDS.toMillis(frameTimeoutNanos) + " ms (frame-timeout on the protocol)");
        }
    }
}
