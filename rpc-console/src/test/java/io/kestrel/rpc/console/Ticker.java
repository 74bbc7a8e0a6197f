package io.kestrel.rpc.console;

import io.kestrel.rpc.api.stream.StreamObserver;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/** The streaming service the console tests call: a stream that completes, and one held open until cancelled. */
public interface Ticker {
    /** Server streaming: 0 .. n-1, then completes. */
    void ticks(Integer n, StreamObserver<Integer> out);

    /** Server streaming: n messages, then the stream stays open until the consumer cancels it. */
    void hold(Integer n, StreamObserver<Integer> out);

    /** What {@link Ticker} does. */
    final class Impl implements Ticker {
        /** The streams {@code hold} keeps open. */
        final Queue<StreamObserver<Integer>> held = new ConcurrentLinkedQueue<>();

        @Override
        public void ticks(Integer n, StreamObserver<Integer> out) {
            for (int i = 0; i < n; i++) {
                out.onNext(i);
            }
            out.onCompleted();
        }

        @Override
        public void hold(Integer n, StreamObserver<Integer> out) {
            for (int i = 0; i < n; i++) {
                out.onNext(i);
            }
            held.add(out);
        }
    }
}
