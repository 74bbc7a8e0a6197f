package io.kestrel.rpc.core.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.RpcTimeoutException;
import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.api.stream.CallStreamObserver;
import io.kestrel.rpc.api.stream.StreamCancelledException;
import io.kestrel.rpc.api.stream.StreamLimits;
import io.kestrel.rpc.api.stream.StreamObserver;
import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.core.TestRuntimes;
import io.kestrel.rpc.testing.Await;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Each streaming shape over a real loopback connection: order, ends, cancellation both ways, deadline, errors. */
class StreamingTest {
    static final int MANY = 5000;
    RpcRuntime provider;
    RpcRuntime consumer;
    FeedServiceImpl impl = new FeedServiceImpl();
    FeedService feed;

    @BeforeEach
    void start() {
        provider = RpcRuntime.builder().protocol(TestRuntimes.loopback().build()).build();
        provider.export(ServiceConfig.builder(FeedService.class, impl).build());
        consumer = RpcRuntime.builder().build();
        feed = reference(Duration.ofSeconds(20));
    }

    FeedService reference(Duration timeout) {
        return consumer.refer(ReferenceConfig.builder(FeedService.class).url("127.0.0.1:" + provider.boundPort())
                .timeout(timeout).build());
    }

    @AfterEach
    void stop() {
        consumer.close();
        provider.close();
    }

    @Test
    void serverStreamDeliversThousandsOfMessagesInOrderThenCompletes() throws Exception {
        Collector<Integer> out = new Collector<>();
        feed.count(7, MANY, out);
        assertNull(out.end());
        assertEquals(IntStream.range(7, 7 + MANY).boxed().toList(), out.received);
        assertTrue(out.deliveryThread.getName().indexOf("eventLoop") < 0, "delivered off the I/O thread: "
                + out.deliveryThread.getName());
    }

    @Test
    void clientStreamSendsThousandsOfMessagesAndGetsOneAnswer() throws Exception {
        Collector<Long> out = new Collector<>();
        StreamObserver<Integer> in = feed.sum(out);
        for (int i = 1; i <= MANY; i++) {
            in.onNext(i);
        }
        in.onCompleted();
        assertNull(out.end());
        assertEquals(List.of((long) MANY * (MANY + 1) / 2), out.received);
    }

    @Test
    void bidirectionalStreamEchoesThousandsOfMessagesInOrder() throws Exception {
        Collector<String> out = new Collector<>();
        StreamObserver<String> in = feed.echo(out);
        for (int i = 0; i < MANY; i++) {
            in.onNext("m" + i);
        }
        in.onCompleted();
        assertNull(out.end());
        assertEquals(IntStream.range(0, MANY).mapToObj(i -> "m" + i).toList(), out.received);
        assertNull(impl.echoEnded.get(10, TimeUnit.SECONDS), "the provider's request observer completed");
    }

    @Test
    void slowReceiverHoldsTheSenderToItsWindow() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        Collector<Integer> out = new Collector<>(gate);
        feed.endless(out);
        int window = StreamLimits.window();
        Await.until("the provider sent its first window", () -> impl.endlessSent.get() >= window);
        // the consumer takes nothing: however long the provider runs, it has no credit beyond the window
        assertTrue(!new CountDownLatch(1).await(500, TimeUnit.MILLISECONDS));
        assertEquals(window, impl.endlessSent.get(), "messages the provider sent while the consumer read none");
        gate.countDown();
        Await.until("the stream flows again", () -> impl.endlessSent.get() > 10 * window);
        out.handle.cancel("seen enough");
        assertInstanceOf(StreamCancelledException.class, out.end());
    }

    @Test
    void smallMessagesWidenTheWindowAndAPauseStillHoldsTheSenderToIt() throws Exception {
        int taken = 12_000;
        CountDownLatch pause = new CountDownLatch(1);
        Collector<Integer> out = new Collector<>(pause, taken); // takes `taken` messages, then waits at the gate
        feed.endless(out);
        Await.until("the consumer took " + taken + " messages and paused", () -> out.received.size() >= taken);
        int now = impl.endlessSent.get();
        for (int i = 0, before = -1; i < 100 && now != before; i++) { // until the provider stops: out of credit
            before = now;
            assertTrue(!new CountDownLatch(1).await(300, TimeUnit.MILLISECONDS));
            now = impl.endlessSent.get();
        }
        int ahead = now - taken;
        // an Integer is a few bytes: 16 KiB of them is far more than the 64 messages a window starts at, and
        // widening stops at MAX_GROWN_WINDOW: so the sender got more than 64 ahead, and not more than that widest
        // window plus the half window taken since the last grant
        assertTrue(ahead > 4 * StreamLimits.window(), "the sender got only " + ahead + " ahead: no wider window");
        assertTrue(ahead <= StreamLimits.MAX_GROWN_WINDOW * 3 / 2, "the sender got " + ahead + " ahead, beyond the"
                + " widest window");
        assertEquals(now, impl.endlessSent.get(), "the sender stays held while the consumer reads nothing");
        pause.countDown();
        Await.until("the stream flows again", () -> impl.endlessSent.get() > taken + ahead + 1000);
        out.handle.cancel("seen enough");
        assertInstanceOf(StreamCancelledException.class, out.end());
    }

    @Test
    void consumerCancelStopsTheProviderSender() throws Exception {
        Collector<Integer> out = new Collector<>();
        feed.endless(out);
        Await.until("messages arrive", () -> out.received.size() >= 100);
        out.handle.cancel("enough");
        Throwable end = out.end();
        assertInstanceOf(StreamCancelledException.class, end);
        assertTrue(end.getMessage().contains("cancelled by the consumer: enough"), end.getMessage());
        Throwable providerSaw = impl.endlessEnded.get(10, TimeUnit.SECONDS);
        assertInstanceOf(StreamCancelledException.class, providerSaw);
        assertTrue(providerSaw.getMessage().contains("enough"), providerSaw.getMessage());
    }

    @Test
    void providerCancelEndsTheConsumerStreamAndItsRequestObserver() throws Exception {
        Collector<String> out = new Collector<>();
        StreamObserver<String> in = feed.echo(out);
        in.onNext("a");
        in.onNext("cancel");
        Throwable end = out.end();
        assertInstanceOf(StreamCancelledException.class, end);
        assertTrue(end.getMessage().contains("the provider had enough"), end.getMessage());
        assertEquals(List.of("a"), out.received);
        assertTrue(((CallStreamObserver<String>) in).isCancelled());
        assertThrows(StreamCancelledException.class, () -> in.onNext("after"));
    }

    @Test
    void deadlineEndsTheWholeStreamOnBothSides() throws Exception {
        FeedService shortLived = reference(Duration.ofMillis(700));
        Collector<Integer> out = new Collector<>();
        long start = System.nanoTime();
        shortLived.endless(out);
        Throwable end = out.end();
        long tookMs = (System.nanoTime() - start) / 1_000_000;
        assertInstanceOf(RpcTimeoutException.class, end);
        assertTrue(out.received.size() > 100, "messages flowed before the deadline: " + out.received.size());
        assertTrue(tookMs >= 600 && tookMs < 10_000, "ended at the deadline, after " + tookMs + " ms");
        Throwable providerSaw = impl.endlessEnded.get(10, TimeUnit.SECONDS);
        assertTrue(providerSaw instanceof StreamCancelledException || providerSaw instanceof RpcTimeoutException,
                String.valueOf(providerSaw));
    }

    @Test
    void providerExceptionEndsTheStreamAfterTheMessagesBeforeIt() throws Exception {
        Collector<Integer> out = new Collector<>();
        feed.failAfter(1000, out);
        Throwable end = out.end();
        assertInstanceOf(IllegalStateException.class, end);
        assertEquals("failed after 1000 messages", end.getMessage());
        assertEquals(IntStream.range(0, 1000).boxed().toList(), out.received);
    }

    @Test
    void consumerErrorOnTheRequestStreamCancelsItAtTheProvider() throws Exception {
        Collector<Long> out = new Collector<>();
        StreamObserver<Integer> in = feed.sum(out);
        in.onNext(1);
        in.onError(new IllegalArgumentException("bad input"));
        assertInstanceOf(StreamCancelledException.class, out.end());
        Await.until("the provider's request observer failed", () -> impl.requestStreamError.get() != null);
        assertTrue(impl.requestStreamError.get().getMessage().contains("bad input"),
                impl.requestStreamError.get().getMessage());
    }

    @Test
    void providerGoneFailsEveryOpenStreamAtOnce() throws Exception {
        Collector<Integer> first = new Collector<>();
        Collector<String> second = new Collector<>();
        feed.endless(first);
        feed.echo(second).onNext("x");
        Await.until("both streams flow", () -> first.received.size() > 10 && second.received.size() == 1);
        provider.close(); // graceful: the open streams are cancelled at its shutdown-timeout, naming it
        Throwable a = first.end();
        Throwable b = second.end();
        assertTrue(a.getMessage().contains("port " + provider.boundPort() + " is shutting down"), a.toString());
        assertTrue(b.getMessage().contains("port " + provider.boundPort() + " is shutting down"), b.toString());
    }
}
