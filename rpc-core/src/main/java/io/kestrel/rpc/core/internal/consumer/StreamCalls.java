package io.kestrel.rpc.core.internal.consumer;

import io.kestrel.rpc.api.internal.StreamSignature;
import io.kestrel.rpc.api.stream.ClientResponseObserver;
import io.kestrel.rpc.api.stream.StreamObserver;
import io.kestrel.rpc.transport.StreamCall;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Function;

/**
 * Streaming methods on the consumer's side: the proxy opens a stream as a call, which goes through the interceptors
 * and the cluster like any other, ends when the stream ends, and is never retried.
 */
final class StreamCalls {
    private StreamCalls() {
    }

    /**
     * Opens the stream of a proxy call: returns null (server streaming) or the request observer.
     *
     * @param delivery the runtime's callback executor (marked {@link CallbackPool#direct}: the I/O thread)
     * @param send sends the call with the given arguments (the stream in place of the observer); its future ends
     *     with the stream
     */
    static Object open(MethodInfo info, Object[] args, Executor delivery,
            Function<Object[], CompletableFuture<Object>> send) {
        StreamSignature sig = info.ref.stream();
        Object given = args[sig.observerIndex()];
        if (!(given instanceof StreamObserver<?>)) {
            throw new IllegalArgumentException(info.ref.displayName() + " needs a StreamObserver for its answers as"
                    + " its last argument; it was null");
        }
        @SuppressWarnings("unchecked")
        StreamObserver<Object> responses = (StreamObserver<Object>) given;
        // callbacks=direct: the provider's messages reach the observer on the connection's I/O thread too
        StreamCall stream = StreamCall.create(responses,
                delivery instanceof CallbackPool.Direct ? StreamCall.IO_THREAD : delivery, sig.bidirectional());
        if (responses instanceof ClientResponseObserver<?> aware) {
            aware.beforeStart(stream);
        }
        Object[] sent = args.clone();
        sent[sig.observerIndex()] = stream;
        CompletableFuture<Object> ended;
        try {
            ended = send.apply(sent);
        } catch (RuntimeException e) {
            stream.callEnded(null, e);
            throw e;
        }
        ended.whenComplete(stream::callEnded); // also a failure before any connection saw it (no provider)
        return sig.bidirectional() ? stream : null;
    }
}
