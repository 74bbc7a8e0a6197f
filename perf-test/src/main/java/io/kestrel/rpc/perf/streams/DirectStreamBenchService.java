package io.kestrel.rpc.perf.streams;

import io.kestrel.rpc.api.NonBlocking;
import io.kestrel.rpc.api.stream.StreamObserver;

/**
 * {@link StreamBenchService} with the echo on the provider's I/O thread ({@link NonBlocking}: it only answers each
 * message, which the window's credit always allows); the feed, which sends a million messages and waits for credit
 * as it goes, stays on the business pool. The {@code kestrel-<serialization>-direct} streams systems export and
 * refer this one, with {@code callbacks=direct} on the consumer.
 */
public interface DirectStreamBenchService extends StreamBenchService {
    @Override
    @NonBlocking
    StreamObserver<byte[]> echo(StreamObserver<byte[]> out);
}
