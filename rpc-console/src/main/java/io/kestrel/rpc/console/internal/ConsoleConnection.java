package io.kestrel.rpc.console.internal;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The console's hold on one connection, first in its pipeline (auto-read is off): it reads the next request
 * only once the previous answer has been taken by the client, so a client that pipelines requests and never
 * reads holds one answer, not one per request, and occupies one worker slot at most; and it closes the
 * connection when a request does not arrive in full, or an answer is not taken, within the request timeout
 * ({@code rpc.console.request-timeout}): a client trickling a request a byte at a time, or never reading, does
 * not keep its connection. Closes are logged at most once per ten seconds. One per connection; event loop only.
 */
final class ConsoleConnection extends ChannelDuplexHandler {
    private static final Logger log = LoggerFactory.getLogger(ConsoleConnection.class);
    private static final long LOG_EVERY_NANOS = 10_000_000_000L;
    private static final AtomicLong LAST_LOG = new AtomicLong(System.nanoTime() - LOG_EVERY_NANOS);
    private static final AtomicLong CLOSED = new AtomicLong();

    private final long timeoutMillis;
    private ChannelHandlerContext ctx;
    private ScheduledFuture<?> deadline;
    private boolean receiving;

    ConsoleConnection(long timeoutMillis) {
        this.timeoutMillis = timeoutMillis;
    }

    /** Tells the connection of {@code ch} that a whole request arrived: its arrival is no longer timed. */
    static void requestArrived(Channel ch) {
        ConsoleConnection c = ch.pipeline().get(ConsoleConnection.class);
        if (c != null) {
            c.receiving = false;
            c.disarm();
        }
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        super.channelActive(ctx);
        ctx.channel().read(); // the first request
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (!receiving && msg instanceof ByteBuf b && b.isReadable()) {
            receiving = true;
            arm("a request did not arrive in full");
        }
        super.channelRead(ctx, msg);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) throws Exception {
        super.channelReadComplete(ctx);
        if (receiving) {
            ctx.channel().read(); // the rest of the request (the deadline is running)
        }
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) throws Exception {
        arm("its answer was not read");
        promise.addListener(f -> {
            disarm();
            if (f.isSuccess() && ctx.channel().isActive()) {
                ctx.channel().read(); // the next request, now that this answer is taken
            }
        });
        super.write(ctx, msg, promise);
    }

    private void arm(String what) {
        disarm();
        deadline = ctx.executor().schedule(() -> expire(what), timeoutMillis, TimeUnit.MILLISECONDS);
    }

    private void disarm() {
        if (deadline != null) {
            deadline.cancel(false);
            deadline = null;
        }
    }

    private void expire(String what) {
        deadline = null;
        long n = CLOSED.incrementAndGet();
        long now = System.nanoTime();
        long last = LAST_LOG.get();
        if (now - last >= LOG_EVERY_NANOS && LAST_LOG.compareAndSet(last, now)) {
            log.warn("Web console: closed the connection from {}: {} within {} ms (rpc.console.request-timeout);"
                    + " {} closed so far", ctx.channel().remoteAddress(), what, timeoutMillis, n);
        }
        ctx.close();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        disarm();
        super.channelInactive(ctx);
    }
}
