package io.kestrel.rpc.perf.compare.system;

import io.kestrel.rpc.transport.spi.TransportThreads;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.util.ReferenceCountUtil;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * One Netty client connection used by one thread for strictly sequential request/response
 * exchanges: write, then wait for the next inbound message. The event loop only hands messages over;
 * decoding of the body happens on the calling thread. After a timeout or failure the connection is
 * closed, and the next exchange reconnects, so that a late answer is never taken for the next one.
 *
 * <p>Not thread-safe: one caller thread per instance.
 */
final class SyncConnection implements AutoCloseable {
    private static final Object CLOSED = new Object();

    private final Bootstrap bootstrap;
    private final String host;
    private final int port;
    private final BlockingQueue<Object> inbox = new ArrayBlockingQueue<>(16);
    private final ChannelFutureListener onWritten = f -> {
        if (!f.isSuccess()) {
            inbox.offer(f.cause());
        }
    };
    private Channel channel;

    /**
     * @param codec adds the protocol handlers after the byte counter; the inbox handler goes last
     */
    SyncConnection(EventLoopGroup group, ByteCountingHandler counter, Consumer<ChannelPipeline> codec, String host,
            int port, Duration connectTimeout) {
        this.host = host;
        this.port = port;
        this.bootstrap = new Bootstrap()
                .group(group)
                .channel(TransportThreads.socketChannel())
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) connectTimeout.toMillis())
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast("bytes", counter);
                        codec.accept(ch.pipeline());
                        ch.pipeline().addLast("inbox", new InboxHandler());
                    }
                });
    }

    /**
     * Writes {@code request} (ownership passes to Netty) and returns the next inbound message, which
     * the caller must release.
     */
    Object exchange(Object request, Duration timeout) throws Exception {
        Channel ch = channel();
        drainStale();
        ch.writeAndFlush(request).addListener(onWritten);
        Object answer = inbox.poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
        if (answer == null) {
            closeChannel();
            throw new TimeoutException("no answer from " + host + ":" + port + " within " + timeout.toMillis() + " ms");
        }
        if (answer == CLOSED) {
            closeChannel();
            throw new IOException("connection to " + host + ":" + port + " closed before the answer arrived");
        }
        if (answer instanceof Throwable t) {
            closeChannel();
            throw new IOException("call to " + host + ":" + port + " failed: " + t, t);
        }
        return answer;
    }

    private Channel channel() throws InterruptedException, IOException {
        Channel ch = channel;
        if (ch == null || !ch.isActive()) {
            closeChannel();
            inbox.clear();
            var f = bootstrap.connect(host, port).await();
            if (!f.isSuccess()) {
                throw new IOException("cannot connect to " + host + ":" + port + ": " + f.cause(), f.cause());
            }
            ch = f.channel();
            channel = ch;
        }
        return ch;
    }

    private void drainStale() {
        Object stale;
        while ((stale = inbox.poll()) != null) {
            ReferenceCountUtil.release(stale);
        }
    }

    private void closeChannel() {
        Channel ch = channel;
        channel = null;
        if (ch != null) {
            ch.close().awaitUninterruptibly(1000);
        }
        drainStale();
    }

    @Override
    public void close() {
        closeChannel();
    }

    /** Hands every inbound message to the waiting thread; reports close and errors the same way. */
    private final class InboxHandler extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (!inbox.offer(msg)) {
                ReferenceCountUtil.release(msg);
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            inbox.offer(CLOSED);
            ctx.fireChannelInactive();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            inbox.offer(cause);
            ctx.close();
        }
    }
}
