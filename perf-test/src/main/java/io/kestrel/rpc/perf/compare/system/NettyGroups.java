package io.kestrel.rpc.perf.compare.system;

import io.kestrel.rpc.perf.server.BenchServer;
import io.kestrel.rpc.transport.spi.TransportThreads;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Event loop groups for the Netty baselines, sized to the machine and named for thread dumps, and
 * the server both Netty baselines run on.
 */
public final class NettyGroups {
    private NettyGroups() {
    }

    /**
     * A group with one thread per available processor, of the transport Kestrel's own connections use (native epoll
     * where it loads, else NIO), so the baselines and Kestrel are measured on the same one.
     */
    public static EventLoopGroup create(String name) {
        return TransportThreads.eventLoops(Runtime.getRuntime().availableProcessors(), name);
    }

    /** Shuts down without a quiet period and waits a bounded time. */
    public static void shutdown(EventLoopGroup group) {
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
    }

    /**
     * A server on 127.0.0.1 and a free port, TCP_NODELAY, on its own group of {@link #create} threads.
     * Closing it closes the listening channel, shuts the group down, then runs {@code afterClose}.
     *
     * @param pipeline adds the handlers of each accepted connection
     */
    public static BenchServer serve(String threadName, Consumer<ChannelPipeline> pipeline, Runnable afterClose)
            throws InterruptedException {
        EventLoopGroup group = create(threadName);
        Channel server;
        try {
            server = new ServerBootstrap()
                    .group(group)
                    .channel(TransportThreads.serverChannel())
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            pipeline.accept(ch.pipeline());
                        }
                    })
                    .bind("127.0.0.1", 0).sync().channel();
        } catch (InterruptedException | RuntimeException e) {
            shutdown(group);
            throw e;
        }
        return BenchServer.of(((InetSocketAddress) server.localAddress()).getPort(), () -> {
            server.close().awaitUninterruptibly(2000);
            shutdown(group);
            afterClose.run();
        });
    }
}
