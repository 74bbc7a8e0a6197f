package io.kestrel.rpc.transport.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.RpcTimeoutException;
import io.kestrel.rpc.api.TransportException;
import io.kestrel.rpc.transport.spi.MethodRef;
import io.netty.util.HashedWheelTimer;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class PendingCallsTest {
    private final HashedWheelTimer timer = TestSupport.timer();
    private final MethodRef greet = new MethodRef(TestSupport.KEY, TestSupport.GREET);
    private final PendingCalls pending = new PendingCalls(timer, 2, () -> "here -> there");

    @AfterEach
    void stop() {
        timer.stop();
    }

    @Test
    void reservationsAreCappedAndGivenBack() {
        assertTrue(pending.reserve());
        assertTrue(pending.reserve());
        assertFalse(pending.reserve(), "a third call over max 2");
        pending.unreserve();
        assertTrue(pending.reserve());
        assertEquals(2, pending.size());
    }

    @Test
    void aCallLeavesTheTableExactlyOnce() {
        assertTrue(pending.reserve());
        PendingCall call = pending.add(TestSupport.request(greet, 60_000, Map.of(), "x"));
        assertTrue(call.isPending());
        assertSame(call, pending.take(call.id()));
        assertNull(pending.take(call.id()), "taken twice");
        call.fail(new IllegalStateException("late")); // ended already: nothing happens
        assertFalse(call.future().isDone());
        assertEquals(0, pending.size());
    }

    @Test
    void deadlineFailsTheCallWithItsLimitAndRoute() {
        assertTrue(pending.reserve());
        PendingCall call = pending.add(TestSupport.request(greet, 30, Map.of(), "x"));
        ExecutionException e = assertThrows(ExecutionException.class, () -> call.future().get(10, TimeUnit.SECONDS));
        RpcTimeoutException timeout = assertInstanceOf(RpcTimeoutException.class, e.getCause());
        assertTrue(timeout.getMessage().contains("limit 30 ms"), timeout.getMessage());
        assertTrue(timeout.getMessage().contains("here -> there"), timeout.getMessage());
        assertTrue(timeout.getMessage().contains(TestSupport.KEY + "#greet"), timeout.getMessage());
        assertEquals(0, pending.size());
        assertNull(pending.take(call.id()), "a late response finds nothing");
    }

    @Test
    void aShortDeadlineAddedAfterALongOneStillFiresAndTheLongCallStaysPending() {
        PendingCalls three = new PendingCalls(timer, 3, () -> "here -> there");
        assertTrue(three.reserve());
        PendingCall slow = three.add(TestSupport.request(greet, 60_000, Map.of(), "slow"));
        assertTrue(three.reserve());
        PendingCall fast = three.add(TestSupport.request(greet, 50, Map.of(), "fast"));
        ExecutionException e = assertThrows(ExecutionException.class, () -> fast.future().get(10, TimeUnit.SECONDS));
        assertInstanceOf(RpcTimeoutException.class, e.getCause());
        assertTrue(slow.isPending(), "a call whose deadline has not passed is not failed with the one that has");
        assertFalse(slow.future().isDone());

        // the earliest deadline seen so far belonged to a call answered in time: later deadlines still fire
        assertTrue(three.reserve());
        PendingCall answered = three.add(TestSupport.request(greet, 40, Map.of(), "answered"));
        assertSame(answered, three.take(answered.id()));
        assertTrue(three.reserve());
        PendingCall late = three.add(TestSupport.request(greet, 80, Map.of(), "late"));
        e = assertThrows(ExecutionException.class, () -> late.future().get(10, TimeUnit.SECONDS));
        assertTrue(e.getCause().getMessage().contains("limit 80 ms"), e.getCause().getMessage());
        assertFalse(answered.future().isDone(), "an answered call is never failed by its old deadline");
        assertEquals(1, three.size());
    }

    @Test
    void deadlinesKeepFiringAfterTheTableWasEmpty() {
        for (int round = 0; round < 3; round++) {
            assertTrue(pending.reserve());
            PendingCall call = pending.add(TestSupport.request(greet, 20, Map.of(), "x" + round));
            ExecutionException e = assertThrows(ExecutionException.class,
                    () -> call.future().get(10, TimeUnit.SECONDS), "round " + round);
            assertInstanceOf(RpcTimeoutException.class, e.getCause());
            assertEquals(0, pending.size());
        }
    }

    @Test
    void aListenerIsToldTheOutcomeOnceWhetherAnsweredOrTimedOut() throws Exception {
        java.util.List<String> heard = new java.util.concurrent.CopyOnWriteArrayList<>();
        CountDownLatch twice = new CountDownLatch(2);
        java.util.function.BiConsumer<Object, Throwable> listener = (v, e) -> {
            heard.add(e == null ? "value " + v : e.getClass().getSimpleName());
            twice.countDown();
        };
        assertTrue(pending.reserve());
        PendingCall answered = pending.add(TestSupport.request(greet, 60_000, Map.of(), "a"), listener);
        assertSame(answered, pending.take(answered.id()));
        answered.future().complete("hi");
        answered.future().complete("again"); // a second completion is ignored, and not heard
        assertTrue(pending.reserve());
        PendingCall late = pending.add(TestSupport.request(greet, 20, Map.of(), "b"), listener);
        assertThrows(ExecutionException.class, () -> late.future().get(10, TimeUnit.SECONDS));
        assertTrue(twice.await(10, TimeUnit.SECONDS));
        assertEquals(java.util.List.of("value hi", "RpcTimeoutException"), heard);
    }

    @Test
    void failAllSaysTheCallsMayHaveRun() {
        assertTrue(pending.reserve());
        PendingCall a = pending.add(TestSupport.request(greet, 60_000, Map.of(), "a"));
        assertTrue(pending.reserve());
        PendingCall b = pending.add(TestSupport.request(greet, 60_000, Map.of(), "b"));
        pending.failAll("the connection closed");
        for (PendingCall c : new PendingCall[] {a, b}) {
            ExecutionException e = assertThrows(ExecutionException.class, () -> c.future().get(1, TimeUnit.SECONDS));
            assertInstanceOf(TransportException.class, e.getCause());
            assertTrue(e.getCause().getMessage().contains("may or may not have run"), e.getCause().getMessage());
        }
        assertEquals(0, pending.size());
    }

    @Test
    void whenEmptyRunsOnceWhenTheLastCallEnds() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        CountDownLatch ran = new CountDownLatch(1);
        assertTrue(pending.reserve());
        PendingCall call = pending.add(TestSupport.request(greet, 60_000, Map.of(), "x"));
        pending.whenEmpty(() -> {
            runs.incrementAndGet();
            ran.countDown();
        }, 60_000);
        assertEquals(0, runs.get(), "a call is still pending");
        pending.take(call.id());
        assertTrue(ran.await(5, TimeUnit.SECONDS));
        assertTrue(pending.reserve());
        pending.take(pending.add(TestSupport.request(greet, 60_000, Map.of(), "y")).id());
        assertEquals(1, runs.get(), "runs once only");

        CountDownLatch atOnce = new CountDownLatch(1);
        pending.whenEmpty(atOnce::countDown, 60_000);
        assertEquals(0, atOnce.getCount(), "runs at once when nothing is pending");
    }

    @Test
    void callsAddedAndTakenFromManyThreadsEachLeaveOnceAndTheTableEndsEmpty() throws Exception {
        int threads = 8;
        int perThread = 2_000;
        PendingCalls many = new PendingCalls(timer, threads * perThread, () -> "here -> there");
        AtomicInteger heard = new AtomicInteger();
        java.util.function.BiConsumer<Object, Throwable> listener = (v, e) -> heard.incrementAndGet();
        java.util.concurrent.ConcurrentLinkedQueue<PendingCall> added = new java.util.concurrent.ConcurrentLinkedQueue<>();
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(threads);
        try {
            java.util.List<java.util.concurrent.Future<?>> done = new java.util.ArrayList<>();
            for (int t = 0; t < threads; t++) {
                done.add(pool.submit(() -> {
                    for (int i = 0; i < perThread; i++) {
                        assertTrue(many.reserve());
                        PendingCall call = many.add(TestSupport.request(greet, 60_000, Map.of(), "x"), listener);
                        added.add(call);
                        if (i % 2 == 0) { // half answered at once, the others stay pending a while (the table grows)
                            assertSame(call, many.take(call.id()));
                            call.complete("answer");
                        }
                    }
                    return null;
                }));
            }
            for (java.util.concurrent.Future<?> f : done) {
                f.get(30, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(threads * perThread / 2, many.size());
        java.util.Set<Long> ids = new java.util.HashSet<>();
        for (PendingCall call : added) {
            assertTrue(ids.add(call.id()), "ids are unique: " + call.id());
            PendingCall taken = many.take(call.id());
            if (taken != null) {
                assertSame(call, taken, "a response finds its own call");
                call.complete("late answer");
            }
        }
        assertEquals(0, many.size());
        assertEquals(threads * perThread, heard.get(), "every call heard of once");
        for (PendingCall call : added) {
            assertFalse(call.isPending());
            assertNull(many.take(call.id()));
        }
    }

    @Test
    void aFailedCallLeavesTheTableAndTheOthersStay() {
        PendingCalls three = new PendingCalls(timer, 3, () -> "here -> there");
        assertTrue(three.reserve());
        PendingCall a = three.add(TestSupport.request(greet, 60_000, Map.of(), "a"));
        assertTrue(three.reserve());
        PendingCall b = three.add(TestSupport.request(greet, 60_000, Map.of(), "b"));
        a.fail(new IllegalStateException("write failed"));
        a.fail(new IllegalStateException("twice")); // gone already: nothing happens
        assertTrue(a.isCompletedExceptionally());
        assertTrue(b.isPending());
        assertSame(b, three.take(b.id()));
        assertEquals(0, three.size());
    }
}
