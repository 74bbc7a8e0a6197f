package io.kestrel.rpc.spring.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.observability.otel.KestrelOpenTelemetry;
import io.kestrel.rpc.observability.tracing.KestrelTracing;
import io.kestrel.rpc.spring.boot.fixture.ConsumerApp;
import io.kestrel.rpc.spring.boot.fixture.ProviderApp;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * {@code management.tracing.kestrel.api=opentelemetry}: two Boot applications trace their calls on their own
 * {@link OpenTelemetry} beans (no Micrometer Observation in between), the provider's SERVER span a child of the
 * consumer's CLIENT span across the socket; the setting without such a bean, or with a value that is not an API,
 * stops the application at start with a message naming the setting.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class OpenTelemetryTracingBootTest {

    /** The application's OpenTelemetry SDK: every span sampled, W3C propagation, spans kept in memory. */
    @Configuration(proxyBeanMethods = false)
    static class OtelSdk {
        @Bean
        InMemorySpanExporter spans() {
            return InMemorySpanExporter.create();
        }

        @Bean(destroyMethod = "close")
        OpenTelemetrySdk openTelemetry(InMemorySpanExporter spans) {
            return OpenTelemetrySdk.builder()
                    .setTracerProvider(SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(spans)).build())
                    .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance()))
                    .build();
        }
    }

    private static Map<String, Object> app(String name, TestingServer zookeeper, String api) {
        Map<String, Object> p = new HashMap<>();
        p.put("spring.application.name", name);
        p.put("spring.main.web-application-type", "none");
        p.put("rpc.registry.address", "zookeeper://" + zookeeper.getConnectString());
        p.put("rpc.protocol.port", "0");
        p.put("management.tracing.kestrel.api", api);
        return p;
    }

    @Test
    void callsAreTracedOnTheApplicationsOpenTelemetryAcrossTheSocket() throws Exception {
        try (TestingServer zookeeper = new TestingServer(true);
                ConfigurableApplicationContext provider = new SpringApplicationBuilder(ProviderApp.class, OtelSdk.class)
                        .properties(app("otel-provider", zookeeper, "opentelemetry")).run();
                ConfigurableApplicationContext consumer = new SpringApplicationBuilder(ConsumerApp.class, OtelSdk.class)
                        .properties(app("otel-consumer", zookeeper, "OpenTelemetry")).run()) {
            assertTrue(consumer.getBeansOfType(KestrelTracing.class).isEmpty(), "no Observation-based tracing as well");
            assertEquals(1, consumer.getBeansOfType(KestrelOpenTelemetry.class).size());
            assertEquals("hello ann", consumer.getBean(ConsumerApp.Client.class).greeter.greet("ann").substring(0, 9));

            List<SpanData> clientSpans = consumer.getBean(InMemorySpanExporter.class).getFinishedSpanItems();
            List<SpanData> serverSpans = provider.getBean(InMemorySpanExporter.class).getFinishedSpanItems();
            assertEquals(1, clientSpans.size(), "consumer spans: " + clientSpans);
            assertEquals(1, serverSpans.size(), "provider spans: " + serverSpans);
            SpanData client = clientSpans.get(0);
            SpanData server = serverSpans.get(0);
            assertEquals(SpanKind.CLIENT, client.getKind());
            assertEquals(SpanKind.SERVER, server.getKind());
            assertTrue(client.getName().endsWith("/greet"), client.getName());
            assertEquals(client.getTraceId(), server.getTraceId(), "one trace across the socket");
            assertEquals(client.getSpanId(), server.getParentSpanId(), "the provider's span is the consumer's child");
        }
    }

    @Test
    void theSettingWithoutAnOpenTelemetryBeanStopsTheApplicationSayingWhy() throws Exception {
        try (TestingServer zookeeper = new TestingServer(true)) {
            Exception e = assertThrows(Exception.class, () -> new SpringApplicationBuilder(ProviderApp.class)
                    .properties(app("otel-missing", zookeeper, "opentelemetry")).run().close());
            String messages = messages(e);
            assertTrue(messages.contains("management.tracing.kestrel.api=opentelemetry needs one bean of type "
                    + "io.opentelemetry.api.OpenTelemetry (found 0)"), messages);
        }
    }

    @Test
    void anUnknownApiStopsTheApplicationNamingTheSetting() throws Exception {
        try (TestingServer zookeeper = new TestingServer(true)) {
            Exception e = assertThrows(Exception.class, () -> new SpringApplicationBuilder(ProviderApp.class)
                    .properties(app("otel-typo", zookeeper, "otel")).run().close());
            String messages = messages(e);
            assertTrue(messages.contains("management.tracing.kestrel.api"), messages);
            assertTrue(messages.contains("otel"), messages);
        }
    }

    private static String messages(Throwable e) {
        StringBuilder all = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            all.append(t).append('\n');
        }
        return all.toString();
    }
}
