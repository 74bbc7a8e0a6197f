package io.kestrel.rpc.api.stream;

/**
 * The sending side of a stream as Kestrel hands it out: the observer a provider method receives, the request
 * observer a bidirectional or client-streaming call returns, and the handle
 * {@link ClientResponseObserver#beforeStart} receives.
 *
 * <p>{@link #onNext} sends one message once the receiver has granted credit for it: while it has not (a slow
 * receiver), the call waits, at most until the call's deadline; on an I/O thread it does not wait but throws
 * {@link IllegalStateException}. Check {@link #isReady()} to avoid waiting. After the stream ended or was
 * cancelled, {@code onNext} throws {@link StreamCancelledException}. Call it from one thread at a time.
 *
 * @param <T> the message type
 */
public interface CallStreamObserver<T> extends StreamObserver<T> {
    /** True while a message can be sent without waiting: credit is left and the stream is open. */
    boolean isReady();

    /** True once the stream ended on this side or the peer cancelled it. */
    boolean isCancelled();

    /**
     * Ends the stream in both directions now; the peer's observer sees a {@link StreamCancelledException} naming
     * {@code reason}, and so does this side's receiving observer. Does nothing once the stream ended.
     */
    void cancel(String reason);

    /**
     * Switches this stream's receiving side to manual flow control: from now on the sender gets credit only for
     * the messages {@link #request} asks for, so the receiving observer is never handed more than it requested and
     * a slow reader holds the sender back message by message. On the consumer, call it before the stream opens, in
     * {@link ClientResponseObserver#beforeStart} (the {@link FlowStreams#publisher} does); on the provider, call it
     * on the response observer of a client or bidirectional streaming method before the method returns (as
     * grpc-java's {@code ServerCallStreamObserver.disableAutoRequest}; {@link FlowStreams#requests} does): the
     * consumer is then granted only what {@link #request} asks for, nothing until then.
     *
     * @throws IllegalStateException once the stream opened (consumer) or the method returned (provider)
     * @throws UnsupportedOperationException from an observer that has no receiving side of its own (a provider's
     *     server-streaming method receives no messages)
     */
    default void disableAutoRequest() {
        throw new UnsupportedOperationException(getClass().getName() + " has no manual flow control");
    }

    /**
     * With {@link #disableAutoRequest}: lets the sender send {@code n} more messages (granted to it in steps of at
     * most the window, {@code kestrel.rpc.stream.window}, as the observer takes them). Ignored under automatic flow
     * control and once the stream ended.
     *
     * @throws IllegalArgumentException when {@code n} is not positive
     */
    default void request(long n) {
        if (n <= 0) {
            throw new IllegalArgumentException("request(" + n + "): a stream is asked for at least 1 message");
        }
    }
}
