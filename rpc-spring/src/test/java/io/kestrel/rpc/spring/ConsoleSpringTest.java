package io.kestrel.rpc.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.ServiceKey;
import io.kestrel.rpc.console.KestrelConsole;
import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.spring.fixture.GreetingService;
import io.kestrel.rpc.testing.Await;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.context.support.GenericXmlApplicationContext;
import org.springframework.core.env.MapPropertySource;

/**
 * The console (the optional io.kestrel:rpc-console, on this module's test class path) configured from Spring: the
 * {@code <rpc:console>} element and the {@code rpc.console.*} keys attach it to the context's runtime.
 */
@Timeout(60)
class ConsoleSpringTest {
    static final String TOKEN = "spring-token-0123456789";
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void xmlElementServesTheConsoleAndItsTokenGuardsOffline() throws Exception {
        try (TestingServer zk = new TestingServer(true);
                GenericXmlApplicationContext ctx = new GenericXmlApplicationContext()) {
            ctx.getEnvironment().getPropertySources().addFirst(new MapPropertySource("test",
                    Map.of("zk", "zookeeper://" + zk.getConnectString(), "console.token", TOKEN)));
            ctx.load("classpath:io/kestrel/rpc/spring/console-provider.xml");
            ctx.refresh();
            RpcRuntime runtime = ctx.getBean(RpcRuntime.class);
            int port = runtime.addOn(KestrelConsole.class).orElseThrow().port();
            assertTrue(port > 0, "console port " + port);
            HttpResponse<String> services = send(port, "GET", "/api/services", Map.of(), null);
            assertTrue(services.body().contains(GreetingService.class.getName() + ":1.0"), services.body());
            String body = "{\"service\":\"" + GreetingService.class.getName() + ":1.0\"}";
            assertEquals(401, send(port, "POST", "/api/offline", Map.of("Content-Type", "application/json"), body)
                    .statusCode());
            HttpResponse<String> offline = send(port, "POST", "/api/offline", Map.of("Content-Type",
                    "application/json", "Authorization", "Bearer " + TOKEN), body);
            assertEquals(200, offline.statusCode(), offline.body());
            assertTrue(offline.body().contains("\"online\":false"), offline.body());
            ServiceKey key = ServiceKey.parse(GreetingService.class.getName() + ":1.0");
            Await.until("the provider gone from ZooKeeper", () -> runtime.inspect().providers(key).isEmpty());
        }
    }

    @Test
    void environmentKeysThatAllowInvokeWithoutATokenFailStartupNamingTheKey() {
        GenericApplicationContext ctx = new GenericXmlApplicationContext();
        ctx.getEnvironment().getPropertySources().addFirst(new MapPropertySource("test", Map.of(
                "rpc.console.enabled", "true", "rpc.console.port", "0", "rpc.console.allow-invoke", "true")));
        ((GenericXmlApplicationContext) ctx).load("classpath:io/kestrel/rpc/spring/console-env.xml");
        Exception e = assertThrows(Exception.class, ctx::refresh);
        StringBuilder messages = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            messages.append(t.getMessage()).append('\n');
        }
        assertTrue(messages.toString().contains("rpc.console.token"), messages.toString());
        ctx.close();
    }

    private static HttpResponse<String> send(int port, String method, String path, Map<String, String> headers,
            String body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(10)).method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        headers.forEach(request::header);
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
