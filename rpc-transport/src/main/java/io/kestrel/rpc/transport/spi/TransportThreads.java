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
     * A group of {@code threads} NIO event loops, daemon threads named {@code name-N}, on whichever Netty line
     * (4.1 or 4.2) is on the class path: the kind the server and the client use.
     */
    public static EventLoopGroup eventLoops(int threads, String name) {
        return EventLoops.nio(threads, name);
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
