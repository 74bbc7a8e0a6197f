package io.kestrel.rpc.transport.internal;

import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Which calls a server takes on: none once it is closing, and only as many as its business
 * executor has threads and queue slots for. Counts the calls taken and not yet answered. One per
 * server, shared by its connections; thread-safe.
 */
public final class Admission {
    private final Executor executor;
    private final AtomicInteger inFlight = new AtomicInteger();
    private volatile boolean closing;

    public Admission(Executor executor) {
        this.executor = executor;
    }

    /** The business executor (where a stream's messages reach the provider's observer). */
    public Executor executor() {
        return executor;
    }

    /** The server is shutting down: new calls are refused (they did not run). */
    public boolean closing() {
        return closing;
    }

    public void startClosing() {
        closing = true;
    }

    /** Calls taken on and not yet answered. */
    public int inFlight() {
        return inFlight.get();
    }

    /**
     * Hands a call to the business executor. The call must end with {@link #finished()}.
     *
     * @return false when every thread and queue slot is taken: the call did not run
     */
    public boolean submit(Runnable call) {
        inFlight.incrementAndGet();
        try {
            executor.execute(call);
            return true;
        } catch (RejectedExecutionException e) {
            inFlight.decrementAndGet();
            return false;
        }
    }

    /**
     * Hands {@code calls} calls to the business executor as one task ({@link CallBatch}); each must end with
     * {@link #finished()}.
     *
     * @return false when every thread and queue slot is taken: none of them ran
     */
    public boolean submit(Runnable batch, int calls) {
        inFlight.addAndGet(calls);
        try {
            executor.execute(batch);
            return true;
        } catch (RejectedExecutionException e) {
            inFlight.addAndGet(-calls);
            return false;
        }
    }

    /** A call joined a batch already handed over ({@link CallBatch#join}); it must end with {@link #finished()}. */
    void joined() {
        inFlight.incrementAndGet();
    }

    /**
     * Gives work of calls already taken on (and counted) one more business thread, if the executor has one now.
     *
     * @return false when every thread and queue slot is taken
     */
    boolean assist(Runnable work) {
        try {
            executor.execute(work);
            return true;
        } catch (RejectedExecutionException e) {
            return false;
        }
    }

    /**
     * Runs a call on the calling thread (the connection's I/O thread, for a method dispatched
     * direct). The call must end with {@link #finished()}, as one taken by {@link #submit}.
     */
    public void runHere(Runnable call) {
        inFlight.incrementAndGet();
        call.run();
    }

    /** A call taken by {@link #submit} or {@link #runHere} has been answered. */
    public void finished() {
        inFlight.decrementAndGet();
    }
}
