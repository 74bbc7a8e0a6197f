package io.kestrel.rpc.core.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.ServerBusyException;
import io.kestrel.rpc.api.config.ProtocolConfig;
import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.api.stream.StreamLimits;
import io.kestrel.rpc.api.stream.StreamObserver;
import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.core.TestRuntimes;
import io.kestrel.rpc.testing.Await;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Streams share the connection with unary calls and with each other: busy streams do not starve unary calls, a
 * consumer that never reads holds bounded memory and leaves others served, the per-connection stream limit holds,
 * and the dubbo protocol refuses streaming services clearly.
 */
class StreamSharingTest {
    RpcRuntime provider;
    RpcRuntime consumer;
    FeedServiceImpl impl = new FeedServiceImpl();
    FeedService feed;

    @BeforeEach
    void start() {
        provider = RpcRuntime.builder().protocol(TestRuntimes.loopback().build()).build();
        provider.export(ServiceConfig.builder(FeedService.class, impl).build());
        consumer = RpcRuntime.builder().build();
        feed = consumer.refer(ReferenceConfig.builder(FeedService.class).url("127.0.0.1:" + provider.boundPort())
                .timeout(Duration.ofSeconds(30)).build());
    }

    @AfterEach
    void stop() {
        consumer.close();
        provider.close();
    }

    @Test
    void concurrentStreamsAndUnaryCallsShareOneConnection() throws Exception {
        int streams = 8;
        int messages = 3000;
        ExecutorService senders = Executors.newFixedThreadPool(streams);
        try {
            List<Collector<String>> outs = new ArrayList<>();
            List<Future<?>> sent = new ArrayList<>();
            for (int s = 0; s < streams; s++) {
                Collector<String> out = new Collector<>();
                outs.add(out);
                int id = s;
                sent.add(senders.submit(() -> {
                    StreamObserver<String> in = feed.echo(out);
                    for (int i = 0; i < messages; i++) {
                        in.onNext(id + ":" + i);
                    }
                    in.onCompleted();
                }));
            }
            // unary calls interleave with the streams on the same connection while they run
            long worstMs = 0;
            int unary = 0;
            while (outs.stream().anyMatch(o -> !o.ended.isDone()) && unary < 100_000) {
                long t0 = System.nanoTime();
                assertEquals("pong " + unary, feed.ping(String.valueOf(unary)));
                worstMs = Math.max(worstMs, (System.nanoTime() - t0) / 1_000_000);
                unary++;
            }
            for (Future<?> f : sent) {
                f.get(60, TimeUnit.SECONDS);
            }
            for (int s = 0; s < streams; s++) {
                Collector<String> out = outs.get(s);
                assertNull(out.end());
                int id = s;
                assertEquals(IntStream.range(0, messages).mapToObj(i -> id + ":" + i).toList(), out.received);
            }
            assertTrue(unary > 10, "unary calls ran while the streams did: " + unary);
            assertTrue(worstMs < 5_000, "the slowest unary call beside the streams took " + worstMs + " ms");
            System.out.println("streams " + streams + " x " + messages + " echoed; " + unary
                    + " unary calls meanwhile, slowest " + worstMs + " ms");
        } finally {
            senders.shutdownNow();
        }
    }

    @Test
    void consumerThatNeverReadsHoldsBoundedMemoryAndOthersAreServed() throws Exception {
        RpcRuntime other = RpcRuntime.builder().build();
        CountDownLatch never = new CountDownLatch(1);
        try {
            int hostileStreams = 20;
            List<Collector<Integer>> stuck = new ArrayList<>();
            for (int i = 0; i < hostileStreams; i++) {
                Collector<Integer> out = new Collector<>(never); // takes one message and never returns
                stuck.add(out);
                feed.endless(out);
            }
            int window = StreamLimits.window();
            Await.until("every stream used its window", () -> impl.endlessSent.get() >= hostileStreams * window);
            assertTrue(!new CountDownLatch(1).await(300, TimeUnit.MILLISECONDS));
            assertEquals(hostileStreams * window, impl.endlessSent.get(),
                    "messages sent to a consumer that reads none: one window per stream, no more");
            FeedService served = other.refer(ReferenceConfig.builder(FeedService.class)
                    .url("127.0.0.1:" + provider.boundPort()).timeout(Duration.ofSeconds(10)).build());
            for (int i = 0; i < 50; i++) {
                assertEquals("pong " + i, served.ping(String.valueOf(i)));
            }
            Collector<Integer> fine = new Collector<>();
            served.count(0, 1000, fine);
            assertNull(fine.end());
            assertEquals(1000, fine.received.size());
            stuck.forEach(o -> o.handle.cancel("test over"));
        } finally {
            never.countDown();
            other.close();
        }
    }

    @Test
    void streamsBeyondThePerConnectionLimitAreRefusedBusy() throws Exception {
        int max = StreamLimits.maxPerConnection();
        List<StreamObserver<String>> open = new ArrayList<>();
        List<Collector<String>> outs = new ArrayList<>();
        for (int i = 0; i < max; i++) {
            Collector<String> out = new Collector<>();
            StreamObserver<String> in = feed.echo(out);
            in.onNext("hello");
            open.add(in);
            outs.add(out);
        }
        Await.until("every stream answered", () -> outs.stream().allMatch(o -> o.received.size() == 1));
        Collector<String> refused = new Collector<>();
        feed.echo(refused);
        Throwable end = refused.end();
        assertInstanceOf(ServerBusyException.class, end);
        assertTrue(end.getMessage().contains(StreamLimits.MAX_PER_CONNECTION_PROPERTY), end.getMessage());
        open.forEach(StreamObserver::onCompleted);
        for (Collector<String> out : outs) {
            assertNull(out.end());
        }
        Collector<String> later = new Collector<>();
        StreamObserver<String> again = feed.echo(later);
        again.onNext("again");
        again.onCompleted();
        assertNull(later.end());
        assertEquals(List.of("again"), later.received);
    }

    @Test
    void dubboProtocolRefusesStreamingServicesAtExportAndRefer() {
        RpcRuntime dubbo = RpcRuntime.builder().protocol(TestRuntimes.loopback().name(ProtocolConfig.DUBBO).build())
                .build();
        try {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> dubbo.export(ServiceConfig.builder(FeedService.class, impl).build()));
            assertTrue(e.getMessage().contains("dubbo protocol carries no streams"), e.getMessage());
            assertTrue(e.getMessage().contains("FeedService#"), e.getMessage());
            IllegalArgumentException r = assertThrows(IllegalArgumentException.class,
                    () -> consumer.refer(ReferenceConfig.builder(FeedService.class).protocol(ProtocolConfig.DUBBO)
                            .url("dubbo://127.0.0.1:" + provider.boundPort()).build()));
            assertTrue(r.getMessage().contains("dubbo protocol carries no streams"), r.getMessage());
        } finally {
            dubbo.close();
        }
    }
}
