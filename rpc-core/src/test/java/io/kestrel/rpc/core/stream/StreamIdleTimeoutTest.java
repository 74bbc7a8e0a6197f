package io.kestrel.rpc.core.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.RpcTimeoutException;
import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.config.ServerLimits;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.api.stream.StreamCancelledException;
import io.kestrel.rpc.api.stream.StreamObserver;
import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.core.TestRuntimes;
import io.kestrel.rpc.testing.Await;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The provider's {@code stream-idle-timeout} over real sockets, set small: a consumer that holds credit and sends
 * nothing has its stream ended, both sides told why with the setting named, and the slot freed; a consumer that
 * keeps sending, or that waits for credit the provider withholds, is not idle.
 */
class StreamIdleTimeoutTest {
    static final Duration IDLE = Duration.ofMillis(300);

    RpcRuntime provider;
    RpcRuntime consumer;
    FeedServiceImpl feedImpl = new FeedServiceImpl();
    Intake.Impl intakeImpl = new Intake.Impl();
    FeedService feed;

    @BeforeEach
    void start() {
        provider = RpcRuntime.builder().protocol(TestRuntimes.loopback()
                .limits(ServerLimits.builder().streamIdleTimeout(IDLE).build()).build()).build();
        provider.export(ServiceConfig.builder(FeedService.class, feedImpl).build());
        provider.export(ServiceConfig.builder(Intake.class, intakeImpl).build());
        consumer = RpcRuntime.builder().build();
        feed = reference(FeedService.class, Duration.ofSeconds(30));
    }

    <T> T reference(Class<T> type, Duration timeout) {
        return consumer.refer(ReferenceConfig.builder(type).url("127.0.0.1:" + provider.boundPort()).timeout(timeout)
                .build());
    }

    @AfterEach
    void stop() {
        consumer.close();
        provider.close();
    }

    @Test
    void aConsumerThatGoesQuietHasItsStreamEndedOnBothSides() throws Exception {
        Collector<String> out = new Collector<>();
        StreamObserver<String> in = feed.echo(out);
        long quietSince = System.nanoTime(); // the provider sees the consumer's last frame after this
        in.onNext("a");
        Await.until("the echo", () -> out.received.equals(List.of("a")));
        assertEquals(1, provider.inspect().snapshot().server().openStreams());

        Throwable consumerSaw = out.end(); // then nothing: the consumer holds credit and sends nothing
        long quietMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - quietSince);
        assertInstanceOf(StreamCancelledException.class, consumerSaw);
        assertTrue(consumerSaw.getMessage().contains("cancelled by the provider")
                && consumerSaw.getMessage().contains("stream-idle-timeout of 300 ms")
                && consumerSaw.getMessage().contains("sent nothing"), consumerSaw.getMessage());
        assertTrue(quietMillis >= IDLE.toMillis(), "ended after " + quietMillis + " ms quiet, the timeout is " + IDLE);
        Throwable providerSaw = feedImpl.echoFailed.get(10, TimeUnit.SECONDS);
        assertInstanceOf(StreamCancelledException.class, providerSaw);
        assertTrue(providerSaw.getMessage().contains("stream-idle-timeout"), providerSaw.getMessage());
        Await.until("the stream's slot is free", () -> provider.inspect().snapshot().server().openStreams() == 0);
        assertThrows(StreamCancelledException.class, () -> in.onNext("after"));
        assertEquals("pong still served", feed.ping("still served"), "the connection stays");
    }

    @Test
    void aConsumerThatKeepsSendingIsNotIdle() throws Exception {
        Collector<String> out = new Collector<>();
        StreamObserver<String> in = feed.echo(out);
        int ticks = 16; // every 50 ms: 800 ms in all, well past the 300 ms timeout
        AtomicInteger sent = new AtomicInteger();
        CompletableFuture<Void> done = new CompletableFuture<>();
        ScheduledExecutorService pace = Executors.newSingleThreadScheduledExecutor();
        try {
            pace.scheduleWithFixedDelay(() -> {
                int n = sent.getAndIncrement();
                try {
                    if (n < ticks) {
                        in.onNext("t" + n);
                    } else if (n == ticks) {
                        in.onCompleted();
                        done.complete(null);
                    }
                } catch (RuntimeException e) {
                    done.completeExceptionally(e);
                }
            }, 0, 50, TimeUnit.MILLISECONDS);
            done.get(30, TimeUnit.SECONDS); // a send that failed fails here with its exception
        } finally {
            pace.shutdownNow();
        }
        assertNull(out.end(), "completed, not ended as idle");
        assertEquals(IntStream.range(0, ticks).mapToObj(i -> "t" + i).toList(), out.received);
    }

    @Test
    void aConsumerWaitingForCreditTheProviderWithholdsIsNotIdle() throws Exception {
        Intake intake = reference(Intake.class, Duration.ofMillis(1500)); // five idle timeouts
        Collector<Long> answer = new Collector<>();
        StreamObserver<Integer> in = intake.manual(0, answer); // the provider requests nothing
        assertThrows(RpcTimeoutException.class, () -> in.onNext(1), "waits for credit until the deadline");
        Throwable end = answer.end();
        assertInstanceOf(RpcTimeoutException.class, end, "the deadline ended it, not the idle timer: " + end);
        Throwable providerSaw = intakeImpl.manualEnded.get(10, TimeUnit.SECONDS);
        assertTrue(providerSaw != null && !providerSaw.getMessage().contains("stream-idle-timeout"),
                String.valueOf(providerSaw));
    }

    @Test
    void zeroTurnsTheTimerOffAndNegativeIsRefused() {
        assertEquals(Duration.ZERO, ServerLimits.builder().streamIdleTimeout(Duration.ZERO).build().streamIdleTimeout());
        assertEquals(Duration.ofMinutes(5), ServerLimits.defaults().streamIdleTimeout());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ServerLimits.builder().streamIdleTimeout(Duration.ofSeconds(-1)));
        assertTrue(e.getMessage().contains("stream-idle-timeout") && e.getMessage().contains("0 turns it off"),
                e.getMessage());
    }
}
