package io.kestrel.rpc.core.internal.consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.testing.Await;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class ParkingFutureTest {
    private static final class Call extends ParkingFuture {
    }

    /** Starts a thread blocked in get(10 s) on {@code f}; what it got (value or exception) lands in the reference. */
    private static Thread waiter(ParkingFuture f, AtomicReference<Object> got) {
        Thread t = new Thread(() -> {
            try {
                got.set(f.get(10, TimeUnit.SECONDS));
            } catch (Exception e) {
                got.set(e);
            }
        }, "waiter");
        t.setDaemon(true);
        t.start();
        return t;
    }

    private static void awaitParked(Thread t) throws InterruptedException {
        Await.until("the waiter parks", () -> t.getState() == Thread.State.TIMED_WAITING);
    }

    @Test
    void aParkedCallerIsWokenByTheAnswer() throws Exception {
        Call f = new Call();
        AtomicReference<Object> got = new AtomicReference<>();
        Thread t = waiter(f, got);
        awaitParked(t);
        assertTrue(f.complete("answer"));
        t.join(10_000);
        assertEquals("answer", got.get());
    }

    @Test
    void aFailureReachesTheParkedCallerAsExecutionException() throws Exception {
        Call f = new Call();
        AtomicReference<Object> got = new AtomicReference<>();
        Thread t = waiter(f, got);
        awaitParked(t);
        IllegalStateException failure = new IllegalStateException("provider said no");
        f.completeExceptionally(failure);
        t.join(10_000);
        ExecutionException e = assertInstanceOf(ExecutionException.class, got.get());
        assertSame(failure, e.getCause());
    }

    @Test
    void cancellingWakesTheParkedCaller() throws Exception {
        Call f = new Call();
        AtomicReference<Object> got = new AtomicReference<>();
        Thread t = waiter(f, got);
        awaitParked(t);
        f.cancel(false);
        t.join(10_000);
        assertInstanceOf(CancellationException.class, got.get());
    }

    @Test
    void anInterruptedCallerThrowsInterruptedExceptionWithItsStatusCleared() throws Exception {
        Call f = new Call();
        AtomicReference<Object> got = new AtomicReference<>();
        AtomicReference<Boolean> stillInterrupted = new AtomicReference<>();
        Thread t = new Thread(() -> {
            try {
                got.set(f.get(10, TimeUnit.SECONDS));
            } catch (Exception e) {
                got.set(e);
                stillInterrupted.set(Thread.currentThread().isInterrupted());
            }
        });
        t.start();
        awaitParked(t);
        t.interrupt();
        t.join(10_000);
        assertInstanceOf(InterruptedException.class, got.get());
        assertFalse(stillInterrupted.get(), "as CompletableFuture.get: the status is cleared when it throws");
        assertFalse(f.isDone());
        assertTrue(f.complete("late"), "the future is still completable after its waiter left");
    }

    @Test
    void aCallerGivesUpAfterItsTimeoutAndCanWaitAgain() throws Exception {
        Call f = new Call();
        assertThrows(TimeoutException.class, () -> f.get(30, TimeUnit.MILLISECONDS));
        f.complete(7);
        assertEquals(7, f.get(1, TimeUnit.MILLISECONDS));
    }

    @Test
    void aDoneFutureAnswersAtOnce() throws Exception {
        Call f = new Call();
        f.complete(null);
        Thread.currentThread().interrupt(); // as CompletableFuture: a done future does not look at the interrupt
        try {
            assertEquals(null, f.get(0, TimeUnit.MILLISECONDS));
        } finally {
            assertTrue(Thread.interrupted());
        }
    }

    @Test
    void twoWaitersAtOnceAreBothWoken() throws Exception {
        Call f = new Call();
        AtomicReference<Object> first = new AtomicReference<>();
        AtomicReference<Object> second = new AtomicReference<>();
        Thread a = waiter(f, first);
        awaitParked(a);
        Thread b = waiter(f, second); // the field holds the first: this one waits the CompletableFuture way
        Await.until("the second waiter blocks", () -> b.getState() == Thread.State.TIMED_WAITING
                || b.getState() == Thread.State.WAITING);
        f.complete("both");
        a.join(10_000);
        b.join(10_000);
        assertEquals("both", first.get());
        assertEquals("both", second.get());
    }

    @Test
    void dependentStagesStillRun() throws Exception {
        Call f = new Call();
        CompletableFuture<Object> next = f.thenApply(v -> v + "!");
        f.complete("hi");
        assertEquals("hi!", next.get(1, TimeUnit.SECONDS));
    }

    @Test
    void aForkJoinWorkerWaitingLetsItsPoolRunTheTaskThatAnswers() throws Exception {
        // a pool of one worker, like JDK 21+'s common pool on two CPUs: the waiting worker must let the pool
        // start a spare thread for the second task, as CompletableFuture.get does, or it waits out its timeout
        ForkJoinPool pool = new ForkJoinPool(1);
        try {
            Call f = new Call();
            AtomicReference<Thread> worker = new AtomicReference<>();
            Future<Object> waiting = pool.submit(() -> {
                worker.set(Thread.currentThread());
                return f.get(10, TimeUnit.SECONDS);
            });
            Await.until("the worker waits", () -> worker.get() != null
                    && worker.get().getState() == Thread.State.TIMED_WAITING);
            Future<Boolean> answering = pool.submit(() -> f.complete("answer"));
            assertEquals("answer", waiting.get(10, TimeUnit.SECONDS));
            assertTrue(answering.get(10, TimeUnit.SECONDS));
        } finally {
            pool.shutdownNow();
        }
    }
}
