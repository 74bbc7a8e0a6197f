package io.kestrel.rpc.transport.internal.dubbo;

import io.kestrel.rpc.transport.ServerDispatcher;
import io.kestrel.rpc.transport.TransportCounters;
import io.kestrel.rpc.transport.internal.Admission;
import io.kestrel.rpc.transport.internal.MemoryBudget;
import io.kestrel.rpc.transport.internal.PendingCalls;
import io.netty.channel.ChannelHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.timeout.IdleStateHandler;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/**
 * The provider pipeline of a port on the dubbo protocol, the shape of the native one with Dubbo's codecs:
 * bytes -> idle -> {@link DubboFrameDecoder} (payload limit and memory budget from the header) ->
 * {@link DubboRequestHandler} (heartbeats, method, serialization pinning, admission) => {@link DubboServerCall}
 * on the business executor -> {@link DubboResponseWriter}.
 */
public final class DubboPipeline {
    /**
     * Stock Dubbo consumers send a heartbeat after 60 s without traffic and give up after 180 s; a connection is
     * closed after this long without a byte, or the protocol's own heartbeat limit if longer.
     */
    public static final long MIN_IDLE_MILLIS = 180_000;

    private DubboPipeline() {
    }

    /**
     * The consumer pipeline of a connection to a dubbo provider:
     * bytes -> idle -> {@link DubboFrameDecoder} -> {@link DubboClientCodec} -> {@link DubboClientHeartbeat} ->
     * lifecycle.
     *
     * @param intervalMillis nothing written this long sends a heartbeat
     * @param silenceMillis nothing read this long closes the connection
     */
    public static void installClient(SocketChannel ch, ChannelHandler bytes, PendingCalls pending,
            TransportCounters counters, String address, int payloadBytes, long intervalMillis, long silenceMillis,
            ChannelHandler lifecycle) {
        ch.pipeline()
                .addLast("bytes", bytes)
                .addLast("idle", new IdleStateHandler(silenceMillis, intervalMillis, 0, TimeUnit.MILLISECONDS))
                .addLast("frame", new DubboFrameDecoder(payloadBytes, counters, null, 0))
                .addLast("codec", new DubboClientCodec(pending, counters, address, payloadBytes))
                .addLast("heartbeat", new DubboClientHeartbeat())
                .addLast("lifecycle", lifecycle);
    }

    /**
     * Adds the dubbo protocol's handlers after {@code bytes} (the byte counter).
     *
     * @param idleMillis the native protocol's idle limit (heartbeat x misses); at least {@link #MIN_IDLE_MILLIS}
     *     is used
     */
    public static void install(SocketChannel ch, ChannelHandler bytes, ServerDispatcher dispatcher,
            Admission admission, TransportCounters counters, MemoryBudget budget, int payloadBytes,
            long frameTimeoutMillis, long idleMillis, int callsPerConnection) {
        InetSocketAddress peer = ch.remoteAddress();
        String remote = peer == null ? "?" : peer.getHostString() + ":" + peer.getPort();
        DubboResponseWriter out = new DubboResponseWriter(ch, counters, payloadBytes, remote);
        ch.pipeline()
                .addLast("bytes", bytes)
                .addLast("idle", new IdleStateHandler(Math.max(idleMillis, MIN_IDLE_MILLIS), 0, 0,
                        TimeUnit.MILLISECONDS))
                .addLast("frame", new DubboFrameDecoder(payloadBytes, counters, budget, frameTimeoutMillis))
                .addLast("requests", new DubboRequestHandler(dispatcher, admission, out, callsPerConnection, budget,
                        remote));
    }
}
