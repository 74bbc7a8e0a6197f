package io.kestrel.rpc.spring.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.spring.KestrelRpcBeans;
import io.kestrel.rpc.spring.boot.fixture.ConsumerApp;
import io.kestrel.rpc.spring.boot.fixture.ProviderApp;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Real Spring Boot 4 applications with the starter and no {@code @EnableKestrelRpc}: a provider and a consumer
 * as separate contexts, each with a real web server, talking over a real socket through a real in-process
 * ZooKeeper; health, probe groups and the {@code kestrel} endpoint read over HTTP.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class BootApplicationsTest {
    private static TestingServer zookeeper;

    @BeforeAll
    static void startZooKeeper() throws Exception {
        zookeeper = new TestingServer(true);
    }

    @AfterAll
    static void stopZooKeeper() throws Exception {
        zookeeper.close();
    }

    static Map<String, Object> webApp(String name) {
        Map<String, Object> p = new HashMap<>();
        p.put("spring.application.name", name);
        p.put("server.port", "0");
        p.put("server.address", "127.0.0.1");
        p.put("management.endpoints.web.exposure.include", "health,kestrel");
        p.put("management.endpoint.health.show-details", "always");
        p.put("management.endpoint.health.probes.enabled", "true");
        p.put("rpc.registry.address", "zookeeper://" + zookeeper.getConnectString());
        p.put("rpc.protocol.port", "0");
        return p;
    }

    static int httpPort(ConfigurableApplicationContext ctx) {
        return ((WebServerApplicationContext) ctx).getWebServer().getPort();
    }

    @Test
    void consumerCallsProviderAndActuatorShowsBothSides() throws Exception {
        Map<String, Object> providerProps = webApp("boot-provider");
        providerProps.put("greeter.tag", "boot");
        providerProps.put("greeter.weight", "70");
        try (ConfigurableApplicationContext provider = new SpringApplicationBuilder(ProviderApp.class)
                .properties(providerProps).run()) {
            try (ConfigurableApplicationContext consumer = new SpringApplicationBuilder(ConsumerApp.class)
                    .properties(webApp("boot-consumer")).run()) {
                assertEquals("hello ann from boot", consumer.getBean(ConsumerApp.Client.class).greeter.greet("ann"));

                int p = httpPort(provider);
                Http.Response health = Http.get(p, "/actuator/health");
                assertEquals(200, health.status(), health.body());
                assertTrue(Http.status(health.body(), "kestrel", "UP"), health.body());
                assertTrue(health.body().contains("\"connected\":true"), "registry connected: " + health.body());
                assertTrue(health.body().contains("\"accepting\":true"), "server accepting: " + health.body());
                Http.Response readiness = Http.get(p, "/actuator/health/readiness");
                assertEquals(200, readiness.status(), readiness.body());
                assertTrue(Http.status(readiness.body(), "kestrel", "UP"), readiness.body());
                assertTrue(readiness.body().contains("readinessState"), readiness.body());
                Http.Response liveness = Http.get(p, "/actuator/health/liveness");
                assertTrue(Http.status(liveness.body(), "kestrelServer", "UP"), liveness.body());

                Http.Response exported = Http.get(p, "/actuator/kestrel");
                assertEquals(200, exported.status(), exported.body());
                String e = exported.body();
                assertTrue(e.contains("\"service\":\"io.kestrel.rpc.spring.boot.fixture.Greeter:1.0\""), e);
                assertTrue(e.contains("\"methods\":[\"greet\",\"whoAmI\"]"), e);
                assertTrue(e.contains("\"serializations\":[\"fory\"]"), e);
                assertTrue(e.contains("\"weight\":70"), e);
                assertTrue(e.contains("\"application\":\"boot-provider\""), e);

                int c = httpPort(consumer);
                String r = Http.get(c, "/actuator/kestrel").body();
                int rpcPort = provider.getBean(KestrelRpcBeans.RUNTIME, RpcRuntime.class).boundPort();
                assertTrue(r.contains("\"references\":[{\"service\":\"io.kestrel.rpc.spring.boot.fixture.Greeter:1.0\""), r);
                assertTrue(r.contains("\"address\":\"127.0.0.1:" + rpcPort + "\",\"state\":\"READY\",\"weight\":70"), r);
                assertTrue(r.contains("\"pendingCalls\":0"), r);
                assertTrue(Http.status(Http.get(c, "/actuator/health/readiness").body(), "kestrel", "UP"));

                provider.close(); // the consumer's check=true reference loses its only provider
                Http.await("consumer health reports no ready provider", Duration.ofSeconds(20), () -> {
                    try {
                        return Http.get(c, "/actuator/health").body().contains("\"noReadyProvider\"");
                    } catch (Exception ex) {
                        throw new AssertionError(ex);
                    }
                });
                String down = Http.get(c, "/actuator/health").body();
                assertTrue(down.contains("\"noReadyProvider\":[\"io.kestrel.rpc.spring.boot.fixture.Greeter:1.0\"]"), down);
                // readiness does not cascade by default (management.health.kestrel.readiness-includes-references)
                assertEquals(200, Http.get(c, "/actuator/health/readiness").status(), "a downstream outage");
                assertEquals(200, Http.get(c, "/actuator/health/liveness").status(), "liveness is not about providers");
            }
        }
    }

    @Test
    void misspelledPropertyFailsStartupNamingIt() {
        Map<String, Object> props = webApp("typo");
        props.put("spring.main.web-application-type", "none");
        props.put("rpc.protocol.prot", "20880");
        Exception e = assertThrows(Exception.class,
                () -> new SpringApplicationBuilder(ProviderApp.class).properties(props).run().close());
        String messages = messages(e);
        assertTrue(messages.contains("rpc.protocol.prot"), messages);
    }

    static String messages(Throwable t) {
        StringBuilder sb = new StringBuilder();
        for (Throwable c = t; c != null; c = c.getCause()) {
            sb.append(c.getClass().getSimpleName()).append(": ").append(c.getMessage()).append('\n');
        }
        return sb.toString();
    }
}
