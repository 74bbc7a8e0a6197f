package io.kestrel.rpc.spring.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.kestrel.rpc.api.stream.StreamObserver;
import io.kestrel.rpc.spring.boot.fixture.Feeds;
import io.kestrel.rpc.spring.boot.fixture.FeedsApps;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Spring Boot applications with the starter export and refer an interface with server-streaming, client-streaming
 * and bidirectional methods like any other, through a real in-process ZooKeeper, and stream over a real socket.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class StreamingBootTest {
    private static final int N = 1000;

    private static Map<String, Object> app(String name, TestingServer zookeeper) {
        return Map.of("spring.application.name", name, "spring.main.web-application-type", "none",
                "rpc.registry.address", "zookeeper://" + zookeeper.getConnectString(), "rpc.protocol.port", "0");
    }

    @Test
    void eachStreamingShapeRunsBetweenBootApplications() throws Exception {
        try (TestingServer zookeeper = new TestingServer(true);
             ConfigurableApplicationContext provider = new SpringApplicationBuilder(FeedsApps.Provider.class)
                     .properties(app("feeds-provider", zookeeper)).run();
             ConfigurableApplicationContext consumer = new SpringApplicationBuilder(FeedsApps.Consumer.class)
                     .properties(app("feeds-consumer", zookeeper)).run()) {
            Feeds feeds = consumer.getBean(FeedsApps.Client.class).feeds;

            Kept<Integer> numbers = new Kept<>();
            feeds.numbers(N, numbers);
            assertNull(numbers.end());
            assertEquals(IntStream.rangeClosed(1, N).boxed().toList(), numbers.received);

            Kept<String> measured = new Kept<>();
            StreamObserver<String> words = feeds.measure(measured);
            for (int i = 0; i < N; i++) {
                words.onNext("abc");
            }
            words.onCompleted();
            assertNull(measured.end());
            assertEquals(List.of(N + " messages, " + 3 * N + " characters"), measured.received);

            Kept<Integer> doubled = new Kept<>();
            StreamObserver<Integer> in = feeds.doubled(doubled);
            for (int i = 0; i < N; i++) {
                in.onNext(i);
            }
            in.onCompleted();
            assertNull(doubled.end());
            assertEquals(IntStream.range(0, N).map(i -> 2 * i).boxed().toList(), doubled.received);
        }
    }

    /** Keeps what a stream delivers and how it ended. */
    private static final class Kept<T> implements StreamObserver<T> {
        final List<T> received = new CopyOnWriteArrayList<>();
        final CompletableFuture<Throwable> ended = new CompletableFuture<>();

        @Override
        public void onNext(T value) {
            received.add(value);
        }

        @Override
        public void onError(Throwable error) {
            ended.complete(error);
        }

        @Override
        public void onCompleted() {
            ended.complete(null);
        }

        Throwable end() throws Exception {
            return ended.get(30, TimeUnit.SECONDS);
        }
    }
}
