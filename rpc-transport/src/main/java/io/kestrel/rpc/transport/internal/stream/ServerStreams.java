package io.kestrel.rpc.transport.internal.stream;

import io.kestrel.rpc.api.config.ServerLimits;
import io.kestrel.rpc.api.serialization.Serializer;
import io.kestrel.rpc.api.stream.StreamLimits;
import io.kestrel.rpc.transport.spi.ServerMethod;
import io.kestrel.rpc.transport.internal.Frame;
import io.kestrel.rpc.transport.internal.ResponseWriter;
import io.netty.channel.Channel;
import java.util.ArrayList;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The open streams of one provider connection, by stream id: at most {@link StreamLimits#maxPerConnection()}.
 * Routes the consumer's stream frames to them and ends them all when the connection closes. Thread-safe.
 */
public final class ServerStreams {
    private static final Logger log = LoggerFactory.getLogger(ServerStreams.class);
    private final ConcurrentHashMap<Long, ServerStream> open = new ConcurrentHashMap<>();
    /** The streams frames were routed to lately: their next frames skip the map. */
    private final RecentStreams<ServerStream> recent = new RecentStreams<>();
    private final int max = StreamLimits.maxPerConnection();
    private final long idleMillis;

    /** With the default {@code stream-idle-timeout}. */
    public ServerStreams() {
        this(ServerLimits.defaults().streamIdleTimeout().toMillis());
    }

    /** @param idleMillis the protocol's {@code stream-idle-timeout} (0: off) */
    public ServerStreams(long idleMillis) {
        this.idleMillis = idleMillis;
    }

    /**
     * Opens the stream of a request to a streaming method (event loop, before the call is handed off), and for one
     * that takes a stream of requests starts the consumer's idle timer; the consumer is granted credit once the
     * method returned ({@link ServerStream#started}), so the method may switch to manual flow control first.
     *
     * @return the stream, or null when the connection has {@link StreamLimits#maxPerConnection()} open or the id is
     *     in use (the caller refuses the call; {@link #refusal} says why)
     */
    public ServerStream open(Frame request, ServerMethod method, Serializer serializer, ResponseWriter out,
            Channel channel, long deadlineNanos, int payloadBytes, Executor delivery) {
        if (open.size() >= max || open.containsKey(request.requestId)) {
            return null;
        }
        ServerStream stream = new ServerStream(request, method, serializer, out, channel, this, deadlineNanos,
                payloadBytes, delivery);
        open.put(request.requestId, stream);
        if (method.stream().bidirectional() && idleMillis > 0) {
            stream.watchIdle(idleMillis);
        }
        return stream;
    }

    /** Why {@link #open} refused the stream of {@code request}. */
    public String refusal(Frame request) {
        return open.containsKey(request.requestId) ? "stream " + request.requestId + " is already open on this"
                + " connection; a consumer opens each stream with a new request id"
                : "the connection has " + max + " streams open, its limit (-D" + StreamLimits.MAX_PER_CONNECTION_PROPERTY
                + "); the stream did not start. Retry later or end streams first";
    }

    void remove(long id, ServerStream stream) {
        open.remove(id, stream);
        recent.forget(id, stream);
    }

    /** Streams open now. */
    public int size() {
        return open.size();
    }

    /**
     * Routes a stream frame from the consumer (event loop).
     *
     * @return true when the frame was kept (released once delivered); false when the caller releases it
     */
    public boolean onFrame(Frame f) {
        ServerStream stream = recent.get(f.requestId);
        if (stream == null) {
            stream = open.get(f.requestId);
            recent.put(f.requestId, stream);
        }
        if (stream == null) {
            log.debug("Stream frame for stream {}, which is not open (it ended); dropped", f.requestId);
            return false;
        }
        stream.consumerSent(f);
        return stream.onFrame(f);
    }

    /** Cancels every open stream with {@code reason} (both directions end; the consumer is told the reason). */
    public void cancelAll(String reason) {
        for (ServerStream stream : new ArrayList<>(open.values())) {
            stream.cancel(reason);
        }
    }

    /** The connection closed: every open stream ends. */
    public void closeAll() {
        for (ServerStream stream : new ArrayList<>(open.values())) {
            stream.connectionClosed();
        }
    }
}
