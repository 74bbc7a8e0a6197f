package io.kestrel.rpc.transport;

import io.kestrel.rpc.api.stream.CallStreamObserver;
import io.kestrel.rpc.api.stream.StreamObserver;
import io.kestrel.rpc.transport.internal.stream.ClientStream;
import java.util.concurrent.Executor;

/**
 * The consumer's side of one stream, made by the proxy before the call and passed in the call's arguments in place
 * of the response observer; {@link Connection#invoke} opens it with the call. It is the request observer of a
 * client-streaming or bidirectional call, and the handle that cancels a server stream.
 */
public interface StreamCall extends CallStreamObserver<Object> {
    /**
     * The delivery that hands the provider's messages (and the stream's end) to the response observer on the I/O
     * thread of the stream's connection, without a hand-off: for a runtime whose callbacks never block
     * ({@code callbacks=direct}). A message the observer sends from there needs credit ({@link #isReady()}): without
     * it, {@code onNext} fails with an {@link IllegalStateException} instead of waiting. Pass it to
     * {@link #create}; it runs nothing itself.
     */
    Executor IO_THREAD = task -> {
        throw new UnsupportedOperationException("StreamCall.IO_THREAD marks delivery on the connection's I/O thread;"
                + " pass it to StreamCall.create");
    };

    /**
     * A stream whose provider messages reach {@code responses} on {@code delivery} (one at a time, in order).
     *
     * @param requestsStream whether the consumer sends messages too (client or bidirectional streaming)
     */
    static StreamCall create(StreamObserver<Object> responses, Executor delivery, boolean requestsStream) {
        return new ClientStream(responses, delivery, requestsStream);
    }

    /**
     * The call that carries the stream ended (its response, or a failure): the response observer hears the end
     * after the messages before it. Idempotent; the first end counts.
     */
    void callEnded(Object value, Throwable error);

    /** {@code listener} sees the stream's messages (both directions) and, after the last one delivered, its end. */
    void addListener(io.kestrel.rpc.api.interceptor.StreamListener listener);
}
