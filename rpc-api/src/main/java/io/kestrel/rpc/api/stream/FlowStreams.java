package io.kestrel.rpc.api.stream;

import java.util.Objects;
import java.util.concurrent.Flow;
import java.util.function.Consumer;

/**
 * {@link Flow} adapters for streams, for Reactor, RxJava and anything else that speaks {@code java.util.concurrent
 * .Flow} (Reactor's {@code JdkFlowAdapter}, RxJava's {@code FlowAdapters}): no reactive library is needed here.
 *
 * <ul>
 *   <li>{@link #publisher}: a consumer's stream of answers as a {@link Flow.Publisher}. Each subscriber opens its
 *       own stream; its {@code request(n)} is the credit the provider gets (manual flow control,
 *       {@link CallStreamObserver#disableAutoRequest}), so the demand reaches the sender and the provider sends no
 *       more than was requested; {@code cancel()} cancels the stream at the provider.</li>
 *   <li>{@link #feed}: a {@link Flow.Publisher} sent into a stream: a consumer's request observer (client or
 *       bidirectional streaming) or a provider's response observer.</li>
 *   <li>{@link #requests}: on the provider, the consumer's messages of a client or bidirectional stream as a
 *       {@link Flow.Publisher}; its subscriber's {@code request(n)} is the credit the consumer gets (manual flow
 *       control on the provider), so the consumer's sender waits for the subscriber's demand.</li>
 * </ul>
 *
 * The Reactive Streams rules hold: {@code onSubscribe} first, no {@code onNext} beyond the demand, one terminal
 * signal ({@code onError} or {@code onComplete}) and none after a cancel, a non-positive request is an
 * {@code onError(IllegalArgumentException)} that cancels the stream.
 */
public final class FlowStreams {
    private FlowStreams() {
    }

    /**
     * A publisher of the answers of a streaming call: {@code open} makes the call with the observer it is given,
     * e.g. {@code FlowStreams.publisher(out -> feeds.prices("ACME", out))}. It is cold: every subscriber makes the
     * call again. Signals reach the subscriber on the runtime's callback executor, one at a time.
     *
     * @param open makes the streaming call with this observer as its response observer (the call's own exceptions
     *     reach the subscriber's {@code onError})
     */
    public static <T> Flow.Publisher<T> publisher(Consumer<StreamObserver<T>> open) {
        Objects.requireNonNull(open, "open");
        return subscriber -> {
            Objects.requireNonNull(subscriber, "subscriber");
            StreamSubscription<T> subscription = new StreamSubscription<>(subscriber);
            subscriber.onSubscribe(subscription);
            if (subscription.cancelledBeforeStart()) {
                return;
            }
            try {
                open.accept(subscription);
            } catch (RuntimeException e) {
                subscription.onError(e);
            }
        };
    }

    /**
     * Subscribes to {@code source} and sends what it publishes into {@code target}, then half-closes (consumer) or
     * completes (provider) it when the publisher completes, or ends it with the publisher's error (a provider's
     * stream then fails with it; a consumer's request stream is cancelled). It asks the publisher for at most one
     * window of messages ahead ({@code kestrel.rpc.stream.window}) and sends each on the publisher's thread, which
     * waits while the receiver has granted no credit (so a slow receiver slows the publisher, and nothing piles up
     * in between): publish on a thread that may wait, not an I/O thread. Once the stream is over (the peer
     * cancelled, the deadline passed, a message could not be sent), the publisher's subscription is cancelled at
     * its next message.
     */
    public static <T> void feed(Flow.Publisher<? extends T> source, StreamObserver<? super T> target) {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(target, "target");
        source.subscribe(new StreamFeeder<T>(target, StreamLimits.window()));
    }

    /**
     * On the provider, inside a client or bidirectional streaming method: the consumer's messages as a
     * {@link Flow.Publisher} handed to {@code use}, and the request observer the method returns, e.g.
     * {@code return FlowStreams.requests(out, in -> FlowStreams.feed(transform(in), out));}. The stream runs under
     * manual flow control ({@link CallStreamObserver#disableAutoRequest} on {@code responses}): the consumer is
     * granted exactly what the subscriber requests (in steps of at most a window, {@code kestrel.rpc.stream.window})
     * and nothing before it subscribes, so its sender waits for the subscriber's demand (at most until the call's
     * deadline). The publisher takes one subscriber, now or later, from any thread; a second one gets
     * {@code onError(IllegalStateException)}. Items arrive in order on the business pool, one at a time, then
     * {@code onComplete} when the consumer half-closes, or {@code onError} with the stream's end
     * ({@link StreamCancelledException}: the consumer cancelled, the deadline passed, the connection closed).
     * {@code cancel()} cancels the whole stream (both directions: the protocol has no one-way cancel), as does a
     * non-positive {@code request(n)} after its {@code onError(IllegalArgumentException)}.
     *
     * @param responses the response observer the method received (a {@link CallStreamObserver})
     * @param use gets the publisher; it may subscribe to it at once or later
     * @return the observer of the request stream, for the method to return
     * @throws IllegalArgumentException when {@code responses} is not the stream's response observer
     * @throws IllegalStateException when the method returned already
     */
    public static <T> StreamObserver<T> requests(StreamObserver<?> responses, Consumer<? super Flow.Publisher<T>> use) {
        Objects.requireNonNull(responses, "responses");
        Objects.requireNonNull(use, "use");
        if (!(responses instanceof CallStreamObserver<?> stream)) {
            throw new IllegalArgumentException("FlowStreams.requests needs the response observer the provider method"
                    + " received (a CallStreamObserver), not a " + responses.getClass().getName());
        }
        RequestPublisher<T> requests = new RequestPublisher<>(stream);
        use.accept(requests);
        return requests;
    }
}
