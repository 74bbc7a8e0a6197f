package io.kestrel.rpc.spring.boot.actuate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.spring.boot.Http;
import io.kestrel.rpc.spring.boot.HttpProbe;
import io.kestrel.rpc.spring.boot.fixture.ConsumerApp;
import io.kestrel.rpc.spring.boot.fixture.ProviderApp;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Real Boot applications, a real ZooKeeper that stops: by default readiness stays UP on provider and consumer
 * while the registry is away (calls still work, the details say the registry is disconnected), and a consumer
 * stays ready when its provider goes; with the opt-in settings readiness follows the registry and the references.
 */
@Timeout(value = 150, unit = TimeUnit.SECONDS)
class ReadinessDoesNotCascadeTest {

    private static Map<String, Object> app(String name, TestingServer zk) {
        Map<String, Object> p = new HashMap<>();
        p.put("spring.application.name", name);
        p.put("server.port", "0");
        p.put("server.address", "127.0.0.1");
        p.put("management.endpoints.web.exposure.include", "health");
        p.put("management.endpoint.health.show-details", "always");
        p.put("management.endpoint.health.probes.enabled", "true");
        p.put("rpc.registry.address", "zookeeper://" + zk.getConnectString());
        p.put("rpc.protocol.port", "0");
        return p;
    }

    @Test
    void byDefaultAZooKeeperOutageLeavesProviderAndConsumerReadyAndCallsWorking() throws Exception {
        try (TestingServer zk = new TestingServer(true);
                ConfigurableApplicationContext provider = new SpringApplicationBuilder(ProviderApp.class)
                        .properties(app("ready-provider", zk)).run();
                ConfigurableApplicationContext consumer = new SpringApplicationBuilder(ConsumerApp.class)
                        .properties(app("ready-consumer", zk)).run()) {
            ConsumerApp.Client client = consumer.getBean(ConsumerApp.Client.class);
            assertEquals("hello ann from provider", client.greeter.greet("ann"));
            HttpProbe p = new HttpProbe(provider);
            HttpProbe c = new HttpProbe(consumer);

            zk.stop();
            p.awaitHealthContains("provider sees the registry gone", "\"connected\":false");
            c.awaitHealthContains("consumer sees the registry gone", "\"connected\":false");
            for (HttpProbe app : new HttpProbe[] {p, c}) {
                Http.Response readiness = app.get("/actuator/health/readiness");
                assertEquals(200, readiness.status(), "readiness during the outage: " + readiness.body());
                assertTrue(Http.status(readiness.body(), ProbeGroups.KESTREL, "UP"), readiness.body());
                String health = app.get("/actuator/health").body();
                assertTrue(health.contains("\"notCounted\":[\"registry\""), health);
            }
            assertEquals("hello bob from provider", client.greeter.greet("bob"), "calls go on without ZooKeeper");

            provider.close(); // a downstream outage: the consumer's check=true reference has no provider left
            c.awaitHealthContains("consumer reports the missing provider", "\"noReadyProvider\"");
            assertEquals(200, c.get("/actuator/health/readiness").status(), "a downstream outage does not cascade");
        }
    }

    @Test
    void withTheOptInsReadinessFollowsTheRegistryAndTheReferences() throws Exception {
        try (TestingServer zk = new TestingServer(true)) {
            Map<String, Object> providerProps = app("strict-provider", zk);
            providerProps.put(ProbeGroups.INCLUDES_REGISTRY, "true");
            Map<String, Object> consumerProps = app("strict-consumer", zk);
            consumerProps.put(ProbeGroups.INCLUDES_REFERENCES, "true");
            try (ConfigurableApplicationContext provider = new SpringApplicationBuilder(ProviderApp.class)
                    .properties(providerProps).run();
                    ConfigurableApplicationContext consumer = new SpringApplicationBuilder(ConsumerApp.class)
                            .properties(consumerProps).run()) {
                HttpProbe p = new HttpProbe(provider);
                HttpProbe c = new HttpProbe(consumer);
                assertEquals(200, p.get("/actuator/health/readiness").status());
                assertEquals(200, c.get("/actuator/health/readiness").status());

                zk.stop();
                p.awaitReadiness("provider unready while ZooKeeper is away (opted in)", 503);
                c.awaitHealthContains("consumer sees the registry gone", "\"connected\":false");
                assertEquals(200, c.get("/actuator/health/readiness").status(),
                        "the consumer counts references only, not the registry");
                assertEquals(200, p.get("/actuator/health/liveness").status(), "liveness is the server alone");

                zk.restart();
                p.awaitReadiness("provider ready again once ZooKeeper is back", 200);

                provider.close();
                c.awaitReadiness("consumer unready without a ready provider (opted in)", 503);
            }
        }
    }
}
