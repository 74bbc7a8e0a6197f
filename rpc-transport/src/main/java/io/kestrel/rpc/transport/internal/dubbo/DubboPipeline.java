package io.kestrel.rpc.transport.internal.dubbo;

import io.kestrel.rpc.transport.TransportCounters;
import io.kestrel.rpc.transport.internal.BoundedFrameDecoder;
import io.kestrel.rpc.transport.internal.MemoryBudget;
import io.kestrel.rpc.transport.internal.PendingCalls;
import io.kestrel.rpc.transport.internal.ResponseQueue;
import io.kestrel.rpc.transport.internal.ServerPipeline;
import io.kestrel.rpc.transport.spi.ServerDispatcher;
import io.netty.channel.ChannelHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.timeout.IdleStateHandler;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/**
 * The dubbo protocol's part of a provider connection ({@link ServerPipeline}: connection limits, idle,
 * backpressure and the memory budget are the same as the native protocol's): {@link DubboFrameDecoder} (payload
 * limit and memory budget from the header, frame timeout) -> {@link DubboRequestHandler} (heartbeats, method,
 * serialization pinning, admission) => {@link DubboServerCall} on the business executor ->
 * {@link DubboResponseWriter}. One per server.
 */
public final class DubboPipeline implements ServerPipeline.Protocol {
    /**
     * Stock Dubbo consumers send a heartbeat after 60 s without traffic and give up after 180 s; a connection is
     * closed after this long without a byte, or the protocol's own heartbeat limit if longer.
     */
    public static final long MIN_IDLE_MILLIS = 180_000;

    /**
     * System property: a dubbo request's arguments must be decoded within this many milliseconds of its frame's
     * arrival, else decoding stops there and the call is answered "server timeout". The native port stops at the
     * caller's deadline, which it reads before the arguments; a dubbo caller's timeout travels in the attachments,
     * after them. Read when a dubbo port starts.
     */
    public static final String DECODE_DEADLINE_PROPERTY = "kestrel.rpc.dubbo.decodeDeadlineMillis";
    public static final long DEFAULT_DECODE_DEADLINE_MILLIS = 10_000;

    private final ServerDispatcher dispatcher;
    private final long decodeDeadlineMillis = decodeDeadlineMillis();

    public DubboPipeline(ServerDispatcher dispatcher) {
        this.dispatcher = dispatcher;
    }

    /**
     * {@value #DECODE_DEADLINE_PROPERTY}, or {@value #DEFAULT_DECODE_DEADLINE_MILLIS}.
     *
     * @throws IllegalArgumentException naming the property when it is not a positive whole number
     */
    public static long decodeDeadlineMillis() {
        String text = System.getProperty(DECODE_DEADLINE_PROPERTY);
        if (text == null) {
            return DEFAULT_DECODE_DEADLINE_MILLIS;
        }
        try {
            long value = Long.parseLong(text.trim());
            if (value > 0) {
                return value;
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw new IllegalArgumentException("-D" + DECODE_DEADLINE_PROPERTY + "=" + text + " is not a positive number"
                + " of milliseconds (default " + DEFAULT_DECODE_DEADLINE_MILLIS + ")");
    }

    /**
     * The consumer pipeline of a connection to a dubbo provider:
     * bytes -> idle -> {@link DubboFrameDecoder} (payload limit, memory budget and frame timeout, as a native
     * consumer connection's) -> {@link DubboClientCodec} -> {@link DubboClientHeartbeat} ->
     * lifecycle.
     *
     * @param budget the consumer's memory budget for responses (shared with its native connections)
     * @param frameTimeoutMillis a response frame incomplete this long after its first byte closes the connection
     * @param intervalMillis nothing written this long sends a heartbeat
     * @param silenceMillis nothing read this long closes the connection
     */
    public static void installClient(SocketChannel ch, ChannelHandler bytes, PendingCalls pending,
            TransportCounters counters, String address, int payloadBytes, MemoryBudget budget, long frameTimeoutMillis,
            long intervalMillis, long silenceMillis, ChannelHandler lifecycle) {
        ch.pipeline()
                .addLast("bytes", bytes)
                .addLast("idle", new IdleStateHandler(silenceMillis, intervalMillis, 0, TimeUnit.MILLISECONDS))
                .addLast("frame", DubboFrameDecoder.consumer(payloadBytes, counters, budget, frameTimeoutMillis))
                .addLast("codec", new DubboClientCodec(pending, counters, address, payloadBytes, budget))
                .addLast("heartbeat", new DubboClientHeartbeat())
                .addLast("lifecycle", lifecycle);
    }

    /** The native protocol's idle limit (heartbeat x misses), but at least {@link #MIN_IDLE_MILLIS}. */
    @Override
    public long readIdleMillis(ServerPipeline.Guards guards) {
        return Math.max(guards.idleMillis(), MIN_IDLE_MILLIS);
    }

    @Override
    public BoundedFrameDecoder frameDecoder(ServerPipeline.Guards g, ResponseQueue output) {
        return new DubboFrameDecoder(g.payloadBytes(), g.counters(), g.budget(), g.frameTimeoutMillis(), output);
    }

    @Override
    public void addHandlers(SocketChannel ch, ServerPipeline.Guards g, ResponseQueue output) {
        InetSocketAddress peer = ch.remoteAddress();
        String remote = peer == null ? "?" : peer.getHostString() + ":" + peer.getPort();
        DubboResponseWriter out = new DubboResponseWriter(ch, output, g.payloadBytes(), remote);
        ch.pipeline().addLast("requests", new DubboRequestHandler(dispatcher, g.admission(), out,
                g.callsPerConnection(), g.budget(), remote, decodeDeadlineMillis));
    }
}
