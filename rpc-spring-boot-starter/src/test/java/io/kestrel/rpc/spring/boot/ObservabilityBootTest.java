package io.kestrel.rpc.spring.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.observability.metrics.KestrelMetrics;
import io.kestrel.rpc.spring.boot.fixture.ConsumerApp;
import io.kestrel.rpc.spring.boot.fixture.ProviderApp;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * With actuator (Micrometer) and rpc-observability on the class path, the starter binds the call timers, the
 * runtime gauges and the observations to the application's own registries: after real calls between two Boot
 * applications, each side's {@link MeterRegistry} holds its timer with the calls counted.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ObservabilityBootTest {

    private static Map<String, Object> app(String name, TestingServer zookeeper) {
        Map<String, Object> p = new HashMap<>();
        p.put("spring.application.name", name);
        p.put("spring.main.web-application-type", "none");
        p.put("rpc.registry.address", "zookeeper://" + zookeeper.getConnectString());
        p.put("rpc.protocol.port", "0");
        return p;
    }

    @Test
    void callsAreTimedOnBothSidesInTheApplicationsMeterRegistry() throws Exception {
        try (TestingServer zookeeper = new TestingServer(true);
                ConfigurableApplicationContext provider = new SpringApplicationBuilder(ProviderApp.class)
                        .properties(app("metrics-provider", zookeeper)).run();
                ConfigurableApplicationContext consumer = new SpringApplicationBuilder(ConsumerApp.class)
                        .properties(app("metrics-consumer", zookeeper)).run()) {
            ConsumerApp.Client client = consumer.getBean(ConsumerApp.Client.class);
            for (int i = 0; i < 5; i++) {
                assertEquals("hello ann", client.greeter.greet("ann").substring(0, 9));
            }
            MeterRegistry consumerMeters = consumer.getBean(MeterRegistry.class);
            MeterRegistry providerMeters = provider.getBean(MeterRegistry.class);
            Timer clientTimer = consumerMeters.find(KestrelMetrics.CLIENT_DURATION)
                    .tag(KestrelMetrics.TAG_METHOD, "greet").tag(KestrelMetrics.TAG_STATUS, "ok").timer();
            assertNotNull(clientTimer, "consumer timer; meters: " + names(consumerMeters));
            assertEquals(5, clientTimer.count());
            Timer serverTimer = providerMeters.find(KestrelMetrics.SERVER_DURATION)
                    .tag(KestrelMetrics.TAG_METHOD, "greet").timer();
            assertNotNull(serverTimer, "provider timer; meters: " + names(providerMeters));
            assertEquals(5, serverTimer.count());
            assertNotNull(providerMeters.find(KestrelMetrics.SERVER_CONNECTIONS).gauge(), "runtime gauges are bound");
            assertEquals(1.0, providerMeters.find(KestrelMetrics.SERVER_CONNECTIONS).gauge().value());
            // Boot's observation handler turns every observation into a timer of the observation's name
            assertTrue(consumerMeters.find("kestrel.rpc.client").timer() != null
                    && consumerMeters.find("kestrel.rpc.client").timer().count() == 5,
                    "client observations; meters: " + names(consumerMeters));
        }
    }

    private static String names(MeterRegistry registry) {
        return registry.getMeters().stream().map(m -> m.getId().getName()).filter(n -> n.contains("rpc"))
                .sorted().distinct().toList().toString();
    }
}
