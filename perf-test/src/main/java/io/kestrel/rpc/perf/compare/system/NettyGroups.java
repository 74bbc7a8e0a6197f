package io.kestrel.rpc.perf.compare.system;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.util.concurrent.TimeUnit;

/** Event loop groups for the baselines, sized to the machine and named for thread dumps. */
final class NettyGroups {
    private NettyGroups() {
    }

    /** A NIO group with one thread per available processor. */
    static EventLoopGroup create(String name) {
        return new MultiThreadIoEventLoopGroup(Runtime.getRuntime().availableProcessors(),
                new DefaultThreadFactory(name, true), NioIoHandler.newFactory());
    }

    /** Shuts down without a quiet period and waits a bounded time. */
    static void shutdown(EventLoopGroup group) {
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
    }
}
