package io.kestrel.rpc.core.stream;

import io.kestrel.rpc.api.stream.StreamObserver;

/** A service with each streaming shape, and a unary method to interleave with them. */
public interface FeedService {
    /** Server streaming: {@code n} numbers from {@code from}, in order, then completes. */
    void count(Integer from, Integer n, StreamObserver<Integer> out);

    /** Server streaming until the consumer cancels (or the deadline passes): counts what it sent. */
    void endless(StreamObserver<Integer> out);

    /** Server streaming: {@code n} numbers, then fails with an IllegalStateException naming {@code n}. */
    void failAfter(Integer n, StreamObserver<Integer> out);

    /** Client streaming: the sum of the numbers sent, as one message when the consumer half-closes. */
    StreamObserver<Integer> sum(StreamObserver<Long> out);

    /** Bidirectional: echoes each message; "cancel" makes the provider cancel the stream. */
    StreamObserver<String> echo(StreamObserver<String> out);

    /** Unary. */
    String ping(String s);
}
