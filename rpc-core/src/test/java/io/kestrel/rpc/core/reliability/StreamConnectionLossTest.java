package io.kestrel.rpc.core.reliability;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.TransportException;
import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.stream.StreamObserver;
import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.core.stream.FeedService;
import io.kestrel.rpc.testing.Await;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A provider process that dies without a goodbye (killed, its sockets reset by the kernel) under open streams: every
 * stream of the connection fails at once with an error naming the provider, long before the streams' deadline.
 */
class StreamConnectionLossTest {
    private static final Duration STREAM_DEADLINE = Duration.ofSeconds(120);

    private ChildJvm child;
    private RpcRuntime consumer;

    @AfterEach
    void stop() {
        if (consumer != null) {
            consumer.close();
        }
        if (child != null) {
            child.close();
        }
    }

    @Test
    void aKilledProviderFailsEveryOpenStreamAtOnceNamingTheProvider() throws Exception {
        child = ChildJvm.start("stream-provider", FeedProviderMain.class);
        int port = Integer.parseInt(child.awaitLine("READY port=(\\d+)", 30_000).group(1));
        consumer = RpcRuntime.builder().build();
        FeedService feed = consumer.refer(ReferenceConfig.builder(FeedService.class).url("127.0.0.1:" + port)
                .timeout(STREAM_DEADLINE).build());
        Ends<Integer> endless = new Ends<>();
        Ends<String> echo = new Ends<>();
        feed.endless(endless);
        feed.echo(echo).onNext("x");
        Await.until("both streams flow", () -> endless.messages.get() > 10 && echo.messages.get() == 1);

        long killedAt = System.nanoTime();
        child.kill();
        Throwable a = endless.ended.get(30, TimeUnit.SECONDS);
        Throwable b = echo.ended.get(30, TimeUnit.SECONDS);
        long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killedAt);

        for (Throwable t : new Throwable[] {a, b}) {
            assertInstanceOf(TransportException.class, t, "a dropped connection, not a timeout or a cancel: " + t);
            assertTrue(String.valueOf(t.getMessage()).contains("127.0.0.1:" + port), "names the provider: " + t);
        }
        assertTrue(tookMs < 10_000, "both streams failed " + tookMs + " ms after the kill, not at their "
                + STREAM_DEADLINE.toSeconds() + " s deadline");
    }

    /** Counts messages and completes with the stream's error (null when it completed). */
    private static final class Ends<T> implements StreamObserver<T> {
        final AtomicInteger messages = new AtomicInteger();
        final CompletableFuture<Throwable> ended = new CompletableFuture<>();

        @Override
        public void onNext(T value) {
            messages.incrementAndGet();
        }

        @Override
        public void onError(Throwable error) {
            ended.complete(error);
        }

        @Override
        public void onCompleted() {
            ended.complete(null);
        }
    }
}
