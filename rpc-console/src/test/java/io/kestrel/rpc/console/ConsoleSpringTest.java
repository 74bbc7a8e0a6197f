package io.kestrel.rpc.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.ServiceKey;
import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.testing.Await;
import java.util.Map;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.context.support.GenericXmlApplicationContext;
import org.springframework.core.env.MapPropertySource;

/** The console configured from Spring: the {@code <rpc:console>} element and the {@code rpc.console.*} keys. */
@Timeout(60)
class ConsoleSpringTest {
    static final String TOKEN = "spring-token-0123456789";

    @Test
    void xmlElementServesTheConsoleAndItsTokenGuardsOffline() throws Exception {
        try (TestingServer zk = new TestingServer(true);
                GenericXmlApplicationContext ctx = new GenericXmlApplicationContext()) {
            ctx.getEnvironment().getPropertySources().addFirst(new MapPropertySource("test",
                    Map.of("zk", "zookeeper://" + zk.getConnectString(), "console.token", TOKEN)));
            ctx.load("classpath:io/kestrel/rpc/console/console-provider.xml");
            ctx.refresh();
            RpcRuntime runtime = ctx.getBean(RpcRuntime.class);
            int port = runtime.consolePort();
            assertTrue(port > 0, "console port " + port);
            var services = ConsoleHttp.get(port, "/api/services");
            assertTrue(services.body().contains(Greeter.class.getName() + ":1.0"), services.body());
            String body = "{\"service\":\"" + Greeter.class.getName() + ":1.0\"}";
            assertEquals(401, ConsoleHttp.send(port, "POST", "/api/offline", Map.of("Content-Type",
                    "application/json"), body).status());
            var offline = ConsoleHttp.send(port, "POST", "/api/offline", Map.of("Content-Type", "application/json",
                    "Authorization", "Bearer " + TOKEN), body);
            assertEquals(200, offline.status(), offline.body());
            assertTrue(offline.body().contains("\"online\":false"), offline.body());
            ServiceKey key = ServiceKey.parse(Greeter.class.getName() + ":1.0");
            Await.until("the provider gone from ZooKeeper", () -> runtime.providers(key).isEmpty());
        }
    }

    @Test
    void environmentKeysThatAllowInvokeWithoutATokenFailStartupNamingTheKey() {
        GenericApplicationContext ctx = new GenericXmlApplicationContext();
        ctx.getEnvironment().getPropertySources().addFirst(new MapPropertySource("test", Map.of(
                "rpc.console.enabled", "true", "rpc.console.port", "0", "rpc.console.allow-invoke", "true")));
        ((GenericXmlApplicationContext) ctx).load("classpath:io/kestrel/rpc/console/console-env.xml");
        Exception e = assertThrows(Exception.class, ctx::refresh);
        StringBuilder messages = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            messages.append(t.getMessage()).append('\n');
        }
        assertTrue(messages.toString().contains("rpc.console.token"), messages.toString());
        ctx.close();
    }
}
