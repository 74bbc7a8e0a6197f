package io.kestrel.rpc.spring.boot3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.transport.internal.EventLoops;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.SpringVersion;

/**
 * The starter in Spring Boot 3.5 applications, with the versions Boot 3.5's dependency management picks
 * (Spring Framework 6.2, Netty 4.1): a web provider and a non-web consumer talk over a real socket through
 * a real in-process ZooKeeper; the {@code kestrel} endpoint is read over HTTP.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class Boot3StarterTest {

    @Test
    void runsOnBoot35WithNetty41() throws Exception {
        assertTrue(SpringBootVersion.getVersion().startsWith("3.5."), SpringBootVersion.getVersion());
        assertTrue(SpringVersion.getVersion().startsWith("6.2."), SpringVersion.getVersion());
        assertTrue(EventLoops.nettyVersion().startsWith("4.1."), "Boot 3.5 manages Netty 4.1, found "
                + EventLoops.nettyVersion());
        assertFalse(EventLoops.usesNetty42Api());

        try (TestingServer zookeeper = new TestingServer(true)) {
            Map<String, Object> common = new HashMap<>();
            common.put("rpc.registry.address", "zookeeper://" + zookeeper.getConnectString());
            common.put("rpc.protocol.port", "0");
            Map<String, Object> provider = new HashMap<>(common);
            provider.put("spring.application.name", "boot3-provider");
            provider.put("server.port", "0");
            provider.put("server.address", "127.0.0.1");
            provider.put("management.endpoints.web.exposure.include", "health,kestrel");
            provider.put("management.endpoint.health.show-details", "always");
            provider.put("management.endpoint.health.probes.enabled", "true");
            Map<String, Object> consumer = new HashMap<>(common);
            consumer.put("spring.main.web-application-type", "none");
            try (ConfigurableApplicationContext p = new SpringApplicationBuilder(Boot3Apps.ProviderApp.class)
                    .properties(provider).run();
                 ConfigurableApplicationContext c = new SpringApplicationBuilder(Boot3Apps.ConsumerApp.class)
                         .properties(consumer).run()) {
                assertEquals("hello ann from boot 3", c.getBean(Boot3Apps.Client.class).greeter.greet("ann"));

                int port = ((WebServerApplicationContext) p).getWebServer().getPort();
                HttpResponse<String> r = get(port, "/actuator/kestrel");
                assertEquals(200, r.statusCode(), r.body());
                assertTrue(r.body().contains("\"service\":\"" + Boot3Apps.Greeter.class.getName() + ":3.5\""), r.body());
                assertTrue(r.body().contains("\"methods\":[\"greet\"]"), r.body());

                HttpResponse<String> readiness = get(port, "/actuator/health/readiness");
                assertEquals(200, readiness.statusCode(), readiness.body());
                assertTrue(readiness.body().matches(".*\"kestrel\":\\{.*\"accepting\":true.*"), readiness.body());
                assertTrue(readiness.body().contains("readinessState"), readiness.body());
                HttpResponse<String> liveness = get(port, "/actuator/health/liveness");
                assertTrue(liveness.body().contains("\"kestrelServer\":{"), liveness.body());
                p.getBean(io.kestrel.rpc.core.RpcRuntime.class).close(); // server closed: not ready, not live
                assertEquals(503, get(port, "/actuator/health/readiness").statusCode());
                assertEquals(503, get(port, "/actuator/health/liveness").statusCode());
            }
        }
    }

    private static HttpResponse<String> get(int port, String path) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
