package io.kestrel.rpc.core.internal.shared;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.api.stream.ClientResponseObserver;
import io.kestrel.rpc.api.stream.CallStreamObserver;
import io.kestrel.rpc.api.stream.StreamObserver;
import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.core.TestRuntimes;
import io.kestrel.rpc.core.stream.FeedService;
import io.kestrel.rpc.core.stream.FeedServiceImpl;
import io.kestrel.rpc.testing.Await;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The access log writes one line per stream and side, when the stream ends, with its message counts. */
class StreamAccessLogTest {
    private static final String SERVICE = FeedService.class.getName();
    private final List<String> lines = new CopyOnWriteArrayList<>();
    private RpcRuntime provider;
    private RpcRuntime consumer;
    private FeedService feed;

    @BeforeEach
    void start() {
        AccessLogInterceptor.observer = (logger, line) -> lines.add(logger + " " + line);
        provider = RpcRuntime.builder().accessLog(true).protocol(TestRuntimes.loopback().build()).build();
        provider.export(ServiceConfig.builder(FeedService.class, new FeedServiceImpl()).build());
        consumer = RpcRuntime.builder().accessLog(true).build();
        feed = consumer.refer(ReferenceConfig.builder(FeedService.class).url("127.0.0.1:" + provider.boundPort())
                .timeout(Duration.ofSeconds(20)).build());
    }

    @AfterEach
    void stop() {
        AccessLogInterceptor.observer = null;
        consumer.close();
        provider.close();
    }

    @Test
    void aBidirectionalStreamIsOneLinePerSideWithItsMessages() throws Exception {
        Ended<String> out = new Ended<>();
        StreamObserver<String> in = feed.echo(out);
        for (int i = 0; i < 250; i++) {
            in.onNext("m" + i);
        }
        in.onCompleted();
        assertEquals(null, out.ended.get(20, TimeUnit.SECONDS));
        Await.until("one line per side", () -> lines.size() == 2);
        assertTrue(lines.stream().anyMatch(l -> l.matches("io\\.kestrel\\.rpc\\.access\\.client " + SERVICE
                + "#echo ok \\d+\\.\\d\\d ms peer=127\\.0\\.0\\.1:" + provider.boundPort() + " sent=250 received=250")),
                lines.toString());
        assertTrue(lines.stream().anyMatch(l -> l.matches("io\\.kestrel\\.rpc\\.access\\.server " + SERVICE
                + "#echo ok \\d+\\.\\d\\d ms peer=127\\.0\\.0\\.1:\\d+ request=\\d+B sent=250 received=250")),
                lines.toString());
    }

    @Test
    void aCancelledStreamIsLoggedAsCancelledWhenItEnds() throws Exception {
        Ended<Integer> out = new Ended<>();
        feed.endless(out);
        Await.until("messages arrive", () -> out.count.get() > 30);
        assertTrue(lines.isEmpty(), "no line while the stream is open: " + lines);
        out.handle.cancel("enough");
        out.ended.get(20, TimeUnit.SECONDS);
        Await.until("one line per side", () -> lines.size() == 2);
        assertTrue(lines.stream().allMatch(l -> l.contains("#endless cancelled ")), lines.toString());
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("io.kestrel.rpc.access.client")
                && l.endsWith(" sent=0 received=" + out.count.get())), lines.toString());
    }

    /** Counts messages; keeps the end and the handle. */
    static final class Ended<T> implements ClientResponseObserver<T> {
        final AtomicInteger count = new AtomicInteger();
        final CompletableFuture<Throwable> ended = new CompletableFuture<>();
        volatile CallStreamObserver<?> handle;

        @Override
        public void beforeStart(CallStreamObserver<?> stream) {
            handle = stream;
        }

        @Override
        public void onNext(T value) {
            count.incrementAndGet();
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
