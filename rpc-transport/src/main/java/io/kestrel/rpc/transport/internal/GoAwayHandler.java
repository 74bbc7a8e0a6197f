package io.kestrel.rpc.transport.internal;

import io.kestrel.rpc.transport.Status;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

/**
 * The provider's half of a graceful shutdown, for one connection: {@link #goAway} tells the
 * consumer to send nothing more here; the consumer's answer (an event frame with the same status)
 * proves that every request it sent before has arrived ({@link #drained}). One per connection.
 */
public final class GoAwayHandler extends ChannelInboundHandlerAdapter {
    private final ResponseWriter out;
    private volatile boolean sent;
    private volatile boolean acknowledged;

    public GoAwayHandler(ResponseWriter out) {
        this.out = out;
    }

    /** Sends the going-away notice once. */
    public void goAway() {
        if (!sent) {
            sent = true;
            out.event(Status.GOING_AWAY);
        }
    }

    /** True once the consumer acknowledged {@link #goAway}. */
    public boolean drained() {
        return acknowledged;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof Frame f && f.isEvent() && f.status == Status.GOING_AWAY.code()) {
            f.release();
            acknowledged = true;
            return;
        }
        ctx.fireChannelRead(msg);
    }
}
