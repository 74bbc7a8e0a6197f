package io.kestrel.rpc.api.stream;

import java.util.concurrent.Flow;

/**
 * {@link FlowStreams#requests}'s bridge: the observer a provider method returns for its request stream, and the
 * {@link Flow.Publisher} of those messages handed to the provider. The stream runs under manual flow control, so the
 * consumer is granted exactly what the one subscriber requests, and nothing before it subscribes; an end that arrives
 * before the subscriber (the consumer half-closed, the stream was cancelled) is passed on once it subscribed.
 */
final class RequestPublisher<T> implements StreamObserver<T>, Flow.Publisher<T> {
    private static final Flow.Subscription REFUSED = new Flow.Subscription() {
        @Override
        public void request(long n) {
        }

        @Override
        public void cancel() {
        }
    };

    private final CallStreamObserver<?> stream;
    private volatile StreamSubscription<T> subscription;
    private boolean claimed; // guarded by this
    private boolean ended; // the end arrived before the subscriber (guarded by this)
    private Throwable endedWith; // guarded by this

    RequestPublisher(CallStreamObserver<?> stream) {
        this.stream = stream;
        stream.disableAutoRequest(); // throws once the method returned: the consumer was granted its window then
    }

    @Override
    public void subscribe(Flow.Subscriber<? super T> subscriber) {
        if (subscriber == null) {
            throw new NullPointerException("subscriber"); // rule 1.9
        }
        synchronized (this) {
            if (claimed) {
                subscriber.onSubscribe(REFUSED);
                subscriber.onError(new IllegalStateException("the request stream of a call has one subscriber and"
                        + " this publisher has it already; subscribe once (e.g. share it with Reactor's publish())"));
                return;
            }
            claimed = true;
        }
        StreamSubscription<T> s = new StreamSubscription<>(subscriber);
        subscriber.onSubscribe(s);
        boolean endedFirst;
        Throwable error;
        synchronized (this) {
            subscription = s;
            endedFirst = ended;
            error = endedWith;
        }
        s.attach(stream); // the demand so far becomes the consumer's credit, or the cancel ends the stream
        if (endedFirst) {
            signalEnd(s, error);
        }
    }

    @Override
    public void onNext(T value) {
        StreamSubscription<T> s = subscription;
        if (s == null) { // credit comes from the subscriber's demand; this one was requested around it
            throw new IllegalStateException("a message arrived before the publisher of FlowStreams.requests had a"
                    + " subscriber: request messages through its subscription, not on the response observer");
        }
        s.onNext(value);
    }

    @Override
    public void onError(Throwable error) {
        end(error);
    }

    @Override
    public void onCompleted() {
        end(null);
    }

    private void end(Throwable error) {
        StreamSubscription<T> s;
        synchronized (this) {
            s = subscription;
            if (s == null) {
                ended = true;
                endedWith = error;
                return;
            }
        }
        signalEnd(s, error);
    }

    private static <T> void signalEnd(StreamSubscription<T> s, Throwable error) {
        if (error == null) {
            s.onCompleted();
        } else {
            s.onError(error);
        }
    }
}
