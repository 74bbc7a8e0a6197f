package io.kestrel.rpc.transport.internal.dubbo;

import io.kestrel.rpc.transport.internal.Handshake;
import io.kestrel.rpc.transport.internal.HeartbeatHandler;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.timeout.IdleState;
import io.netty.handler.timeout.IdleStateEvent;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Heartbeats of a consumer's dubbo connection. The first heartbeat goes out as soon as TCP is up and its answer
 * is the handshake: only a peer that speaks the dubbo protocol makes the connection ready
 * ({@link HeartbeatHandler.Event#PEER_ANSWERED}; the provider publishes no facts, so an empty
 * {@link Handshake.Facts} goes first). Afterwards one is sent whenever nothing was written for the heartbeat
 * interval; a provider silent for the configured misses is {@link HeartbeatHandler.Event#PEER_SILENT} and the
 * connection closes. Heartbeats the provider sends are answered.
 */
final class DubboClientHeartbeat extends ChannelDuplexHandler {
    /** Heartbeat ids count down from -1 so they never meet the pending calls' ids, which count up from 1. */
    private static final AtomicLong IDS = new AtomicLong();
    private boolean answered;

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        super.channelActive(ctx);
        ping(ctx);
    }

    private static void ping(ChannelHandlerContext ctx) {
        ctx.writeAndFlush(event(ctx, (byte) (DubboWire.FLAG_REQUEST | DubboWire.FLAG_TWO_WAY | DubboWire.FLAG_EVENT
                | DubboWire.DUBBO_HESSIAN2), IDS.decrementAndGet()), ctx.voidPromise());
    }

    private static ByteBuf event(ChannelHandlerContext ctx, byte flags, long id) {
        ByteBuf buf = ctx.alloc().ioBuffer(DubboWire.HEADER_BYTES + 1);
        DubboWire.writeHeader(buf, flags, DubboWire.STATUS_OK, id);
        buf.writeByte('N');
        DubboWire.setBodyLength(buf, 0);
        return buf;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (!(msg instanceof DubboFrame f) || !f.isEvent()) {
            super.channelRead(ctx, msg);
            return;
        }
        try {
            if (f.isRequest()) {
                if (f.isTwoWay()) {
                    ctx.writeAndFlush(event(ctx, (byte) (DubboWire.FLAG_EVENT | DubboWire.DUBBO_HESSIAN2), f.requestId),
                            ctx.voidPromise());
                }
            } else if (!answered) {
                answered = true;
                ctx.fireUserEventTriggered(new Handshake.Facts(Map.of(), java.util.Set.of(), true));
                ctx.fireUserEventTriggered(HeartbeatHandler.Event.PEER_ANSWERED);
            }
        } finally {
            f.release();
        }
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        if (evt instanceof IdleStateEvent idle) {
            if (idle.state() == IdleState.READER_IDLE) {
                ctx.fireUserEventTriggered(HeartbeatHandler.Event.PEER_SILENT);
                ctx.close();
            } else if (idle.state() == IdleState.WRITER_IDLE) {
                ping(ctx);
            }
            return;
        }
        super.userEventTriggered(ctx, evt);
    }
}
