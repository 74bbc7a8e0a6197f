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
 * this handler only notes that a write was made, and a check four times per interval reads the clock and
 * takes a noted write as made then, so a write costs one field store (reading the clock per write was 1-2% of a
 * pipelining consumer's event loop). The event therefore comes between one and one and a quarter intervals
 * after the last write. Not sharable; event loop only.
 */
public final class WriteIdleHandler extends ChannelDuplexHandler {
    private final long intervalNanos;
    /** How often the check looks whether a write was made. */
    private final long periodNanos;
    private long lastWriteNanos;
    /** A write was made since the last check. */
    private boolean wrote;
    private ScheduledFuture<?> check;
    private boolean firstIdle = true;

    public WriteIdleHandler(long interval, TimeUnit unit) {
        if (interval <= 0) {
            throw new IllegalArgumentException("write-idle interval must be > 0, was " + interval + " " + unit);
        }
        this.intervalNanos = unit.toNanos(interval);
        this.periodNanos = Math.max(1, intervalNanos / 4);
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
        wrote = true;
        ctx.write(msg, promise);
    }

    private void start(ChannelHandlerContext ctx) {
        if (check == null) {
            lastWriteNanos = System.nanoTime();
            check = ctx.executor().schedule(() -> check(ctx), periodNanos, TimeUnit.NANOSECONDS);
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
        long now = System.nanoTime();
        noteWrite(now);
        if (now - lastWriteNanos >= intervalNanos) {
            IdleStateEvent event = firstIdle ? IdleStateEvent.FIRST_WRITER_IDLE_STATE_EVENT
                    : IdleStateEvent.WRITER_IDLE_STATE_EVENT;
            firstIdle = false;
            ctx.fireUserEventTriggered(event);
            if (check == null) {
                return; // the event's handler closed the channel or removed this handler
            }
            noteWrite(now); // what the event's handler wrote at once (the heartbeat) was written now
        }
        long idle = now - lastWriteNanos;
        long next = idle >= intervalNanos ? intervalNanos : Math.min(periodNanos, intervalNanos - idle);
        check = ctx.executor().schedule(() -> check(ctx), next, TimeUnit.NANOSECONDS);
    }

    /** Takes a write made since the last look as made at {@code now}. */
    private void noteWrite(long now) {
        if (wrote) {
            wrote = false;
            lastWriteNanos = now;
            firstIdle = true;
        }
    }
}
