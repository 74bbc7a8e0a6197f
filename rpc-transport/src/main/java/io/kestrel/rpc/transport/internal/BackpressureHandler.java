package io.kestrel.rpc.transport.internal;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Honours a provider connection's writability: while the consumer does not read its responses (the
 * channel's outbound buffer is over its high-water mark), none of its requests are read, so it
 * cannot make the provider produce more; reading resumes once it drains below the low-water mark.
 * A connection that stays unwritable longer than the write-stall timeout is closed, with a log line
 * naming the peer. One per connection.
 */
public final class BackpressureHandler extends ChannelInboundHandlerAdapter {
    private static final Logger log = LoggerFactory.getLogger(BackpressureHandler.class);

    private final long stallMillis;
    private ScheduledFuture<?> stallCheck;

    public BackpressureHandler(long stallMillis) {
        this.stallMillis = stallMillis;
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) throws Exception {
        Channel ch = ctx.channel();
        if (!ch.isWritable()) {
            ch.config().setAutoRead(false);
            if (stallCheck == null) {
                stallCheck = ctx.executor().schedule(() -> closeIfStalled(ctx), stallMillis, TimeUnit.MILLISECONDS);
            }
        } else {
            ch.config().setAutoRead(true);
            if (stallCheck != null) {
                stallCheck.cancel(false);
                stallCheck = null;
            }
        }
        super.channelWritabilityChanged(ctx);
    }

    private void closeIfStalled(ChannelHandlerContext ctx) {
        stallCheck = null;
        Channel ch = ctx.channel();
        if (ch.isActive() && !ch.isWritable()) {
            log.warn("Closing connection from {}: it has not read its responses for {} ms ({} bytes waiting);"
                    + " see write-stall-timeout on the protocol", ch.remoteAddress(), stallMillis,
                    ch.unsafe().outboundBuffer() == null ? 0 : ch.unsafe().outboundBuffer().totalPendingWriteBytes());
            ch.close();
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        if (stallCheck != null) {
            stallCheck.cancel(false);
            stallCheck = null;
        }
        super.channelInactive(ctx);
    }
}
