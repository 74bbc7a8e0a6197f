package io.kestrel.rpc.console;

import io.kestrel.rpc.api.stream.CallStreamObserver;
import io.kestrel.rpc.api.stream.ClientResponseObserver;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/** A consumer's observer of a {@link Ticker} stream: counts messages, keeps the end and the handle to cancel. */
final class Ticks implements ClientResponseObserver<Integer> {
    final AtomicInteger count = new AtomicInteger();
    final CompletableFuture<Throwable> ended = new CompletableFuture<>();
    volatile CallStreamObserver<?> handle;

    @Override
    public void beforeStart(CallStreamObserver<?> stream) {
        handle = stream;
    }

    @Override
    public void onNext(Integer value) {
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
}
