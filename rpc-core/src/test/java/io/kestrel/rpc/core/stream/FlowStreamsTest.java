package io.kestrel.rpc.core.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.api.stream.FlowStreams;
import io.kestrel.rpc.api.stream.StreamCancelledException;
import io.kestrel.rpc.api.stream.StreamObserver;
import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.core.TestRuntimes;
import io.kestrel.rpc.testing.Await;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Flow;
import java.util.concurrent.SubmissionPublisher;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The {@link FlowStreams} adapters over real sockets: a subscriber's demand is the provider's credit (a slow
 * subscriber requesting one at a time holds the provider to exactly what it requested), cancel reaches the provider,
 * errors arrive once, and publishers feed a client stream and a provider's answer stream.
 */
class FlowStreamsTest {
    RpcRuntime provider;
    RpcRuntime consumer;
    FeedServiceImpl impl = new FeedServiceImpl();
    FlowFeed.Impl flowImpl = new FlowFeed.Impl();
    FeedService feed;
    FlowFeed flow;

    @BeforeEach
    void start() {
        provider = RpcRuntime.builder().protocol(TestRuntimes.loopback().build()).build();
        provider.export(ServiceConfig.builder(FeedService.class, impl).build());
        provider.export(ServiceConfig.builder(FlowFeed.class, flowImpl).build());
        consumer = RpcRuntime.builder().build();
        String url = "127.0.0.1:" + provider.boundPort();
        feed = consumer.refer(ReferenceConfig.builder(FeedService.class).url(url).timeout(Duration.ofSeconds(30))
                .build());
        flow = consumer.refer(ReferenceConfig.builder(FlowFeed.class).url(url).timeout(Duration.ofSeconds(30))
                .build());
    }

    @AfterEach
    void stop() {
        consumer.close();
        provider.close();
        flowImpl.close();
    }

    /** A subscriber that records every signal and requests as told. */
    static class Recorder<T> implements Flow.Subscriber<T> {
        final List<T> items = new CopyOnWriteArrayList<>();
        final List<String> terminals = new CopyOnWriteArrayList<>();
        final CompletableFuture<Throwable> ended = new CompletableFuture<>();
        final long initial;
        final int requestEachUpTo; // after each item, request 1 more while fewer than this arrived
        volatile Flow.Subscription subscription;

        Recorder(long initial, int requestEachUpTo) {
            this.initial = initial;
            this.requestEachUpTo = requestEachUpTo;
        }

        @Override
        public void onSubscribe(Flow.Subscription s) {
            subscription = s;
            s.request(initial);
        }

        @Override
        public void onNext(T item) {
            items.add(item);
            if (items.size() < requestEachUpTo) {
                try {
                    Thread.sleep(2); // a slow subscriber
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                subscription.request(1);
            }
        }

        @Override
        public void onError(Throwable t) {
            terminals.add("error " + t);
            ended.complete(t);
        }

        @Override
        public void onComplete() {
            terminals.add("complete");
            ended.complete(null);
        }
    }

    @Test
    void aSlowSubscriberRequestingOneAtATimeHoldsTheProviderToItsDemandAndCancelReachesIt() throws Exception {
        Recorder<Integer> slow = new Recorder<>(1, 40);
        FlowStreams.<Integer>publisher(out -> feed.endless(out)).subscribe(slow);
        Await.until("40 items, each requested", () -> slow.items.size() == 40);
        assertTrue(!new CountDownLatch(1).await(300, TimeUnit.MILLISECONDS));
        // the provider's endless loop sends as fast as it may: it sent exactly what the subscriber requested
        assertEquals(40, impl.endlessSent.get(), "messages the provider sent for 40 requested one at a time");
        assertEquals(IntStream.range(0, 40).boxed().toList(), slow.items);
        slow.subscription.cancel(); // mid-stream
        Throwable providerSaw = impl.endlessEnded.get(10, TimeUnit.SECONDS);
        assertInstanceOf(StreamCancelledException.class, providerSaw);
        assertTrue(providerSaw.getMessage().contains("the subscriber cancelled its subscription"),
                providerSaw.getMessage());
        assertTrue(!new CountDownLatch(1).await(200, TimeUnit.MILLISECONDS));
        assertEquals(List.of(), slow.terminals, "nothing after a cancel");
        assertEquals(40, slow.items.size());
    }

    @Test
    void anUnboundedSubscriberGetsEveryItemInOrderThenOneCompletion() throws Exception {
        Recorder<Integer> all = new Recorder<>(Long.MAX_VALUE, 0);
        FlowStreams.<Integer>publisher(out -> feed.count(0, 5000, out)).subscribe(all);
        assertNull(all.ended.get(30, TimeUnit.SECONDS));
        assertEquals(IntStream.range(0, 5000).boxed().toList(), all.items);
        assertTrue(!new CountDownLatch(1).await(100, TimeUnit.MILLISECONDS));
        assertEquals(List.of("complete"), all.terminals);
    }

    @Test
    void theProvidersErrorArrivesExactlyOnceAfterTheItemsBeforeIt() throws Exception {
        Recorder<Integer> r = new Recorder<>(Long.MAX_VALUE, 0);
        FlowStreams.<Integer>publisher(out -> feed.failAfter(3, out)).subscribe(r);
        Throwable t = r.ended.get(30, TimeUnit.SECONDS);
        assertInstanceOf(IllegalStateException.class, t);
        assertEquals("failed after 3 messages", t.getMessage());
        assertEquals(List.of(0, 1, 2), r.items);
        assertTrue(!new CountDownLatch(1).await(100, TimeUnit.MILLISECONDS));
        assertEquals(1, r.terminals.size(), r.terminals.toString());
    }

    @Test
    void aRequestOfZeroIsAnErrorThatCancelsTheStream() throws Exception {
        Recorder<Integer> r = new Recorder<>(1, 0);
        FlowStreams.<Integer>publisher(out -> feed.endless(out)).subscribe(r);
        Await.until("the first item", () -> r.items.size() == 1);
        r.subscription.request(0);
        Throwable t = r.ended.get(30, TimeUnit.SECONDS);
        assertInstanceOf(IllegalArgumentException.class, t);
        assertTrue(t.getMessage().contains("3.9"), t.getMessage());
        assertInstanceOf(StreamCancelledException.class, impl.endlessEnded.get(10, TimeUnit.SECONDS));
        assertEquals(1, r.items.size());
        assertEquals(1, r.terminals.size(), r.terminals.toString());
    }

    @Test
    void aSubscriberThatCancelsInOnSubscribeMakesNoCall() throws Exception {
        Recorder<Integer> r = new Recorder<>(0, 0) {
            @Override
            public void onSubscribe(Flow.Subscription s) {
                subscription = s;
                s.cancel();
            }
        };
        AtomicInteger calls = new AtomicInteger();
        FlowStreams.<Integer>publisher(out -> {
            calls.incrementAndGet();
            feed.endless(out);
        }).subscribe(r);
        assertEquals(0, calls.get());
        assertEquals(List.of(), r.terminals);
    }

    @Test
    void aPublisherFeedsAClientStream() throws Exception {
        Collector<Long> result = new Collector<>();
        StreamObserver<Integer> up = feed.sum(result);
        try (SubmissionPublisher<Integer> numbers = new SubmissionPublisher<>()) {
            FlowStreams.feed(numbers, up);
            for (int i = 1; i <= 3000; i++) {
                numbers.submit(i);
            }
        } // close: onComplete, the consumer half-closes
        assertNull(result.end());
        assertEquals(List.of(3000L * 3001 / 2), result.received);
    }

    @Test
    void aPublisherFeedsTheProvidersAnswerStreamWithinTheCredit() throws Exception {
        Recorder<Integer> r = new Recorder<>(Long.MAX_VALUE, 0);
        FlowStreams.<Integer>publisher(out -> flow.range(5000, out)).subscribe(r);
        assertNull(r.ended.get(30, TimeUnit.SECONDS));
        assertEquals(IntStream.range(0, 5000).boxed().toList(), r.items);

        // a subscriber that takes 10 and stops: the provider's publisher is held, its stream sends no more
        Recorder<Integer> ten = new Recorder<>(10, 0);
        AtomicInteger before = new AtomicInteger();
        FlowStreams.<Integer>publisher(out -> flow.range(1_000_000, out)).subscribe(ten);
        Await.until("10 items", () -> ten.items.size() == 10);
        before.set(ten.items.size());
        assertTrue(!new CountDownLatch(1).await(300, TimeUnit.MILLISECONDS));
        assertEquals(10, ten.items.size(), "no item beyond the demand");
        ten.subscription.cancel();
        assertEquals(List.of(), ten.terminals);
    }
}
