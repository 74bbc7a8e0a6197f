package io.kestrel.rpc.transport.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.util.ReferenceCountUtil;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The consumer's write-idle check over a real loopback connection: quiet while it writes, an event one to one and a
 * quarter intervals after the last write, and with a heartbeat written on each event, one event per interval.
 */
class WriteIdleHandlerTest {
    private static final long INTERVAL_MILLIS = 400;
    /**
     * This test's timestamps are taken on other instructions than the handler's clock reads (after a write's future
     * returns, when the recorder sees an event): a few milliseconds either way.
     */
    private static final long JITTER_MILLIS = 25;

    private EventLoopGroup group;
    private Channel client;
    /** Each event with the System.nanoTime it came at. */
    private final BlockingQueue<Object[]> events = new LinkedBlockingQueue<>();
    private final AtomicBoolean pingOnIdle = new AtomicBoolean();

    @BeforeEach
    void connect() throws InterruptedException {
        group = new NioEventLoopGroup(2);
        Channel server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInboundHandlerAdapter() {
                    @Override
                    public void channelRead(ChannelHandlerContext ctx, Object msg) {
                        ReferenceCountUtil.release(msg);
                    }
                }).bind("127.0.0.1", 0).sync().channel();
        client = new Bootstrap().group(group).channel(NioSocketChannel.class)
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast(new WriteIdleHandler(INTERVAL_MILLIS, TimeUnit.MILLISECONDS),
                                new ChannelInboundHandlerAdapter() {
                                    @Override
                                    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
                                        events.add(new Object[] {evt, System.nanoTime()});
                                        if (pingOnIdle.get()) { // as the heartbeat handler does
                                            ctx.writeAndFlush(Unpooled.wrappedBuffer(new byte[] {1}));
                                        }
                                    }
                                });
                    }
                }).connect(server.localAddress()).sync().channel();
    }

    @AfterEach
    void close() {
        client.close().syncUninterruptibly();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    private long write() {
        client.writeAndFlush(Unpooled.wrappedBuffer(new byte[] {0})).syncUninterruptibly();
        return System.nanoTime();
    }

    @Test
    void quietWhileWritingThenOneEventAnIntervalAfterTheLastWrite() throws InterruptedException {
        long last = 0;
        for (int i = 0; i < 20; i++) { // 1.2 s, every 60 ms
            last = write();
            Thread.sleep(60); // paces the writes: the check must see a write in each of its periods
        }
        assertNull(events.poll(), "no idle event while writing every 60 ms (interval " + INTERVAL_MILLIS + " ms)");
        Object[] first = events.poll(5, TimeUnit.SECONDS);
        assertNotNull(first, "no event after the writes stopped");
        assertEquals(IdleStateEvent.FIRST_WRITER_IDLE_STATE_EVENT, first[0]);
        long afterMillis = ((long) first[1] - last) / 1_000_000;
        assertTrue(afterMillis >= INTERVAL_MILLIS - JITTER_MILLIS, "the event came " + afterMillis
                + " ms after the last write");
        assertTrue(afterMillis < INTERVAL_MILLIS * 5 / 4 + 300, "the event came " + afterMillis
                + " ms after the last write, more than a quarter interval late (plus 300 ms for a busy machine)");
        Object[] second = events.poll(5, TimeUnit.SECONDS);
        assertNotNull(second);
        assertEquals(IdleStateEvent.WRITER_IDLE_STATE_EVENT, second[0], "still nothing written: not a first event");
    }

    @Test
    void aHeartbeatWrittenOnEachEventKeepsThemOneIntervalApart() throws InterruptedException {
        pingOnIdle.set(true);
        write();
        Object[] previous = events.poll(5, TimeUnit.SECONDS);
        assertNotNull(previous);
        long totalMillis = 0;
        int gaps = 4;
        for (int i = 0; i < gaps; i++) {
            Object[] next = events.poll(5, TimeUnit.SECONDS);
            assertNotNull(next, "no event after a heartbeat");
            assertEquals(IdleStateEvent.FIRST_WRITER_IDLE_STATE_EVENT, next[0], "the heartbeat was a write");
            long gap = ((long) next[1] - (long) previous[1]) / 1_000_000;
            assertTrue(gap >= INTERVAL_MILLIS - JITTER_MILLIS, "events " + gap + " ms apart");
            totalMillis += gap;
            previous = next;
        }
        long mean = totalMillis / gaps;
        assertTrue(mean < INTERVAL_MILLIS * 7 / 4, "events " + mean + " ms apart on average: a heartbeat must not"
                + " be taken for a write made a check later (that spaces them two intervals apart)");
    }
}
