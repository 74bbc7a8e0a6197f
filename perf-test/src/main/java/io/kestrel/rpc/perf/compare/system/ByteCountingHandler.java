package io.kestrel.rpc.perf.compare.system;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufHolder;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts the bytes passing the head of a client pipeline in each direction, i.e. what goes on the
 * socket. Add it first ({@code pipeline.addFirst}); it has no per-connection state, so one instance
 * counts every connection of a client.
 */
@Sharable
public final class ByteCountingHandler extends ChannelDuplexHandler {
    private final LongAdder read = new LongAdder();
    private final LongAdder written = new LongAdder();

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        read.add(sizeOf(msg));
        ctx.fireChannelRead(msg);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        written.add(sizeOf(msg));
        ctx.write(msg, promise);
    }

    /** Bytes read from sockets so far. */
    public long bytesRead() {
        return read.sum();
    }

    /** Bytes handed to sockets so far. */
    public long bytesWritten() {
        return written.sum();
    }

    private static long sizeOf(Object msg) {
        if (msg instanceof ByteBuf b) {
            return b.readableBytes();
        }
        if (msg instanceof ByteBufHolder h) {
            return h.content().readableBytes();
        }
        return 0;
    }
}
