package io.kestrel.rpc.demo.consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.registry.embedded.EmbeddedZooKeeper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Timeout;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.support.GenericXmlApplicationContext;
import org.springframework.core.env.MapPropertySource;

/**
 * The demo's real wiring in one JVM: the provider's {@code provider.xml} on an embedded ZooKeeper, the
 * consumer's {@link ConsumerConfig} pointed at it, every call of the demo, a short throughput run.
 * (run-demo.sh does the same in two JVMs.) The serialization is set on the provider only, as in
 * {@code DEMO_SERIALIZATION=kryo ./run-demo.sh}: the consumer adopts it and the provider's optimizer.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class DemoEndToEndTest {
    @ParameterizedTest
    @ValueSource(strings = {"fory", "kryo"})
    void consumerMakesEveryDemoCallAgainstTheXmlProvider(String providerSerialization) throws Exception {
        try (GenericXmlApplicationContext provider = new GenericXmlApplicationContext()) {
            provider.getEnvironment().getPropertySources().addFirst(new MapPropertySource("test", Map.of(
                    "rpc.registry.address", "embedded", "rpc.protocol.port", "0",
                    "rpc.protocol.serialization", providerSerialization)));
            provider.load("classpath:provider.xml");
            provider.refresh();
            String zk = "embedded://" + EmbeddedZooKeeper.current().orElseThrow().port();
            assertEquals(providerSerialization, provider.getBean(RpcRuntime.class).protocol().serialization());

            try (AnnotationConfigApplicationContext consumer = new AnnotationConfigApplicationContext()) {
                consumer.getEnvironment().getPropertySources().addFirst(new MapPropertySource("test", Map.of(
                        "rpc.registry.address", zk)));
                consumer.register(ConsumerConfig.class);
                consumer.refresh();
                DemoClient client = consumer.getBean(DemoClient.class);
                ByteArrayOutputStream bytes = new ByteArrayOutputStream();
                PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);

                client.showCalls(out);
                long errors = client.measureThroughput(out, 2, Duration.ofMillis(300));

                String printed = bytes.toString(StandardCharsets.UTF_8);
                assertEquals(0, errors, printed);
                assertTrue(printed.contains("list(0, 10)      -> 2 users: 1 Ada Lovelace, 2 Alan Turing"), printed);
                assertTrue(printed.contains("get(999)         -> UserNotFoundException: no user with id 999"), printed);
                assertTrue(printed.contains("bid(2 impressions) -> 2 bids, prices 1.00, 1.35 EUR"), printed);
                assertTrue(printed.matches("(?s).*throughput: bid\\(\\) from 2 threads: \\d+ calls in .*"), printed);
            }
        }
    }
}
