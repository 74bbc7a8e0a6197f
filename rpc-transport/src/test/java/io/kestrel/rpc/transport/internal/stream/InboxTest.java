package io.kestrel.rpc.transport.internal.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.testing.Await;
import io.netty.channel.DefaultEventLoop;
import io.netty.channel.EventLoop;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The stream inbox on a real event loop and a real executor: what one read burst queues reaches the executor as one
 * task (not one per message), in order, and never on the event loop unless the event loop is the executor.
 */
@Timeout(30)
class InboxTest {
    private final EventLoop loop = new DefaultEventLoop();
    private final ExecutorService pool = Executors.newSingleThreadExecutor();
    private final AtomicInteger handOffs = new AtomicInteger();
    private final Executor counting = task -> {
        handOffs.incrementAndGet();
        pool.execute(task);
    };
    private final List<Object> delivered = new CopyOnWriteArrayList<>();
    private final AtomicReference<Thread> deliveredOn = new AtomicReference<>();

    @AfterEach
    void stop() throws InterruptedException {
        pool.shutdownNow();
        loop.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(5, TimeUnit.SECONDS);
    }

    private Inbox inbox(Executor executor) {
        return new Inbox(executor, item -> {
            deliveredOn.set(Thread.currentThread());
            delivered.add(item);
        }, e -> delivered.add(e), true);
    }

    @Test
    void aReadBurstIsHandedToTheExecutorOnceAndInOrder() throws Exception {
        Inbox inbox = inbox(counting);
        loop.submit(() -> IntStream.range(0, 50).forEach(i -> inbox.offerInBurst(i, loop))).get(5, TimeUnit.SECONDS);
        Await.until("the burst's 50 items delivered", () -> delivered.size() == 50);
        assertEquals(IntStream.range(0, 50).boxed().toList(), delivered);
        assertEquals(1, handOffs.get(), "one hand-off for the whole burst");
        assertTrue(deliveredOn.get() != null && !loop.inEventLoop(deliveredOn.get()), "delivered on the executor");

        loop.submit(() -> IntStream.range(50, 60).forEach(i -> inbox.offerInBurst(i, loop))).get(5, TimeUnit.SECONDS);
        Await.until("the second burst delivered", () -> delivered.size() == 60);
        assertEquals(2, handOffs.get(), "one more hand-off for the next burst");
        assertEquals(IntStream.range(0, 60).boxed().toList(), delivered);
    }

    @Test
    void anItemOfferedOffTheLoopAfterABurstComesAfterIt() throws Exception {
        Inbox inbox = inbox(counting);
        loop.submit(() -> {
            inbox.offerInBurst("a", loop);
            inbox.offerInBurst("b", loop);
            inbox.offer("end"); // e.g. the call ended on another thread while the burst waits for its hand-off
        }).get(5, TimeUnit.SECONDS);
        Await.until("three items delivered", () -> delivered.size() == 3);
        assertEquals(List.of("a", "b", "end"), delivered);
    }

    @Test
    void theEventLoopAsExecutorDeliversThereAfterTheReads() throws Exception {
        Inbox inbox = inbox(loop);
        loop.submit(() -> {
            inbox.offerInBurst(1, loop);
            inbox.offerInBurst(2, loop);
            assertTrue(delivered.isEmpty(), "not delivered within the read");
        }).get(5, TimeUnit.SECONDS);
        Await.until("both delivered", () -> delivered.size() == 2);
        assertEquals(List.of(1, 2), delivered);
        assertTrue(loop.inEventLoop(deliveredOn.get()), "direct delivery runs on the event loop");
    }

    @Test
    void anExecutorThatRefusesIsReported() throws Exception {
        Inbox inbox = inbox(task -> {
            throw new RejectedExecutionException("full");
        });
        loop.submit(() -> inbox.offerInBurst("x", loop)).get(5, TimeUnit.SECONDS);
        Await.until("the refusal reported", () -> !delivered.isEmpty());
        assertNotNull(delivered.get(0));
        assertTrue(delivered.get(0) instanceof RejectedExecutionException, "told the refusal, got " + delivered);
    }
}
