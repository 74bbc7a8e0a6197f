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
}
