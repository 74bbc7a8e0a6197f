package io.kestrel.rpc.spring.boot.actuate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.console.KestrelConsole;
import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.spring.KestrelRpcBeans;
import io.kestrel.rpc.spring.boot.fixture.Greeter;
import io.kestrel.rpc.spring.boot.fixture.ProviderApp;
import java.io.IOException;
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
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A Boot application with {@code rpc.console.*} set serves the console on its own port and its JSON under
 * the actuator ({@code /actuator/kestrelconsole/...}); without the setting there is no such endpoint.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class KestrelConsoleEndpointTest {
    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void consoleDocumentsAreServedUnderTheActuator() throws Exception {
        try (TestingServer zk = new TestingServer(true)) {
            Map<String, Object> p = app(zk);
            p.put("rpc.console.enabled", "true");
            p.put("rpc.console.port", "0");
            try (ConfigurableApplicationContext ctx = new SpringApplicationBuilder(ProviderApp.class).properties(p).run()) {
                RpcRuntime runtime = ctx.getBean(KestrelRpcBeans.RUNTIME, RpcRuntime.class);
                Greeter greeter = runtime.refer(ReferenceConfig.builder(Greeter.class).version("1.0").build());
                greeter.greet("ann");
                greeter.greet("bob");
                int port = ((WebServerApplicationContext) ctx).getWebServer().getPort();
                String index = get(port, "/actuator/kestrelconsole");
                assertTrue(index.contains("\"consolePort\":" + runtime.addOn(KestrelConsole.class).orElseThrow().port()), index);
                String services = get(port, "/actuator/kestrelconsole/services");
                assertTrue(services.contains("\"service\":\"" + Greeter.class.getName() + ":1.0\""), services);
                String calls = get(port, "/actuator/kestrelconsole/calls");
                assertTrue(calls.contains("\"side\":\"consumer\",\"service\":\"" + Greeter.class.getName()
                        + ":1.0\",\"method\":\"greet(String)\",\"calls\":2,\"errors\":0"), calls);
                String registry = get(port, "/actuator/kestrelconsole/registry");
                assertTrue(registry.contains("\"application\":\"boot-console\""), registry);
                assertEquals(404, status(port, "/actuator/kestrelconsole/nothing"));
                assertEquals(200, status(runtime.addOn(KestrelConsole.class).orElseThrow().port(), "/"));
            }
        }
    }

    @Test
    void noEndpointWithoutTheConsole() throws Exception {
        try (TestingServer zk = new TestingServer(true);
                ConfigurableApplicationContext ctx = new SpringApplicationBuilder(ProviderApp.class).properties(app(zk))
                        .run()) {
            int port = ((WebServerApplicationContext) ctx).getWebServer().getPort();
            assertEquals(404, status(port, "/actuator/kestrelconsole"));
            assertEquals(-1, ctx.getBean(KestrelRpcBeans.RUNTIME, RpcRuntime.class).addOn(KestrelConsole.class)
                    .map(KestrelConsole::port).orElse(-1));
        }
    }

    private static Map<String, Object> app(TestingServer zk) {
        Map<String, Object> p = new HashMap<>();
        p.put("spring.application.name", "boot-console");
        p.put("server.port", "0");
        p.put("server.address", "127.0.0.1");
        p.put("management.endpoints.web.exposure.include", "health,kestrel,kestrelconsole");
        p.put("rpc.registry.address", "zookeeper://" + zk.getConnectString());
        p.put("rpc.protocol.port", "0");
        return p;
    }

    private static String get(int port, String path) throws IOException, InterruptedException {
        HttpResponse<String> r = send(port, path);
        assertEquals(200, r.statusCode(), path + ": " + r.body());
        return r.body();
    }

    private static int status(int port, String path) throws IOException, InterruptedException {
        return send(port, path).statusCode();
    }

    private static HttpResponse<String> send(int port, String path) throws IOException, InterruptedException {
        return CLIENT.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(10)).GET().build(), HttpResponse.BodyHandlers.ofString());
    }
}
