package io.kestrel.rpc.api.stream;

/**
 * A consumer's response observer that wants the stream's handle before the first message: to
 * {@linkplain CallStreamObserver#cancel cancel} a server stream, or to look at {@link CallStreamObserver#isReady()}.
 *
 * @param <T> the response message type
 */
public interface ClientResponseObserver<T> extends StreamObserver<T> {
    /**
     * Called once, on the calling thread, before the call is sent. For a server-streaming method the handle sends
     * no messages ({@code onNext} throws {@link IllegalStateException}); it cancels.
     */
    void beforeStart(CallStreamObserver<?> stream);
}
