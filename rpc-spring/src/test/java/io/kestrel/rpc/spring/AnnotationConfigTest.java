package io.kestrel.rpc.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.spring.fixture.GreetingService;
import io.kestrel.rpc.spring.fixture.GreetingServiceImpl;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.MapPropertySource;

/** {@link EnableKestrelRpc}, {@link RpcService} and {@link RpcReference} with settings from the Environment. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AnnotationConfigTest {
    private static TestingServer zookeeper;

    @BeforeAll
    static void startZooKeeper() throws Exception {
        zookeeper = new TestingServer(true);
    }

    @AfterAll
    static void stopZooKeeper() throws Exception {
        zookeeper.close();
    }

    /** Exported by annotation; version and group come from placeholders. */
    @RpcService(version = "${greeter.version}", group = "annotated", timeout = "2s", serialization = {"fory", "hessian2"})
    static class AnnotatedGreeter extends GreetingServiceImpl {
        AnnotatedGreeter() {
            super("annotated");
        }
    }

    @Configuration
    @EnableKestrelRpc
    @Import(AnnotatedGreeter.class)
    static class ProviderConfig {
    }

    /** Field and setter injection. */
    static class Client {
        @RpcReference(version = "1.0", group = "annotated", timeout = "1500ms", async = "true")
        GreetingService byField;
        GreetingService bySetter;

        @RpcReference(version = "1.0", group = "annotated", timeout = "1500ms", async = "true")
        void setGreeter(GreetingService greeter) {
            this.bySetter = greeter;
        }
    }

    @Configuration
    @EnableKestrelRpc
    static class ConsumerConfig {
        @Bean
        Client client() {
            return new Client();
        }
    }

    static AnnotationConfigApplicationContext context(Class<?> config, Map<String, Object> properties) {
        AnnotationConfigApplicationContext ctx = new AnnotationConfigApplicationContext();
        ctx.getEnvironment().getPropertySources().addFirst(new MapPropertySource("test", properties));
        ctx.register(config);
        ctx.refresh();
        return ctx;
    }

    @Test
    void annotatedConsumerCallsAnnotatedProviderThroughZooKeeper() {
        String zk = "zookeeper://" + zookeeper.getConnectString();
        try (AnnotationConfigApplicationContext provider = context(ProviderConfig.class, Map.of(
                "rpc.application.name", "annotated-provider", "rpc.registry.address", zk, "rpc.protocol.port", "0",
                "greeter.version", "1.0"));
             AnnotationConfigApplicationContext consumer = context(ConsumerConfig.class, Map.of(
                     "rpc.registry.address", zk, "rpc.protocol.serialization", "hessian2",
                     "rpc.reference.retries", "0"))) {
            Client client = consumer.getBean(Client.class);

            assertEquals("hello ann from annotated", client.byField.greet("ann"));
            assertEquals("hello bob from annotated", client.bySetter.greetAsync("bob").join());
            assertSame(client.byField, client.bySetter, "same interface and attributes share one proxy");

            RpcRuntime providerRuntime = provider.getBean(RpcRuntime.class);
            assertEquals("annotated-provider", providerRuntime.application().name());
            assertEquals("hessian2", consumer.getBean(RpcRuntime.class).protocol().serialization());
            assertEquals(Duration.ofSeconds(10), providerRuntime.registryConfig().connectionTimeout());
        }
    }
}
