package io.kestrel.rpc.transport.internal.stream;

import io.kestrel.rpc.transport.internal.EventLoops;
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
 *
 * <p>Delivered on the event loop itself (direct dispatch, callbacks on the I/O thread), a task hands over at most
 * {@value #MAX_BATCH} items and then lets the event loop read its sockets before the next {@value #MAX_BATCH}: a queue
 * of a whole credit window is not delivered in one go while a unary answer or another stream's messages wait unread
 * behind it. (A task the event loop queues for itself runs before its next read; one scheduled with no delay runs
 * after it.)
 */
final class Inbox implements Runnable {
    private static final int MAX_BATCH = 64;

    /** An executor that runs its tasks on the event loop of the stream's connection (the loop's own task queue). */
    interface OnEventLoop extends Executor {
        /** The event loop it runs tasks on; null while there is none yet. */
        EventExecutor loop();
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
        boolean full = false;
        try {
            Object item;
            int n = 0;
            while ((item = items.poll()) != null) {
                handler.accept(item);
                if (++n == MAX_BATCH) {
                    full = true;
                    break;
                }
            }
        } finally {
            scheduled.set(false);
            if (full && !items.isEmpty() && afterIo()) {
                return; // the rest after the event loop's next reads
            }
            schedule(); // what arrived meanwhile, or the rest of a long queue after others had a turn
        }
    }

    /**
     * On the event loop that delivers: queues the rest of a long queue as a task scheduled with no delay, which the
     * loop runs after its next reads (it polls its sockets without waiting while such a task is due). False when the
     * executor is not the event loop, or it is shutting down: then the caller queues the task as usual. Should the loop
     * shut down before that turn, its scheduled tasks are cancelled and this one is queued as an ordinary task, which
     * the shutdown still runs (what is queued is delivered or released as before).
     */
    private boolean afterIo() {
        EventExecutor loop = executor instanceof OnEventLoop onLoop ? onLoop.loop()
                : executor instanceof EventExecutor e ? e : null;
        if (!started || loop == null || !loop.inEventLoop()) {
            return false;
        }
        if (!scheduled.compareAndSet(false, true)) {
            return true; // a task already runs what is left
        }
        if (!EventLoops.runAfterReads(loop, this, () -> {
            scheduled.set(false);
            schedule();
        })) {
            scheduled.set(false);
            return false;
        }
        return true;
    }
}
