package io.kestrel.rpc.perf.streams;

import io.kestrel.rpc.api.stream.StreamObserver;

/**
 * The framework's side of the streams benchmark: the same two streams as the raw loop and grpc-java, and a unary
 * call.
 */
public interface StreamBenchService {
    /**
     * Server streaming: {@code count} messages of {@code payload} bytes ({@link StreamMessages}), then completes;
     * stops when the consumer cancels.
     */
    void feed(Integer count, Integer payload, StreamObserver<byte[]> out);

    /** Bidirectional: answers each message with itself; completes when the consumer half-closes. */
    StreamObserver<byte[]> echo(StreamObserver<byte[]> out);

    /** Unary: {@code id + 1}, the call whose latency is measured beside a running stream. */
    long next(long id);
}
