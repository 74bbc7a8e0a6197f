package io.kestrel.rpc.transport.internal;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stops reading a provider connection whose consumer does not read its answers, on every protocol: while the
 * channel is unwritable (its outbound buffer over the high-water mark) or its {@link ResponseQueue} is
 * {@link ResponseQueue#full() full}, none of its requests are read (and the frame decoder, after this handler,
 * decodes no more of what was already read), so it cannot make the provider produce or hold more. Reading
 * resumes, and the bytes already read are decoded, once both have drained. A connection that stays paused
 * longer than the write-stall timeout is closed, with a log line naming the peer. Sits before the frame
 * decoder. One per connection; event loop only.
 */
public final class BackpressureHandler extends ChannelInboundHandlerAdapter {
    private static final Logger log = LoggerFactory.getLogger(BackpressureHandler.class);

    private final long stallMillis;
    private final ResponseQueue output;
    private ChannelHandlerContext ctx;
    private boolean paused;
    private ScheduledFuture<?> stallCheck;

    /** @param output the connection's answers (null: only the channel's writability counts) */
    public BackpressureHandler(long stallMillis, ResponseQueue output) {
        this.stallMillis = stallMillis;
        this.output = output;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        if (output != null) {
            output.onDrained(this::update);
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ctx.fireChannelRead(msg);
        if (!paused && output != null && output.full()) {
            update(); // the decoder stopped at a full queue: stop reading too
        }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) throws Exception {
        update();
        super.channelWritabilityChanged(ctx);
    }

    /** Pauses or resumes reading to match the channel's writability and the pending answers. */
    private void update() {
        Channel ch = ctx.channel();
        boolean pause = !ch.isWritable() || output != null && output.full();
        if (pause == paused || !ch.isActive()) {
            return;
        }
        paused = pause;
        ch.config().setAutoRead(!pause);
        if (pause) {
            stallCheck = ctx.executor().schedule(this::closeIfStalled, stallMillis, TimeUnit.MILLISECONDS);
            return;
        }
        cancelStallCheck();
        // what was read before the pause and not yet decoded: decode it now, not when the next bytes arrive
        ctx.fireChannelRead(Unpooled.EMPTY_BUFFER);
        ctx.fireChannelReadComplete();
    }

    private void closeIfStalled() {
        stallCheck = null;
        Channel ch = ctx.channel();
        if (ch.isActive() && paused) {
            log.warn("Closing connection from {}: it has not read its responses for {} ms ({} bytes waiting);"
                    + " see write-stall-timeout on the protocol", ch.remoteAddress(), stallMillis,
                    output != null ? output.pending() : ch.unsafe().outboundBuffer() == null ? 0
                            : ch.unsafe().outboundBuffer().totalPendingWriteBytes());
            ch.close();
        }
    }

    private void cancelStallCheck() {
        if (stallCheck != null) {
            stallCheck.cancel(false);
            stallCheck = null;
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        cancelStallCheck();
        super.channelInactive(ctx);
    }
}
