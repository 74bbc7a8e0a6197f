package io.kestrel.rpc.observability;

import io.kestrel.rpc.api.stream.StreamObserver;

/** The streaming test service: each shape, an endless stream and one that fails. */
public interface Ticker {
    /** Server streaming: 0 .. n-1, then completes. */
    void ticks(Integer n, StreamObserver<Integer> out);

    /** Server streaming until cancelled. */
    void endless(StreamObserver<Integer> out);

    /** Server streaming: n messages, then an IllegalStateException. */
    void failAfter(Integer n, StreamObserver<Integer> out);

    /** Bidirectional: echoes each message; completes when the consumer does. */
    StreamObserver<String> echo(StreamObserver<String> out);
}
