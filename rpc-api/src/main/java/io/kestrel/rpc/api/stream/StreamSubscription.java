package io.kestrel.rpc.api.stream;

import java.util.concurrent.Flow;

/**
 * {@link FlowStreams#publisher}'s (and {@link RequestPublisher}'s) link between one subscriber and its stream: the
 * observer of the messages received, under manual flow control, and the subscriber's subscription, whose demand
 * becomes the stream's credit.
 */
final class StreamSubscription<T> implements ClientResponseObserver<T>, Flow.Subscription {
    private volatile Flow.Subscriber<? super T> subscriber;
    private CallStreamObserver<?> stream; // guarded by this
    private long demandBeforeStart; // guarded by this
    private String cancelled; // why the subscriber cancelled (guarded by this)
    private boolean terminated; // guarded by this

    StreamSubscription(Flow.Subscriber<? super T> subscriber) {
        this.subscriber = subscriber;
    }

    /** The subscriber cancelled in onSubscribe: the call is not made. */
    synchronized boolean cancelledBeforeStart() {
        return cancelled != null;
    }

    @Override
    public void beforeStart(CallStreamObserver<?> handle) {
        handle.disableAutoRequest(); // the subscriber's demand is the credit from now on
        attach(handle);
    }

    /** Links the stream, already under manual flow control: the demand so far is requested, or the cancel made. */
    void attach(CallStreamObserver<?> handle) {
        long demand;
        String cancel;
        synchronized (this) {
            stream = handle;
            demand = demandBeforeStart;
            cancel = cancelled;
        }
        if (cancel != null) {
            handle.cancel(cancel);
        } else if (demand > 0) {
            handle.request(demand);
        }
    }

    @Override
    public void request(long n) {
        if (n <= 0) {
            cancelWith("the subscriber requested " + n + " messages");
            signalError(new IllegalArgumentException("request(" + n + ") violates Reactive Streams rule 3.9: a"
                    + " subscriber requests at least 1"));
            return;
        }
        CallStreamObserver<?> s;
        synchronized (this) {
            if (cancelled != null || terminated) {
                return;
            }
            s = stream;
            if (s == null) {
                demandBeforeStart = demandBeforeStart + n < 0 ? Long.MAX_VALUE : demandBeforeStart + n;
                return;
            }
        }
        s.request(n);
    }

    @Override
    public void cancel() {
        cancelWith("the subscriber cancelled its subscription");
    }

    private void cancelWith(String reason) {
        CallStreamObserver<?> s;
        synchronized (this) {
            if (cancelled != null) {
                return;
            }
            cancelled = reason;
            s = terminated ? null : stream;
        }
        if (s != null) {
            s.cancel(reason);
        }
    }

    @Override
    public void onNext(T value) {
        Flow.Subscriber<? super T> to = subscriber;
        synchronized (this) {
            if (cancelled != null || terminated || to == null) {
                return;
            }
        }
        to.onNext(value);
    }

    @Override
    public void onError(Throwable error) {
        synchronized (this) {
            if (cancelled != null) {
                return; // after a cancel the subscriber hears nothing more
            }
        }
        signalError(error);
    }

    private void signalError(Throwable error) {
        Flow.Subscriber<? super T> to = terminate();
        if (to != null) {
            to.onError(error);
        }
    }

    @Override
    public void onCompleted() {
        Flow.Subscriber<? super T> to;
        synchronized (this) {
            if (cancelled != null) {
                return;
            }
        }
        to = terminate();
        if (to != null) {
            to.onComplete();
        }
    }

    /** The subscriber for the one terminal signal, then no more (null: it had it). */
    private Flow.Subscriber<? super T> terminate() {
        synchronized (this) {
            if (terminated) {
                return null;
            }
            terminated = true;
        }
        Flow.Subscriber<? super T> to = subscriber;
        subscriber = null; // rule 3.13: no reference kept once it is over
        return to;
    }
}
