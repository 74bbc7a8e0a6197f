package io.kestrel.rpc.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.spring.fixture.GreetingServiceImpl;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/** A context with {@link RpcService} beans and nothing exporting them says so (slf4j-simple logs to System.err). */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NotEnabledWarningTest {

    @RpcService(version = "1.0")
    static class Greeter extends GreetingServiceImpl {
        Greeter() {
            super("plain");
        }
    }

    @Configuration
    @Import(Greeter.class)
    static class NotEnabled {
    }

    @Configuration
    @EnableKestrelRpc
    @Import(Greeter.class)
    static class Enabled {
    }

    @Test
    void annotatedServiceWithoutEnableKestrelRpcLogsThatNothingIsExported() {
        String log = stderrOf(() -> {
            try (AnnotationConfigApplicationContext ctx = new AnnotationConfigApplicationContext(NotEnabled.class)) {
                assertEquals(0, ctx.getBeanNamesForType(RpcRuntime.class).length, "nothing of Kestrel RPC runs");
            }
        });
        assertTrue(log.contains("Kestrel RPC is not enabled in this context, so nothing is exported"), log);
        assertTrue(log.contains(Greeter.class.getName()), "names the bean: " + log);
        assertTrue(log.contains("@EnableKestrelRpc") && log.contains("rpc-spring-boot-starter"), "names the fix: " + log);
    }

    @Test
    void noWarningWhenEnabled() throws Exception {
        try (TestingServer zookeeper = new TestingServer(true)) {
            String log = stderrOf(() -> {
                try (AnnotationConfigApplicationContext ctx = AnnotationConfigTest.context(Enabled.class, Map.of(
                        "rpc.registry.address", "zookeeper://" + zookeeper.getConnectString(), "rpc.protocol.port", "0"))) {
                    assertEquals(1, ctx.getBean(RpcRuntime.class).inspect().services().size(), "the service is exported");
                }
            });
            assertFalse(log.contains("not enabled"), log);
        }
    }

    private static String stderrOf(Runnable r) {
        PrintStream original = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            r.run();
        } finally {
            System.setErr(original);
        }
        String text = captured.toString(StandardCharsets.UTF_8);
        original.print(text);
        return text;
    }
}
