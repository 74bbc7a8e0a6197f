package io.kestrel.rpc.transport.internal;

import io.kestrel.rpc.transport.spi.ConnectionLimiter;
import io.kestrel.rpc.transport.TransportCounters;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.timeout.IdleStateHandler;
import java.util.concurrent.TimeUnit;

/**
 * The one way a provider connection is set up, whatever wire protocol its port speaks: every protocol gets the
 * same hostile-input contract, and adds only its own codecs and request handling.
 *
 * <pre>
 *  accept: connection limits (max-connections, max-connections-per-host) ({@link ConnectionLimiter})
 *  bytes -> [protocol's first handlers: TLS detection] -> idle (silent connections closed)
 *   -> backpressure (peer not reading its answers: stop reading; write-stall-timeout closes) ({@link BackpressureHandler})
 *   -> frame: the protocol's {@link BoundedFrameDecoder} (payload limit and memory-budget from the header,
 *      frame-timeout, nothing decoded while the answers are full)
 *   -> the protocol's handlers: admission under calls-per-connection and the business pool ({@link Admission}),
 *      arguments decoded within the serializer's decode limits
 *   => every answer through the connection's {@link ResponseQueue} (counted in memory-budget until written)
 * </pre>
 *
 * A protocol cannot leave a step out: its decoder must be a {@link BoundedFrameDecoder} (which takes the budget,
 * the frame timeout and the queue), and the only writer it is handed is the queue this class made for the
 * connection. {@code PortContractTest} (rpc-core) runs the shared attack suite against every protocol
 * name a port accepts.
 */
public final class ServerPipeline {
    private ServerPipeline() {
    }

    /**
     * A port's limits and the state its connections share (one per server).
     *
     * @param bytes the byte counter, first on every pipeline
     * @param idleMillis nothing read this long closes a connection (a protocol may ask for longer)
     * @param streamIdleMillis a stream's consumer holding credit and sending nothing this long has it ended (0: never)
     */
    public record Guards(ConnectionLimiter limiter, Admission admission, MemoryBudget budget,
            TransportCounters counters, ChannelHandler bytes, int payloadBytes, int callsPerConnection,
            long frameTimeoutMillis, long writeStallMillis, int writeBufferBytes, long idleMillis,
            long streamIdleMillis) {
    }

    /** What one wire protocol adds to {@link #install}'s shared steps. */
    public interface Protocol {
        /** Handlers that must see a connection's first bytes before the frame decoder (TLS detection). */
        default void addFirst(ChannelPipeline pipeline) {
        }

        /** Nothing read this long closes a connection. */
        default long readIdleMillis(Guards guards) {
            return guards.idleMillis();
        }

        /** The protocol's frame decoder, held to the budget, frame timeout and answer queue of {@code guards}. */
        BoundedFrameDecoder frameDecoder(Guards guards, ResponseQueue output);

        /** Adds the handlers that answer requests, after the frame decoder, writing through {@code output}. */
        void addHandlers(SocketChannel ch, Guards guards, ResponseQueue output);
    }

    /**
     * Sets up a newly accepted connection, or closes it when a connection limit is reached.
     *
     * @return false when the connection was refused
     */
    public static boolean install(SocketChannel ch, Guards guards, Protocol protocol) {
        if (!guards.limiter().admit(ch)) {
            ch.close();
            return false;
        }
        ResponseQueue output = new ResponseQueue(ch, guards.counters(), guards.budget(), guards.writeBufferBytes());
        ChannelPipeline p = ch.pipeline().addLast("bytes", guards.bytes());
        protocol.addFirst(p);
        p.addLast("idle", new IdleStateHandler(protocol.readIdleMillis(guards), 0, 0, TimeUnit.MILLISECONDS))
                .addLast("backpressure", new BackpressureHandler(guards.writeStallMillis(), output))
                .addLast("frame", protocol.frameDecoder(guards, output));
        protocol.addHandlers(ch, guards, output);
        return true;
    }
}
