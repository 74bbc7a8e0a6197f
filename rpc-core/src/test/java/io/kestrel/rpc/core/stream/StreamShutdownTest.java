package io.kestrel.rpc.core.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.RpcException;
import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.api.stream.StreamCancelledException;
import io.kestrel.rpc.api.stream.StreamObserver;
import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.core.TestRuntimes;
import io.kestrel.rpc.testing.Await;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Graceful shutdown with open streams, on each side: new streams are refused naming the shutdown, open streams go on
 * and may finish within the shutdown-timeout (2 s here), the ones still open then are cancelled with a reason naming
 * the shutdown, on both ends.
 */
class StreamShutdownTest {
    static final long GRACE_MS = 2000;
    RpcRuntime provider;
    RpcRuntime consumer;
    FeedServiceImpl impl = new FeedServiceImpl();
    FeedService feed;

    @BeforeEach
    void start() {
        provider = RpcRuntime.builder().protocol(TestRuntimes.loopback().build()).build();
        provider.export(ServiceConfig.builder(FeedService.class, impl).build());
        // the consumer's shutdown-timeout is its runtime's protocol setting (2 s in loopback()); it exports nothing
        consumer = RpcRuntime.builder().protocol(TestRuntimes.loopback().build()).build();
        feed = consumer.refer(ReferenceConfig.builder(FeedService.class).url("127.0.0.1:" + provider.boundPort())
                .timeout(Duration.ofSeconds(30)).build());
    }

    @AfterEach
    void stop() {
        consumer.close();
        provider.close();
    }

    @Test
    void providerShutdownLetsOpenStreamsFinishRefusesNewOnesAndCancelsTheRestAtTheTimeout() throws Exception {
        Collector<String> finishing = new Collector<>();
        StreamObserver<String> finishingIn = feed.echo(finishing);
        Collector<String> lingering = new Collector<>();
        StreamObserver<String> lingeringIn = feed.echo(lingering);
        finishingIn.onNext("before");
        lingeringIn.onNext("before");
        Await.until("both streams echoed", () -> finishing.received.size() == 1 && lingering.received.size() == 1);

        long t0 = System.nanoTime();
        CompletableFuture<Void> closed = CompletableFuture.runAsync(provider::close);
        Await.until("the provider refuses new calls", () -> refused(() -> feed.ping("x")));

        Collector<String> late = new Collector<>();
        feed.echo(late);
        Throwable refused = late.end();
        assertInstanceOf(RpcException.class, refused);
        assertTrue(refused.getMessage().contains("shutting down"), refused.getMessage());

        finishingIn.onNext("during"); // an open stream goes on while the provider drains
        Await.until("the open stream is still served", () -> finishing.received.size() == 2);
        finishingIn.onCompleted();
        assertNull(finishing.end(), "a stream that ends within the shutdown-timeout ends normally");
        assertEquals(List.of("before", "during"), finishing.received);

        Throwable cancelled = lingering.end();
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertInstanceOf(StreamCancelledException.class, cancelled);
        assertTrue(cancelled.getMessage().contains("shutting down")
                && cancelled.getMessage().contains("shutdown-timeout of " + GRACE_MS + " ms"), cancelled.getMessage());
        assertTrue(ms >= GRACE_MS - 100, "cancelled at the shutdown-timeout, not before: " + ms + " ms");
        Throwable providerSide = impl.echoFailed.get(10, TimeUnit.SECONDS);
        assertInstanceOf(StreamCancelledException.class, providerSide);
        assertTrue(providerSide.getMessage().contains("shutting down"), providerSide.getMessage());
        closed.get(20, TimeUnit.SECONDS);
    }

    @Test
    void consumerCloseLetsOpenStreamsFinishRefusesNewOnesAndCancelsTheRestAtTheTimeout() throws Exception {
        Collector<Integer> endless = new Collector<>();
        feed.endless(endless);
        Collector<String> finishing = new Collector<>();
        StreamObserver<String> finishingIn = feed.echo(finishing);
        finishingIn.onNext("before");
        Await.until("both streams flow", () -> finishing.received.size() == 1 && impl.endlessSent.get() > 0);

        long t0 = System.nanoTime();
        CompletableFuture<Void> closed = CompletableFuture.runAsync(consumer::close);
        Collector<String> late = new Collector<>();
        Await.until("the closing consumer refuses new streams", () -> {
            Collector<String> probe = new Collector<>();
            feed.echo(probe).onCompleted();
            try {
                Throwable end = probe.end();
                if (end != null && end.getMessage().contains("this consumer is shutting down")) {
                    late.ended.complete(end);
                    return true;
                }
                return false;
            } catch (Exception e) {
                return false;
            }
        });
        assertInstanceOf(RpcException.class, late.end());

        finishingIn.onNext("during");
        Await.until("the open stream is still served", () -> finishing.received.size() == 2);
        finishingIn.onCompleted();
        assertNull(finishing.end(), "a stream that ends within the shutdown-timeout ends normally");

        Throwable cancelled = endless.end();
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertInstanceOf(StreamCancelledException.class, cancelled);
        assertTrue(cancelled.getMessage().contains("consumer is shutting down")
                && cancelled.getMessage().contains("shutdown-timeout of " + GRACE_MS + " ms"), cancelled.getMessage());
        assertTrue(ms >= GRACE_MS - 100, "cancelled at the shutdown-timeout, not before: " + ms + " ms");
        Throwable providerSide = impl.endlessEnded.get(10, TimeUnit.SECONDS);
        assertInstanceOf(StreamCancelledException.class, providerSide);
        assertTrue(providerSide.getMessage().contains("consumer is shutting down"), providerSide.getMessage());
        closed.get(20, TimeUnit.SECONDS);
    }

    private static boolean refused(Runnable call) {
        try {
            call.run();
            return false;
        } catch (RpcException e) {
            return e.getMessage().contains("shutting down");
        }
    }
}
