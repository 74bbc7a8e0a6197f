package io.kestrel.rpc.core.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.api.stream.StreamCancelledException;
import io.kestrel.rpc.api.stream.StreamObserver;
import io.kestrel.rpc.core.Callbacks;
import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.core.TestRuntimes;
import io.kestrel.rpc.testing.Await;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code callbacks=direct}: a stream's response observer is called on the connection's I/O thread (no hand-off), in
 * order; it can answer from there while it has credit, and without credit {@code onNext} fails instead of waiting.
 */
class DirectStreamDeliveryTest {
    static final int MANY = 5000;
    RpcRuntime provider;
    RpcRuntime direct;
    RpcRuntime pooled;
    FeedServiceImpl impl = new FeedServiceImpl();

    @BeforeEach
    void start() {
        provider = RpcRuntime.builder().protocol(TestRuntimes.loopback().build()).build();
        provider.export(ServiceConfig.builder(FeedService.class, impl).build());
        direct = RpcRuntime.builder().callbacks(Callbacks.DIRECT).build();
        pooled = RpcRuntime.builder().build();
    }

    FeedService feed(RpcRuntime consumer) {
        return consumer.refer(ReferenceConfig.builder(FeedService.class).url("127.0.0.1:" + provider.boundPort())
                .timeout(Duration.ofSeconds(20)).build());
    }

    @AfterEach
    void stop() {
        direct.close();
        pooled.close();
        provider.close();
    }

    private static boolean ioThread(Thread t) {
        return t.getName().startsWith("kestrel-client-io");
    }

    @Test
    void aServerStreamReachesTheObserverOnTheIoThreadInOrder() throws Exception {
        Collector<Integer> out = new Collector<>();
        feed(direct).count(0, MANY, out);
        assertNull(out.end());
        assertEquals(IntStream.range(0, MANY).boxed().toList(), out.received);
        assertTrue(ioThread(out.deliveryThread), "delivered on " + out.deliveryThread.getName());

        Collector<Integer> pool = new Collector<>();
        feed(pooled).count(0, 10, pool);
        assertNull(pool.end());
        assertFalse(ioThread(pool.deliveryThread), "with the default callbacks an I/O thread never runs the observer");
    }

    @Test
    void anObserverAnswersFromTheIoThreadWhileItHasCredit() throws Exception {
        int trips = 2000;
        PingPong pingPong = new PingPong(trips);
        pingPong.requests = feed(direct).echo(pingPong);
        pingPong.requests.onNext("0");
        assertNull(pingPong.end());
        assertEquals(IntStream.range(0, trips).mapToObj(String::valueOf).toList(), pingPong.received);
        assertEquals(1, pingPong.threads.size(), "one connection, one I/O thread: " + pingPong.threads);
        assertTrue(ioThread(pingPong.threads.iterator().next()), "delivered on " + pingPong.threads);
    }

    @Test
    void withoutCreditAnObserverOnTheIoThreadFailsToSendInsteadOfWaiting() throws Exception {
        AtomicReference<RuntimeException> refused = new AtomicReference<>();
        int[] sent = {1};
        Answering responses = new Answering() {
            @Override
            public void onNext(String value) {
                super.onNext(value);
                if (received.size() == 1) { // sends a burst from the I/O thread, which cannot take credit meanwhile
                    try {
                        for (int i = 0; i < 10_000; i++) {
                            requests.onNext("burst " + i);
                            sent[0]++;
                        }
                    } catch (RuntimeException e) {
                        refused.set(e);
                    }
                }
            }
        };
        responses.requests = feed(direct).echo(responses);
        responses.requests.onNext("first");
        Await.until("the burst ran out of credit", () -> refused.get() != null);
        RuntimeException e = refused.get();
        assertTrue(e instanceof IllegalStateException && e.getMessage().contains("check isReady() first"),
                "refusal: " + e);
        assertTrue(sent[0] > 1 && sent[0] < 10_000, "sent before the credit ran out: " + sent[0]);
        Await.until("the echoes of what was sent", () -> responses.received.size() == sent[0]);
        responses.requests.onCompleted();
        assertNull(responses.end(), "the stream still ends normally");
        assertEquals(sent[0], responses.received.size(), "every message sent before the refusal was echoed");
    }

    /**
     * A long queue of messages delivered on the I/O thread does not hold the connection's reads: after each batch of
     * 64 the event loop reads its socket, so a unary answer that arrives meanwhile completes its call before the
     * thousands queued ahead of it have been delivered (before, the event loop read again only once the queue was
     * empty, so on a busy stream a unary call waited for the whole credit window to be delivered).
     */
    @Test
    void aLongDeliveryOnTheIoThreadLetsTheConnectionReadInBetween() throws Exception {
        AtomicBoolean slow = new AtomicBoolean();
        AtomicInteger delivered = new AtomicInteger();
        Collector<Integer> observer = new Collector<>() { // keeps the handle and the end, not the messages
            @Override
            public void onNext(Integer value) {
                delivered.incrementAndGet();
                if (slow.get()) {
                    for (long end = System.nanoTime() + 100_000; System.nanoTime() < end; ) {
                        Thread.onSpinWait(); // 100 us of work per message, on the I/O thread
                    }
                }
            }
        };
        FeedService service = feed(direct);
        service.endless(observer);
        // fast at first, so the automatic window widens toward its byte bound (thousands of small messages)
        Await.until("the stream ran a while", () -> delivered.get() > 20_000);
        slow.set(true);
        // the provider fills the window again: the queue ahead of the next answer
        Await.until("thousands of messages sent and not yet delivered",
                () -> impl.endlessSent.get() - delivered.get() > 1000);

        int queuedBefore = impl.endlessSent.get() - delivered.get();
        int deliveredBefore = delivered.get();
        assertEquals("pong x", service.ping("x"));
        int deliveredDuring = delivered.get() - deliveredBefore;
        String figures = "sent and not yet delivered when the call went out: " + queuedBefore
                + "; delivered before its answer: " + deliveredDuring;
        System.out.println(figures);
        assertTrue(deliveredDuring < queuedBefore / 2, "the answer waited behind the queued messages: " + figures);
        slow.set(false);
        assertFalse(observer.ended.isDone(), "the stream still runs: " + observer.ended.getNow(null));
        observer.handle.cancel("enough");
        assertTrue(observer.end() instanceof StreamCancelledException, "ended by the cancel");
    }

    /** A {@link Collector} that can answer: the request observer of its bidirectional stream. */
    private static class Answering extends Collector<String> {
        volatile StreamObserver<String> requests;
    }

    /** Sends the next message from each echo, the last one half-closes. */
    private static final class PingPong extends Answering {
        final int trips;
        final Set<Thread> threads = ConcurrentHashMap.newKeySet();

        PingPong(int trips) {
            this.trips = trips;
        }

        @Override
        public void onNext(String value) {
            super.onNext(value);
            threads.add(Thread.currentThread());
            int next = received.size();
            if (next < trips) {
                requests.onNext(String.valueOf(next));
            } else {
                requests.onCompleted();
            }
        }
    }
}
