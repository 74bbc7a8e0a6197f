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
}
