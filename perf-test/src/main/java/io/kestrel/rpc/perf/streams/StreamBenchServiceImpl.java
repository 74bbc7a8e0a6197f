package io.kestrel.rpc.perf.streams;

import io.kestrel.rpc.api.stream.StreamCancelledException;
import io.kestrel.rpc.api.stream.StreamObserver;

/**
 * What {@link StreamBenchService} (and {@link DirectStreamBenchService}) does; a feed sends from its business thread,
 * waiting for credit as it goes.
 */
public final class StreamBenchServiceImpl implements DirectStreamBenchService {
    @Override
    public void feed(Integer count, Integer payload, StreamObserver<byte[]> out) {
        try {
            for (long i = 0; i < count; i++) {
                out.onNext(StreamMessages.message(i, payload));
            }
        } catch (StreamCancelledException e) {
            return; // the consumer stopped it (the unary probe's background stream ends so)
        }
        out.onCompleted();
    }

    @Override
    public StreamObserver<byte[]> echo(StreamObserver<byte[]> out) {
        return new StreamObserver<>() {
            @Override
            public void onNext(byte[] value) {
                out.onNext(value);
            }

            @Override
            public void onError(Throwable error) {
                // the consumer cancelled or went away: nothing to answer
            }

            @Override
            public void onCompleted() {
                out.onCompleted();
            }
        };
    }

    @Override
    public long next(long id) {
        return id + 1;
    }
}
