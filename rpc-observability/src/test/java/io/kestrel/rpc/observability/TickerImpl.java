package io.kestrel.rpc.observability;

import io.kestrel.rpc.api.stream.StreamObserver;

/** What {@link Ticker} does. */
public final class TickerImpl implements Ticker {
    @Override
    public void ticks(Integer n, StreamObserver<Integer> out) {
        for (int i = 0; i < n; i++) {
            out.onNext(i);
        }
        out.onCompleted();
    }

    @Override
    public void endless(StreamObserver<Integer> out) {
        for (int i = 0; ; i++) {
            out.onNext(i); // throws once the stream is cancelled
        }
    }

    @Override
    public void failAfter(Integer n, StreamObserver<Integer> out) {
        for (int i = 0; i < n; i++) {
            out.onNext(i);
        }
        throw new IllegalStateException("failed after " + n);
    }

    @Override
    public StreamObserver<String> echo(StreamObserver<String> out) {
        return new StreamObserver<>() {
            @Override
            public void onNext(String value) {
                out.onNext(value);
            }

            @Override
            public void onError(Throwable error) {
                // the consumer cancelled: nothing to answer
            }

            @Override
            public void onCompleted() {
                out.onCompleted();
            }
        };
    }
}
