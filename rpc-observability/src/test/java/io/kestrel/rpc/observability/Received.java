package io.kestrel.rpc.observability;

import io.kestrel.rpc.api.stream.CallStreamObserver;
import io.kestrel.rpc.api.stream.ClientResponseObserver;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** A consumer's response observer for the stream tests: counts messages, keeps the end and the stream's handle. */
final class Received<T> implements ClientResponseObserver<T> {
    final AtomicInteger count = new AtomicInteger();
    final CompletableFuture<Throwable> ended = new CompletableFuture<>();
    volatile CallStreamObserver<?> handle;

    @Override
    public void beforeStart(CallStreamObserver<?> stream) {
        handle = stream;
    }

    @Override
    public void onNext(T value) {
        count.incrementAndGet();
    }

    @Override
    public void onError(Throwable error) {
        ended.complete(error);
    }

    @Override
    public void onCompleted() {
        ended.complete(null);
    }

    /** The end: null when completed, else the error; waits at most 20 s. */
    Throwable end() throws Exception {
        return ended.get(20, TimeUnit.SECONDS);
    }
}
