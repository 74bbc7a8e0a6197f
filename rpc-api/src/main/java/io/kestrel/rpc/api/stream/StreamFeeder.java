package io.kestrel.rpc.api.stream;

import java.util.concurrent.Flow;

/**
 * {@link FlowStreams#feed}'s subscriber: sends what the publisher publishes into a stream, asking for at most one
 * window ahead (half a window at a time), and ends the stream as the publisher ends.
 */
final class StreamFeeder<T> implements Flow.Subscriber<T> {
    private final StreamObserver<? super T> target;
    private final int window;
    private final int batch;
    private Flow.Subscription subscription;
    private int sinceRequest;
    private boolean done;

    StreamFeeder(StreamObserver<? super T> target, int window) {
        this.target = target;
        this.window = window;
        this.batch = Math.max(1, window / 2);
    }

    @Override
    public void onSubscribe(Flow.Subscription s) {
        if (subscription != null) {
            s.cancel(); // rule 2.5: one subscription at a time
            return;
        }
        subscription = s;
        s.request(window);
    }

    @Override
    public void onNext(T item) {
        if (done) {
            return;
        }
        if (target instanceof CallStreamObserver<?> c && c.isCancelled()) {
            stop();
            return;
        }
        try {
            target.onNext(item); // waits for credit while the receiver is slow
        } catch (RuntimeException e) {
            stop(); // the stream is over or the message could not be sent: the publisher stops
            if (target instanceof CallStreamObserver<?> c && !c.isCancelled()) {
                c.cancel("a published message could not be sent: " + e);
            }
            return;
        }
        if (++sinceRequest >= batch) {
            sinceRequest = 0;
            subscription.request(batch);
        }
    }

    private void stop() {
        done = true;
        subscription.cancel();
    }

    @Override
    public void onError(Throwable error) {
        if (!done) {
            done = true;
            target.onError(error);
        }
    }

    @Override
    public void onComplete() {
        if (!done) {
            done = true;
            target.onCompleted();
        }
    }
}
