package io.kestrel.rpc.transport.internal.stream;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * What a stream received and its receiver has not yet seen, handed to the receiver one item at a time, in order, on
 * an executor (never two at once). Holds at most the receiver's credit window of messages plus its end.
 */
final class Inbox implements Runnable {
    private static final int MAX_BATCH = 64;

    private final Queue<Object> items = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean scheduled = new AtomicBoolean();
    private final Executor executor;
    private final Consumer<Object> handler;
    private final Consumer<RejectedExecutionException> rejected;
    private volatile boolean started;

    /**
     * @param handler takes each item on the executor
     * @param rejected told when the executor refuses the work (the stream cannot be served)
     * @param started whether items flow at once (else from {@link #start})
     */
    Inbox(Executor executor, Consumer<Object> handler, Consumer<RejectedExecutionException> rejected,
            boolean started) {
        this.executor = executor;
        this.handler = handler;
        this.rejected = rejected;
        this.started = started;
    }

    void offer(Object item) {
        items.offer(item);
        schedule();
    }

    /** Items flow from now on. */
    void start() {
        started = true;
        schedule();
    }

    /** Takes every item still queued (the stream ended without delivering them). */
    void drainTo(Consumer<Object> sink) {
        Object item;
        while ((item = items.poll()) != null) {
            sink.accept(item);
        }
    }

    private void schedule() {
        if (started && !items.isEmpty() && scheduled.compareAndSet(false, true)) {
            try {
                executor.execute(this);
            } catch (RejectedExecutionException e) {
                scheduled.set(false);
                rejected.accept(e);
            }
        }
    }

    @Override
    public void run() {
        try {
            Object item;
            int n = 0;
            while (n++ < MAX_BATCH && (item = items.poll()) != null) {
                handler.accept(item);
            }
        } finally {
            scheduled.set(false);
            schedule(); // what arrived meanwhile, or the rest of a long queue after others had a turn
        }
    }
}
