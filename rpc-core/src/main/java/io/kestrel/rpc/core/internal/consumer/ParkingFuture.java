package io.kestrel.rpc.core.internal.consumer;

import io.kestrel.rpc.transport.ThreadlessWait;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReferenceFieldUpdater;
import java.util.concurrent.locks.LockSupport;

/**
 * A call's future that one blocking caller waits on by parking itself, with the thread kept in a
 * field of the future: {@link CompletableFuture#get(long, TimeUnit)} allocates a waiter node (a
 * {@code Signaller}, pushed as a completion) for every wait that finds the future not done yet, which
 * is every blocking call. Interruption and timeout behave as in {@code CompletableFuture.get}
 * ({@link InterruptedException} with the interrupt status cleared, {@link TimeoutException}); a second
 * thread waiting at the same time, and a fork-join pool's worker (which must wait as a managed blocker so
 * its pool can compensate), fall back to {@code CompletableFuture}'s own wait.
 */
abstract class ParkingFuture extends CompletableFuture<Object> {
    private static final AtomicReferenceFieldUpdater<ParkingFuture, Thread> WAITER =
            AtomicReferenceFieldUpdater.newUpdater(ParkingFuture.class, Thread.class, "waiter");

    private volatile Thread waiter; // the thread parked in get, or null

    @Override
    public Object get(long timeout, TimeUnit unit) throws InterruptedException, ExecutionException, TimeoutException {
        // a fork-join worker waits through CompletableFuture's own get: it is a managed blocker, so the pool
        // can start a spare thread while this one waits (JDK 21+ runs supplyAsync on a common pool of
        // parallelism 1 on two CPUs: a parked worker would leave the task that answers it unrun)
        if (!isDone() && !(Thread.currentThread() instanceof ForkJoinWorkerThread)
                && WAITER.compareAndSet(this, null, Thread.currentThread())) {
            try {
                ThreadlessWait threadless = threadless();
                if (threadless != null && threadless.isCurrentThread()) {
                    threadless.await(this, System.nanoTime() + unit.toNanos(timeout)); // decodes its answers here
                } else {
                    awaitDone(System.nanoTime() + unit.toNanos(timeout));
                }
            } finally {
                waiter = null;
            }
        }
        return super.get(timeout, unit); // done by now (returns or throws at once), unless another thread waits here
    }

    /**
     * The wait of the blocking caller whose answers are handed to its own thread (see {@link ThreadlessWait}), or
     * null; when the thread waiting here is its owner, it decodes them while it waits.
     */
    ThreadlessWait threadless() {
        return null;
    }

    /** Parks until done; the completing thread unparks this one after it set the result (see {@link #wake}). */
    private void awaitDone(long deadlineNanos) throws InterruptedException, TimeoutException {
        // the waiter was published before this reads the result, and a completer sets the result before it
        // reads the waiter: one of the two sees the other (both volatile), so no wake-up is lost
        while (!isDone()) {
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
            long left = deadlineNanos - System.nanoTime();
            if (left <= 0) {
                throw new TimeoutException();
            }
            LockSupport.parkNanos(this, left);
        }
    }

    private void wake() {
        Thread w = waiter;
        if (w != null) {
            LockSupport.unpark(w);
        }
    }

    @Override
    public boolean complete(Object value) {
        boolean completed = super.complete(value);
        if (completed) {
            wake();
        }
        return completed;
    }

    @Override
    public boolean completeExceptionally(Throwable error) {
        boolean completed = super.completeExceptionally(error);
        if (completed) {
            wake();
        }
        return completed;
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        boolean cancelled = super.cancel(mayInterruptIfRunning);
        if (cancelled) {
            wake();
        }
        return cancelled;
    }
}
