package io.kestrel.rpc.transport.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.testing.Await;
import io.kestrel.rpc.testing.NettyLeakCheck;
import io.kestrel.rpc.transport.Connection;
import io.kestrel.rpc.transport.ThreadlessWait;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A blocking caller's answers decoded on its own thread ({@link ThreadlessWait}), over a real loopback socket: the
 * thread that decodes, a caller that stops waiting (timeout, interrupt) and loses no frame, many callers at once.
 */
@Timeout(60)
class ThreadlessWaitTest {
    private final LoopbackGreeter greeter = new LoopbackGreeter();

    @AfterEach
    void close() {
        greeter.close();
    }

    private static long in(long millis) {
        return System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
    }

    @Test
    void aWaitingCallersAnswerIsDecodedAndCompletedOnItsOwnThreadNotTheIoThread() throws Exception {
        Connection c = greeter.connection();
        ThreadlessWait wait = ThreadlessWait.forThisThread();
        assertNotNull(wait, "a plain thread has a wait");
        String me = Thread.currentThread().getName();
        AtomicReference<String> completedOn = new AtomicReference<>();
        // the provider sleeps, so the answer surely arrives while this thread waits
        CompletableFuture<Object> f = c.invoke(LoopbackGreeter.GREET, greeter.serializer, new Object[] {"sleep:100"},
                java.util.Map.of(), 5000, CharSequence.class, (v, e) -> completedOn.set(Thread.currentThread().getName()),
                wait);
        wait.await(f, in(10_000));
        assertEquals("hello sleep:100", f.get());
        assertEquals(me, greeter.decodedOn.get("hello sleep:100"), "decoded on the caller's thread");
        assertEquals(me, completedOn.get(), "completed (its listener told) on the caller's thread");

        // without a wait the I/O thread decodes, as before
        CompletableFuture<Object> plain = greeter.greet(c, "sleep:50:plain", 5000, null);
        assertEquals("hello sleep:50:plain", plain.get(10, TimeUnit.SECONDS));
        String ioThread = greeter.decodedOn.get("hello sleep:50:plain");
        assertNotEquals(me, ioThread);
        assertEquals(0, c.pendingCalls());
    }

    @Test
    void aCallerThatTimesOutLeavesTheLateAnswerToTheIoThreadAndHoldsNoFrame() throws Exception {
        Connection c = greeter.connection();
        ThreadlessWait wait = ThreadlessWait.forThisThread();
        CompletableFuture<Object> f = greeter.greet(c, "sleep:300", 5000, wait);
        assertThrows(TimeoutException.class, () -> wait.await(f, in(30)));
        assertFalse(f.isDone());
        // the caller no longer waits: the answer is decoded where it arrives, and nothing is held for this thread
        assertEquals("hello sleep:300", f.get(10, TimeUnit.SECONDS));
        assertNotEquals(Thread.currentThread().getName(), greeter.decodedOn.get("hello sleep:300"));
        Await.until("the consumer's response budget is back to 0", Duration.ofSeconds(5),
                () -> greeter.transport().responseBytesHeld() == 0);
        // and the thread's next call is served on it again
        CompletableFuture<Object> next = greeter.greet(c, "sleep:50:next", 5000, wait);
        wait.await(next, in(10_000));
        assertEquals(Thread.currentThread().getName(), greeter.decodedOn.get("hello sleep:50:next"));
    }

    @Test
    void anAnswerHandedOverToACallerThatThenTimesOutIsReleasedUnreadAndItsCallFails() throws Exception {
        Connection c = greeter.connection();
        ThreadlessWait wait = ThreadlessWait.forThisThread();
        AtomicReference<CompletableFuture<Object>> late = new AtomicReference<>();
        // the first answer's completion keeps this thread busy past its deadline; meanwhile a second answer is
        // handed over to it (sent by another thread for this wait), which it never gets to decode
        CompletableFuture<Object> slow = c.invoke(LoopbackGreeter.GREET, greeter.serializer, new Object[] {"sleep:100"},
                java.util.Map.of(), 5000, CharSequence.class, (v, e) -> {
                    Thread sender = new Thread(() -> late.set(greeter.greet(c, "late", 5000, wait)));
                    sender.start();
                    try {
                        sender.join();
                        Thread.sleep(300); // kept: the late answer must arrive while this thread is still busy here
                    } catch (InterruptedException ie) {
                        Thread.currentThread().interrupt();
                    }
                }, wait);
        CompletableFuture<Object> never = new CompletableFuture<>();
        assertThrows(TimeoutException.class, () -> wait.await(never, in(250)));
        assertEquals("hello sleep:100", slow.get());
        ExecutionException dropped = assertThrows(ExecutionException.class, () -> late.get().get(5, TimeUnit.SECONDS));
        assertTrue(dropped.getCause().getMessage().contains("arrived after its caller stopped waiting"),
                dropped.getCause().toString());
        assertNull(greeter.decodedOn.get("hello late"), "never decoded");
        Await.until("the frame and its budget given back", Duration.ofSeconds(5),
                () -> greeter.transport().responseBytesHeld() == 0 && c.pendingCalls() == 0);
        NettyLeakCheck.findLeaks(); // the class's leak check (rpc-transport registers it) fails on any report
    }

    @Test
    void anInterruptedCallerStopsWaitingWithItsStatusClearedAndTheAnswerIsNotLost() throws Exception {
        Connection c = greeter.connection();
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        AtomicReference<CompletableFuture<Object>> sent = new AtomicReference<>();
        AtomicReference<Boolean> interruptedAfter = new AtomicReference<>();
        Thread caller = new Thread(() -> {
            ThreadlessWait wait = ThreadlessWait.forThisThread();
            CompletableFuture<Object> f = greeter.greet(c, "sleep:400", 5000, wait);
            sent.set(f);
            try {
                wait.await(f, in(10_000));
            } catch (Throwable t) {
                thrown.set(t);
            }
            interruptedAfter.set(Thread.currentThread().isInterrupted());
        }, "interrupted-caller");
        caller.start();
        Await.until("the caller sent its call", Duration.ofSeconds(5), () -> sent.get() != null);
        // parked in await (an interrupt before it parks is seen when it parks, too)
        Await.until("the caller parked in await", Duration.ofSeconds(5),
                () -> caller.getState() == Thread.State.TIMED_WAITING || caller.getState() == Thread.State.WAITING);
        caller.interrupt();
        caller.join(10_000);
        assertFalse(caller.isAlive());
        assertTrue(thrown.get() instanceof InterruptedException, String.valueOf(thrown.get()));
        assertEquals(Boolean.FALSE, interruptedAfter.get(), "as CompletableFuture.get: the status is cleared");
        assertEquals("hello sleep:400", sent.get().get(10, TimeUnit.SECONDS));
        assertNotEquals("interrupted-caller", greeter.decodedOn.get("hello sleep:400"));
        Await.until("nothing held", Duration.ofSeconds(5),
                () -> greeter.transport().responseBytesHeld() == 0 && c.pendingCalls() == 0);
    }

    @Test
    void manyConcurrentCallersEachDecodeTheirOwnAnswers() throws Exception {
        Connection c = greeter.connection();
        int callers = 16;
        int calls = 40;
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < callers; t++) {
            String name = "caller-" + t;
            Thread thread = new Thread(() -> {
                ThreadlessWait wait = ThreadlessWait.forThisThread();
                try {
                    for (int i = 0; i < calls; i++) {
                        // a few ms on the provider: the answer arrives while its caller waits
                        String arg = "sleep:2:" + name + "-" + i;
                        CompletableFuture<Object> f = greeter.greet(c, arg, 10_000, wait);
                        wait.await(f, in(20_000));
                        assertEquals("hello " + arg, f.get());
                        assertEquals(name, greeter.decodedOn.get("hello " + arg), arg + " decoded on its caller");
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }, name);
            threads.add(thread);
            thread.start();
        }
        for (Thread t : threads) {
            t.join(50_000);
            assertFalse(t.isAlive(), t.getName() + " did not finish");
        }
        assertNull(failure.get(), () -> "a caller failed: " + failure.get());
        assertEquals(callers * calls, greeter.decodedOn.size());
        assertEquals(0, c.pendingCalls());
    }

    @Test
    void callersThatGiveUpAtRandomMomentsLeakNoFrameAndEveryCallEnds() throws Exception {
        Connection c = greeter.connection();
        int callers = 6;
        List<CompletableFuture<Object>> all = java.util.Collections.synchronizedList(new ArrayList<>());
        AtomicInteger droppedUnread = new AtomicInteger();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < callers; t++) {
            Thread thread = new Thread(() -> {
                ThreadlessWait wait = ThreadlessWait.forThisThread();
                for (int i = 0; i < 150; i++) {
                    CompletableFuture<Object> f = greeter.greet(c, "x" + i, 10_000, wait);
                    all.add(f);
                    try {
                        // gives up after 0-400 us: often while its answer is on its way or just handed over
                        wait.await(f, System.nanoTime() + ThreadLocalRandom.current().nextLong(400_000));
                    } catch (TimeoutException | InterruptedException e) {
                        // gave up: the answer is decoded elsewhere or released unread
                    }
                }
            }, "giving-up-" + t);
            threads.add(thread);
            thread.start();
        }
        for (Thread t : threads) {
            t.join(50_000);
            assertFalse(t.isAlive());
        }
        for (CompletableFuture<Object> f : all) {
            try {
                Object v = f.get(10, TimeUnit.SECONDS);
                assertTrue(String.valueOf(v).startsWith("hello x"), String.valueOf(v));
            } catch (ExecutionException e) {
                if (e.getCause() instanceof io.kestrel.rpc.api.ServerBusyException) {
                    continue; // callers that give up send faster than answers come: the provider's cap refuses some
                }
                assertTrue(e.getCause().getMessage().contains("arrived after its caller stopped waiting"),
                        e.getCause().toString());
                droppedUnread.incrementAndGet();
            }
        }
        System.out.printf("%d calls, %d answers released unread by callers that stopped waiting%n", all.size(),
                droppedUnread.get());
        Await.until("every frame and its budget given back", Duration.ofSeconds(5),
                () -> greeter.transport().responseBytesHeld() == 0 && c.pendingCalls() == 0);
        NettyLeakCheck.findLeaks(); // the class's leak check (rpc-transport registers it) fails on any report
    }
}
