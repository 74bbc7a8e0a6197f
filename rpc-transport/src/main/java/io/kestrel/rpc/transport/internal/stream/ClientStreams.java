package io.kestrel.rpc.transport.internal.stream;

import io.kestrel.rpc.transport.internal.Frame;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The open streams of one consumer connection, by stream id, for the codec to route the provider's stream frames.
 * A stream leaves when its call ends; every call (streams included) fails when the connection closes, so nothing
 * stays here. Thread-safe.
 */
public final class ClientStreams {
    private static final Logger log = LoggerFactory.getLogger(ClientStreams.class);
    private final ConcurrentHashMap<Long, ClientStream> open = new ConcurrentHashMap<>();
    /** The streams frames were routed to lately: their next frames skip the map. */
    private final RecentStreams<ClientStream> recent = new RecentStreams<>();
    /** The connection's pending calls, streams included. */
    private final IntSupplier pendingCalls;

    /** @param pendingCalls the connection's pending calls, the calls that opened streams included */
    public ClientStreams(IntSupplier pendingCalls) {
        this.pendingCalls = pendingCalls;
    }

    void add(long id, ClientStream stream) {
        open.put(id, stream);
    }

    void remove(long id, ClientStream stream) {
        open.remove(id, stream);
        recent.forget(id, stream);
    }

    /** Streams open now. */
    public int size() {
        return open.size();
    }

    /** Whether calls other than streams wait for answers on this connection now. */
    boolean unaryWaiting() {
        return pendingCalls.getAsInt() > open.size();
    }

    /** Cancels every open stream with {@code reason}: the provider is told it, and each response observer fails. */
    public void cancelAll(String reason) {
        for (ClientStream stream : new java.util.ArrayList<>(open.values())) {
            stream.cancel(reason);
        }
    }

    /**
     * Routes a stream frame from the provider (event loop).
     *
     * @return true when the frame was kept (released once delivered); false when the caller releases it
     */
    public boolean onFrame(Frame f) {
        ClientStream stream = recent.get(f.requestId);
        if (stream == null) {
            stream = open.get(f.requestId);
            recent.put(f.requestId, stream);
        }
        if (stream == null) {
            log.debug("Stream frame for stream {}, which is not open (it ended); dropped", f.requestId);
            return false;
        }
        return stream.onFrame(f);
    }
}
