package io.kestrel.rpc.core.stream;

import io.kestrel.rpc.api.stream.CallStreamObserver;
import io.kestrel.rpc.api.stream.ClientResponseObserver;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** A consumer's response observer that keeps what it receives; optionally held on its first message by a gate. */
class Collector<T> implements ClientResponseObserver<T> {
    final List<T> received = new CopyOnWriteArrayList<>();
    /** Completes with null (completed) or the error. */
    final CompletableFuture<Throwable> ended = new CompletableFuture<>();
    final CountDownLatch gate;
    private final int free;
    volatile CallStreamObserver<?> handle;
    volatile Thread deliveryThread;

    Collector() {
        this(new CountDownLatch(0));
    }

    Collector(CountDownLatch gate) {
        this(gate, 0);
    }

    /** Takes {@code free} messages at once, then waits for {@code gate} before each. */
    Collector(CountDownLatch gate, int free) {
        this.gate = gate;
        this.free = free;
    }

    @Override
    public void beforeStart(CallStreamObserver<?> stream) {
        handle = stream;
    }

    @Override
    public void onNext(T value) {
        deliveryThread = Thread.currentThread();
        try {
            if (received.size() >= free && !gate.await(60, TimeUnit.SECONDS)) {
                throw new IllegalStateException("gate never opened");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        received.add(value);
    }

    @Override
    public void onError(Throwable error) {
        ended.complete(error);
    }

    @Override
    public void onCompleted() {
        ended.complete(null);
    }

    Throwable end() throws Exception {
        return ended.get(30, TimeUnit.SECONDS);
    }
}
