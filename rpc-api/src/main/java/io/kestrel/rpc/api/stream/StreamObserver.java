package io.kestrel.rpc.api.stream;

/**
 * Receives the messages of one direction of a stream: any number of {@link #onNext} calls, then exactly one of
 * {@link #onCompleted} or {@link #onError} (the shape gRPC and Dubbo's Triple use).
 *
 * <p>In a service interface, a method whose last parameter is a {@code StreamObserver<Resp>} is a streaming
 * method: returning {@code void}, it answers one request with a stream ({@code void feed(Req r,
 * StreamObserver<Resp> out)}); returning {@code StreamObserver<Req>}, it takes a stream of requests and answers
 * with a stream (bidirectional) or with one message (client streaming): {@code StreamObserver<Req>
 * upload(StreamObserver<Resp> out)}.
 *
 * <p>Kestrel calls an observer you give it from one thread at a time, in message order, never on an I/O thread.
 * The observers Kestrel gives you (a provider's {@code out}, a consumer's returned request observer) are
 * {@link CallStreamObserver}s: their {@code onNext} waits while the receiver has granted no credit (see
 * {@code docs/streaming.md}, flow control), and they must be called from one thread at a time.
 *
 * @param <T> the message type
 */
public interface StreamObserver<T> {
    /** One message. */
    void onNext(T value);

    /** The stream ended with {@code error}; nothing follows. */
    void onError(Throwable error);

    /** The stream ended normally (the sender half-closed); nothing follows. */
    void onCompleted();
}
