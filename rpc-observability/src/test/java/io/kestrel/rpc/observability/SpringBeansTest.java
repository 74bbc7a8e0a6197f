package io.kestrel.rpc.observability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.kestrel.rpc.api.interceptor.ClientInterceptor;
import io.kestrel.rpc.api.interceptor.ServerInterceptor;
import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.observability.metrics.KestrelMetrics;
import io.kestrel.rpc.observability.metrics.RuntimeMetrics;
import io.kestrel.rpc.observability.tracing.KestrelTracing;
import io.kestrel.rpc.spring.EnableKestrelRpc;
import io.kestrel.rpc.spring.RpcReference;
import io.kestrel.rpc.spring.RpcService;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.MapPropertySource;

/**
 * In Spring, the metrics and tracing interceptors declared as beans apply to the context's runtime
 * (rpc-spring picks up beans of the interceptor types); the runtime's gauges bind from a bean too.
 * Annotation config, a real ZooKeeper, real sockets.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SpringBeansTest {
    private static final OtelTestTracing TRACING = new OtelTestTracing();

    @RpcService
    static class SpringGreeter extends GreeterImpl {
        SpringGreeter() {
            super("spring");
        }
    }

    /** The beans an application declares for metrics and tracing; the same on both sides. */
    @Configuration
    static class Observability {
        @Bean
        MeterRegistry meterRegistry() {
            return new SimpleMeterRegistry();
        }

        @Bean
        KestrelMetrics kestrelMetrics(MeterRegistry registry) {
            return KestrelMetrics.of(registry);
        }

        @Bean
        ClientInterceptor rpcClientMetrics(KestrelMetrics metrics) {
            return metrics.clientInterceptor();
        }

        @Bean
        ServerInterceptor rpcServerMetrics(KestrelMetrics metrics) {
            return metrics.serverInterceptor();
        }

        @Bean
        ObservationRegistry observationRegistry() {
            return TRACING.observationRegistry();
        }

        @Bean
        KestrelTracing kestrelTracing(ObservationRegistry registry) {
            return KestrelTracing.of(registry);
        }

        @Bean
        ClientInterceptor rpcClientTracing(KestrelTracing tracing) {
            return tracing.clientInterceptor();
        }

        @Bean
        ServerInterceptor rpcServerTracing(KestrelTracing tracing) {
            return tracing.serverInterceptor();
        }

        @Bean
        RuntimeMetrics rpcRuntimeMetrics(RpcRuntime runtime) {
            return new RuntimeMetrics(runtime);
        }
    }

    @Configuration
    @EnableKestrelRpc
    @Import({Observability.class, SpringGreeter.class})
    static class ProviderConfig {
    }

    static class Client {
        @RpcReference
        Greeter greeter;
    }

    @Configuration
    @EnableKestrelRpc
    @Import(Observability.class)
    static class ConsumerConfig {
        @Bean
        Client client() {
            return new Client();
        }
    }

    private static AnnotationConfigApplicationContext context(Class<?> config, Map<String, Object> properties) {
        AnnotationConfigApplicationContext ctx = new AnnotationConfigApplicationContext();
        ctx.getEnvironment().getPropertySources().addFirst(new MapPropertySource("test", properties));
        ctx.register(config);
        ctx.refresh();
        return ctx;
    }

    @Test
    void interceptorBeansTimeAndTraceCallsOfTheContextsRuntime() throws Exception {
        try (TestingServer zk = new TestingServer(true)) {
            Map<String, Object> common = Map.of("rpc.registry.address", "zookeeper://" + zk.getConnectString(),
                    "rpc.protocol.port", "0");
            try (AnnotationConfigApplicationContext provider = context(ProviderConfig.class, common);
                 AnnotationConfigApplicationContext consumer = context(ConsumerConfig.class, common)) {
                MeterRegistry providerMeters = provider.getBean(MeterRegistry.class);
                MeterRegistry consumerMeters = consumer.getBean(MeterRegistry.class);
                provider.getBean(RuntimeMetrics.class).bindTo(providerMeters);
                consumer.getBean(RuntimeMetrics.class).bindTo(consumerMeters);

                assertEquals("hello ada from spring", consumer.getBean(Client.class).greeter.greet("ada"));

                assertEquals(1, consumerMeters.get(KestrelMetrics.CLIENT_DURATION).tag("rpc.method", "greet")
                        .tag("status", "ok").timer().count());
                assertEquals(1, providerMeters.get(KestrelMetrics.SERVER_DURATION).tag("rpc.method", "greet")
                        .tag("status", "ok").timer().count());
                assertEquals(1, consumerMeters.get(KestrelMetrics.CLIENT_CONNECTIONS).gauge().value());
                assertEquals(1, providerMeters.get(KestrelMetrics.REGISTRY_CONNECTED).gauge().value());

                Runtimes.await("a client and a server span", () -> TRACING.exporter().getFinishedSpanItems().size() >= 2);
                List<SpanData> spans = TRACING.exporter().getFinishedSpanItems();
                SpanData client = spans.stream().filter(s -> s.getKind() == SpanKind.CLIENT).findFirst().orElseThrow();
                SpanData server = spans.stream().filter(s -> s.getKind() == SpanKind.SERVER).findFirst().orElseThrow();
                assertEquals(client.getSpanId(), server.getParentSpanId());
                assertNotNull(provider.getBean(SpringGreeter.class).lastAttachments.get("greet").get("traceparent"));
            }
        }
    }
}
