package io.kestrel.rpc.transport.internal.stream;

import io.netty.util.concurrent.EventExecutor;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * What a stream received and its receiver has not yet seen, handed to the receiver one item at a time, in order, on
 * an executor (never two at once). Holds at most the receiver's credit window of messages plus its end.
 *
 * <p>The event loop queues what one read burst brought without waking the executor per item
 * ({@link #offerInBurst}): the executor gets the whole burst as one task once the event loop has run out of what it
 * read, so one wake-up serves many messages.
 */
final class Inbox implements Runnable {
    private static final int MAX_BATCH = 64;

    /** An executor that runs its tasks on the event loop of the stream's connection (the loop's own task queue). */
    interface OnEventLoop extends Executor {
    }

    private final Queue<Object> items = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean scheduled = new AtomicBoolean();
    private final Executor executor;
    private final Consumer<Object> handler;
    private final Consumer<RejectedExecutionException> rejected;
    private volatile boolean started;
    /** A task handing this read burst's items over is queued on the event loop (event loop only). */
    private boolean burstPending;
    private final Runnable endOfBurst = () -> {
        burstPending = false;
        schedule();
    };

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

    Executor executor() {
        return executor;
    }

    void offer(Object item) {
        items.offer(item);
        schedule();
    }

    /**
     * Queues {@code item} on the event loop {@code loop} (the caller's thread): handed over with the rest of the read
     * burst, after the reads the event loop is processing.
     */
    void offerInBurst(Object item, EventExecutor loop) {
        items.offer(item);
        if (executor == loop || executor instanceof OnEventLoop) {
            schedule(); // delivered on the event loop itself: a task after the reads already
        } else if (!burstPending) {
            burstPending = true;
            try {
                loop.execute(endOfBurst);
            } catch (RejectedExecutionException shuttingDown) {
                burstPending = false;
                schedule(); // no later task will run: now
            }
        }
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
