package io.kestrel.rpc.perf.compare.system;

import io.kestrel.rpc.perf.support.Workload;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.EventLoopGroup;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * The client half of the Netty baselines (raw echo and REST): one event loop group, one byte
 * counter at the head of every pipeline, and one {@link SyncConnection} per caller, which the
 * system's {@link CallerFactory} turns into a {@link Caller}.
 */
final class NettyClient implements BenchClient {
    /** Makes a caller of {@code workload} that exchanges its messages over {@code connection}. */
    interface CallerFactory {
        Caller create(Workload workload, SyncConnection connection);
    }

    private final EventLoopGroup group;
    private final ByteCountingHandler counter = new ByteCountingHandler();
    private final Consumer<ChannelPipeline> codec;
    private final String host;
    private final int port;
    private final Duration connectTimeout;
    private final CallerFactory callers;

    /**
     * @param threadName prefix of the event loop threads
     * @param codec adds the protocol handlers of each connection, after the byte counter
     */
    NettyClient(String threadName, String host, int port, Duration connectTimeout, Consumer<ChannelPipeline> codec,
            CallerFactory callers) {
        this.group = NettyGroups.create(threadName);
        this.host = host;
        this.port = port;
        this.connectTimeout = connectTimeout;
        this.codec = codec;
        this.callers = callers;
    }

    @Override
    public Caller newCaller(Workload workload) {
        return callers.create(workload, new SyncConnection(group, counter, codec, host, port, connectTimeout));
    }

    @Override
    public long bytesWritten() {
        return counter.bytesWritten();
    }

    @Override
    public long bytesRead() {
        return counter.bytesRead();
    }

    @Override
    public void close() {
        NettyGroups.shutdown(group);
    }
}
