package io.kestrel.rpc.transport.spi;

import io.kestrel.rpc.transport.internal.BusinessExecutor;
import io.kestrel.rpc.transport.internal.EventLoops;
import io.netty.channel.EventLoopGroup;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadFactory;

/**
 * The transport's threads for the framework's other modules (the console's HTTP server, the perf tools), so that they
 * run on what the provider runs on without reaching into the transport's internals.
 */
public final class TransportThreads {
    private TransportThreads() {
    }

    /**
     * A group of {@code threads} event loops, daemon threads named {@code name-N}, on whichever Netty line (4.1 or
     * 4.2) is on the class path: the kind the server and the client use (native epoll where it loads, else NIO; its
     * channel types are {@link #socketChannel} and {@link #serverChannel}).
     */
    public static EventLoopGroup eventLoops(int threads, String name) {
        return EventLoops.group(threads, name);
    }

    /** The socket channel type of the groups {@link #eventLoops} makes (native epoll where available, else NIO). */
    public static Class<? extends io.netty.channel.socket.SocketChannel> socketChannel() {
        return EventLoops.socketChannel();
    }

    /** The listening channel type of the groups {@link #eventLoops} makes. */
    public static Class<? extends io.netty.channel.socket.ServerSocketChannel> serverChannel() {
        return EventLoops.serverChannel();
    }

    /**
     * A business pool as a provider's: at most {@code maxThreads} workers, then up to {@code queueCapacity} waiting
     * tasks, then {@link java.util.concurrent.RejectedExecutionException}; idle workers exit after {@code keepAlive}.
     */
    public static ExecutorService businessPool(int maxThreads, int queueCapacity, Duration keepAlive,
            ThreadFactory threadFactory) {
        return new BusinessExecutor(maxThreads, queueCapacity, keepAlive, threadFactory);
    }
}
