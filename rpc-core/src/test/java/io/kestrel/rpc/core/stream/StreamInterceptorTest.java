package io.kestrel.rpc.core.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.api.interceptor.CallInfo;
import io.kestrel.rpc.api.interceptor.CallOutcome;
import io.kestrel.rpc.api.interceptor.ClientInterceptor;
import io.kestrel.rpc.api.interceptor.ServerInterceptor;
import io.kestrel.rpc.api.interceptor.StreamListener;
import io.kestrel.rpc.api.stream.StreamCancelledException;
import io.kestrel.rpc.api.stream.StreamObserver;
import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.core.TestRuntimes;
import io.kestrel.rpc.testing.Await;
import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Interceptors on both sides see a stream's start, each message in both directions and its end, over a real
 * loopback connection; unary calls carry no stream; a listener that throws does not break the stream.
 */
class StreamInterceptorTest {
    static final int N = 1500;
    RpcRuntime provider;
    RpcRuntime consumer;
    final FeedServiceImpl impl = new FeedServiceImpl();
    final Recorder client = new Recorder();
    final Recorder server = new Recorder();
    FeedService feed;

    @BeforeEach
    void start() {
        provider = RpcRuntime.builder().protocol(TestRuntimes.loopback().build())
                .serverInterceptor(chain -> server.intercept(chain.call(), chain::proceed))
                .serverInterceptor(chain -> {
                    if (chain.call().isStream()) {
                        chain.call().addStreamListener(new StreamListener() {
                            @Override
                            public void onMessageSent(Object message) {
                                throw new IllegalStateException("a broken listener");
                            }
                        });
                    }
                    return chain.proceed();
                })
                .build();
        provider.export(ServiceConfig.builder(FeedService.class, impl).build());
        consumer = RpcRuntime.builder().clientInterceptor(chain -> client.intercept(chain.call(), chain::proceed)).build();
        feed = consumer.refer(ReferenceConfig.builder(FeedService.class).url("127.0.0.1:" + provider.boundPort())
                .timeout(Duration.ofSeconds(20)).build());
    }

    @AfterEach
    void stop() {
        consumer.close();
        provider.close();
    }

    @Test
    void serverStreamMessagesReachBothSidesInterceptors() throws Exception {
        Collector<Integer> out = new Collector<>();
        feed.count(0, N, out);
        assertNull(out.end());
        Stream c = client.only();
        Stream s = server.only();
        assertEquals(N, out.received.size());
        assertEquals(List.of(0, 0, N, 0), List.of(c.sent.get(), s.received.get(), s.sent.get(), 0));
        assertEquals(N, c.received.get(), "messages the consumer's interceptor saw arrive");
        assertEquals(0, c.receivedOutOfOrder.get());
        assertEquals(CallOutcome.OK, c.outcome());
        assertEquals(CallOutcome.OK, s.outcome());
        assertEquals("count", c.method);
    }

    @Test
    void clientStreamMessagesReachBothSidesInterceptors() throws Exception {
        Collector<Long> out = new Collector<>();
        StreamObserver<Integer> in = feed.sum(out);
        for (int i = 0; i < N; i++) {
            in.onNext(i);
        }
        in.onCompleted();
        assertNull(out.end());
        Stream c = client.only();
        Stream s = server.only();
        assertEquals(List.of(N, 1), List.of(c.sent.get(), c.received.get()));
        assertEquals(List.of(N, 1), List.of(s.received.get(), s.sent.get()));
        assertEquals(CallOutcome.OK, c.outcome());
        assertEquals(CallOutcome.OK, s.outcome());
    }

    @Test
    void bidirectionalMessagesReachBothSidesInterceptorsAndTheEndComesAfterThem() throws Exception {
        Collector<String> out = new Collector<>();
        StreamObserver<String> in = feed.echo(out);
        for (int i = 0; i < N; i++) {
            in.onNext("m" + i);
        }
        in.onCompleted();
        assertNull(out.end());
        Stream c = client.only();
        Stream s = server.only();
        assertEquals(List.of(N, N, N, N), List.of(c.sent.get(), c.received.get(), s.received.get(), s.sent.get()));
        assertEquals(CallOutcome.OK, c.outcome());
        assertEquals(CallOutcome.OK, s.outcome());
        assertEquals(0, c.afterEnd.get() + s.afterEnd.get(), "no message callback after the end");
    }

    @Test
    void consumerCancelReachesBothSidesAsCancelled() throws Exception {
        Collector<Integer> out = new Collector<>();
        feed.endless(out);
        Await.until("messages arrive", () -> out.received.size() >= 100);
        out.handle.cancel("enough");
        assertInstanceOf(StreamCancelledException.class, out.end());
        assertEquals(CallOutcome.CANCELLED, client.only().outcome());
        assertEquals(CallOutcome.CANCELLED, server.only().outcome());
        assertEquals(out.received.size(), client.only().received.get());
    }

    @Test
    void providerExceptionReachesBothSidesAsServiceError() throws Exception {
        Collector<Integer> out = new Collector<>();
        feed.failAfter(300, out);
        assertInstanceOf(IllegalStateException.class, out.end());
        assertEquals(CallOutcome.SERVICE_ERROR, client.only().outcome());
        assertEquals(CallOutcome.SERVICE_ERROR, server.only().outcome());
        assertEquals(300, client.only().received.get());
        assertEquals(300, server.only().sent.get());
    }

    @Test
    void unaryCallsCarryNoStream() {
        assertEquals("pong x", feed.ping("x"));
        assertTrue(client.streams.isEmpty());
        assertTrue(server.streams.isEmpty());
        assertEquals(List.of(false, false), List.of(client.unaryIsStream.poll(), server.unaryIsStream.poll()));
        assertTrue(client.refusedUnaryListener.get() == 1 && server.refusedUnaryListener.get() == 1,
                "addStreamListener on a unary call throws IllegalStateException");
    }

    /** One stream as an interceptor saw it. */
    static final class Stream implements StreamListener {
        final String method;
        final AtomicInteger sent = new AtomicInteger();
        final AtomicInteger received = new AtomicInteger();
        final AtomicInteger receivedOutOfOrder = new AtomicInteger();
        final AtomicInteger afterEnd = new AtomicInteger();
        final CompletableFuture<Throwable> ended = new CompletableFuture<>();

        Stream(String method) {
            this.method = method;
        }

        @Override
        public void onMessageSent(Object message) {
            sent.incrementAndGet();
            afterEnd.addAndGet(ended.isDone() ? 1 : 0);
        }

        @Override
        public void onMessageReceived(Object message) {
            int n = received.getAndIncrement();
            if (message instanceof Integer i && method.equals("count") && i != n) {
                receivedOutOfOrder.incrementAndGet();
            }
            afterEnd.addAndGet(ended.isDone() ? 1 : 0);
        }

        @Override
        public void onEnd(Throwable error) {
            if (!ended.complete(error)) {
                afterEnd.incrementAndGet(); // a second end
            }
        }

        CallOutcome outcome() throws Exception {
            return CallOutcome.of(ended.get(20, TimeUnit.SECONDS));
        }
    }

    /** Registers a {@link Stream} for every stream an interceptor of one side sees. */
    static final class Recorder {
        final Queue<Stream> streams = new ConcurrentLinkedQueue<>();
        final Queue<Boolean> unaryIsStream = new ConcurrentLinkedQueue<>();
        final AtomicInteger refusedUnaryListener = new AtomicInteger();

        CompletableFuture<Object> intercept(CallInfo call, java.util.function.Supplier<CompletableFuture<Object>> proceed) {
            if (call.isStream()) {
                Stream s = new Stream(call.methodName());
                call.addStreamListener(s);
                streams.add(s);
            } else {
                unaryIsStream.add(false);
                try {
                    call.addStreamListener(new StreamListener() { });
                } catch (IllegalStateException e) {
                    assertTrue(e.getMessage().contains("not a streaming call"), e.getMessage());
                    refusedUnaryListener.incrementAndGet();
                }
            }
            return proceed.get();
        }

        Stream only() throws InterruptedException {
            Await.until("the interceptor saw the stream", () -> !streams.isEmpty());
            assertEquals(1, streams.size(), "streams seen");
            return streams.peek();
        }
    }

    @Test
    void aThrowingListenerDoesNotBreakTheStream() throws Exception {
        Collector<Integer> out = new Collector<>();
        feed.count(0, 10, out);
        assertNull(out.end());
        assertEquals(10, out.received.size());
        assertFalse(server.only().ended.isCompletedExceptionally());
        assertEquals(10, server.only().sent.get());
    }
}
