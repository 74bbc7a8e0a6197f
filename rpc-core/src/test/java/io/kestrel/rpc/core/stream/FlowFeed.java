package io.kestrel.rpc.core.stream;

import io.kestrel.rpc.api.stream.FlowStreams;
import io.kestrel.rpc.api.stream.StreamObserver;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.SubmissionPublisher;

/** A provider whose answer stream is a {@link java.util.concurrent.Flow.Publisher} (the JDK's SubmissionPublisher). */
public interface FlowFeed {
    /** Server streaming: the numbers 0 to n - 1, published by a SubmissionPublisher fed into the stream. */
    void range(Integer n, StreamObserver<Integer> out);

    /** What {@link FlowFeed} does. */
    final class Impl implements FlowFeed, AutoCloseable {
        private final ExecutorService publishing = Executors.newCachedThreadPool();

        @Override
        public void range(Integer n, StreamObserver<Integer> out) {
            SubmissionPublisher<Integer> publisher = new SubmissionPublisher<>(publishing, 16);
            FlowStreams.feed(publisher, out);
            publishing.execute(() -> {
                for (int i = 0; i < n; i++) {
                    publisher.submit(i); // waits while the subscriber's buffer is full: the stream's credit
                }
                publisher.close();
            });
        }

        @Override
        public void close() {
            publishing.shutdownNow();
        }
    }
}
