package io.kestrel.rpc.transport.internal;

import io.kestrel.rpc.transport.TransportCounters;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;

/** First handler of every pipeline: counts the bytes read from and written to the socket. */
@Sharable
public final class ByteCountingHandler extends ChannelDuplexHandler {
    private final TransportCounters counters;

    public ByteCountingHandler(TransportCounters counters) {
        this.counters = counters;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        counters.connectionOpened();
        super.channelActive(ctx);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (msg instanceof ByteBuf buf) {
            counters.addBytesRead(buf.readableBytes());
        }
        ctx.fireChannelRead(msg);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) throws Exception {
        if (msg instanceof ByteBuf buf) {
            counters.addBytesWritten(buf.readableBytes());
        }
        ctx.write(msg, promise);
    }
}
