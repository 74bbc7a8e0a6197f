package io.kestrel.rpc.transport.internal;

import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.timeout.IdleStateEvent;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Fires {@link IdleStateEvent#WRITER_IDLE_STATE_EVENT} when nothing was written for an interval (the
 * consumer's heartbeat then pings). Netty's {@code IdleStateHandler} tracks writes by their completion,
 * which turns every write's void promise into a real one with a listener (two objects per write);
 * this handler notes the time a write is made instead, so a write costs nothing here. Not sharable;
 * event loop only.
 */
public final class WriteIdleHandler extends ChannelDuplexHandler {
    private final long intervalNanos;
    private long lastWriteNanos;
    private ScheduledFuture<?> check;
    private boolean firstIdle = true;

    public WriteIdleHandler(long interval, TimeUnit unit) {
        if (interval <= 0) {
            throw new IllegalArgumentException("write-idle interval must be > 0, was " + interval + " " + unit);
        }
        this.intervalNanos = unit.toNanos(interval);
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        if (ctx.channel().isActive()) {
            start(ctx);
        }
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        start(ctx);
        super.channelActive(ctx);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        stop();
        super.channelInactive(ctx);
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        stop();
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        lastWriteNanos = System.nanoTime();
        firstIdle = true;
        ctx.write(msg, promise);
    }

    private void start(ChannelHandlerContext ctx) {
        if (check == null) {
            lastWriteNanos = System.nanoTime();
            check = ctx.executor().schedule(() -> check(ctx), intervalNanos, TimeUnit.NANOSECONDS);
        }
    }

    private void stop() {
        if (check != null) {
            check.cancel(false);
            check = null;
        }
    }

    private void check(ChannelHandlerContext ctx) {
        if (check == null || !ctx.channel().isOpen()) {
            return;
        }
        long idle = System.nanoTime() - lastWriteNanos;
        if (idle >= intervalNanos) {
            check = ctx.executor().schedule(() -> check(ctx), intervalNanos, TimeUnit.NANOSECONDS);
            IdleStateEvent event = firstIdle ? IdleStateEvent.FIRST_WRITER_IDLE_STATE_EVENT
                    : IdleStateEvent.WRITER_IDLE_STATE_EVENT;
            firstIdle = false;
            ctx.fireUserEventTriggered(event);
        } else {
            check = ctx.executor().schedule(() -> check(ctx), intervalNanos - idle, TimeUnit.NANOSECONDS);
        }
    }
}
