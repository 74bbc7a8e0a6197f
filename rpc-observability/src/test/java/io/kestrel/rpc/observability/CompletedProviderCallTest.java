package io.kestrel.rpc.observability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.ServiceKey;
import io.kestrel.rpc.api.interceptor.ServerCallInfo;
import io.kestrel.rpc.api.interceptor.ServerInterceptor;
import io.kestrel.rpc.observability.metrics.KestrelMetrics;
import io.kestrel.rpc.observability.otel.KestrelOpenTelemetry;
import io.kestrel.rpc.observability.tracing.KestrelTracing;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.lang.reflect.Method;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * The provider-side metrics and span interceptors with what the rest of a chain returns: a future that
 * has already succeeded (a blocking service method's) is measured at once and handed back as it is; a
 * pending or failed one is measured when it completes, through a future of their own.
 */
class CompletedProviderCallTest {
    private static final AttributeKey<String> STATUS = AttributeKey.stringKey("status");

    @Test
    void metricsTimeACompletedCallAtOnceAndReturnItsFuture() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        ServerInterceptor metrics = KestrelMetrics.of(registry).serverInterceptor();

        CompletableFuture<Object> done = CompletableFuture.completedFuture("hello");
        assertSame(done, metrics.intercept(new Chain(() -> done)));
        assertEquals(1, timer(registry, "ok").count());

        CompletableFuture<Object> pending = new CompletableFuture<>();
        CompletableFuture<Object> returned = metrics.intercept(new Chain(() -> pending));
        assertNotSame(pending, returned);
        assertEquals(1, timer(registry, "ok").count(), "not timed before it completes");
        pending.complete("later");
        assertEquals("later", returned.join());
        assertEquals(2, timer(registry, "ok").count());

        CompletableFuture<Object> failed = CompletableFuture.failedFuture(new IllegalStateException("boom"));
        CompletableFuture<Object> failedReturned = metrics.intercept(new Chain(() -> failed));
        assertTrue(failedReturned.isCompletedExceptionally());
        assertEquals(1, timer(registry, "service_error").count());
    }

    @Test
    void openTelemetrySpansOfCompletedCallsEndAtOnceAndFailuresStillMarkThem() {
        try (OtelTestTracing tracing = new OtelTestTracing()) {
            ServerInterceptor spans = KestrelOpenTelemetry.of(tracing.openTelemetry()).serverInterceptor();

            CompletableFuture<Object> done = CompletableFuture.completedFuture("hello");
            assertSame(done, spans.intercept(new Chain(() -> done)));
            List<SpanData> ended = tracing.exporter().getFinishedSpanItems();
            assertEquals(1, ended.size());
            assertEquals("ok", ended.get(0).getAttributes().get(STATUS));
            assertEquals(StatusCode.UNSET, ended.get(0).getStatus().getStatusCode());

            CompletableFuture<Object> failed = CompletableFuture.failedFuture(new IllegalStateException("boom"));
            assertTrue(spans.intercept(new Chain(() -> failed)).isCompletedExceptionally());
            SpanData error = tracing.exporter().getFinishedSpanItems().get(1);
            assertEquals("service_error", error.getAttributes().get(STATUS));
            assertEquals(StatusCode.ERROR, error.getStatus().getStatusCode());
            assertEquals("boom", error.getStatus().getDescription());
        }
    }

    @Test
    void observationsOfCompletedCallsStopAtOnce() {
        try (OtelTestTracing tracing = new OtelTestTracing()) {
            ServerInterceptor spans = KestrelTracing.of(tracing.observationRegistry()).serverInterceptor();

            CompletableFuture<Object> done = CompletableFuture.completedFuture("hello");
            assertSame(done, spans.intercept(new Chain(() -> done)));
            List<SpanData> ended = tracing.exporter().getFinishedSpanItems();
            assertEquals(1, ended.size());
            assertEquals("ok", ended.get(0).getAttributes().get(STATUS));
            assertEquals("io.kestrel.rpc.observability.Greeter/greet", ended.get(0).getName());
        }
    }

    private static Timer timer(SimpleMeterRegistry registry, String status) {
        return registry.get(KestrelMetrics.SERVER_DURATION).tag(KestrelMetrics.TAG_STATUS, status).timer();
    }

    /** The rest of a provider's chain: returns what {@code rest} gives. */
    private record Chain(Supplier<CompletableFuture<Object>> rest) implements ServerInterceptor.Chain {
        @Override
        public ServerCallInfo call() {
            return CALL;
        }

        @Override
        public CompletableFuture<Object> proceed() {
            return rest.get();
        }
    }

    private static final ServerCallInfo CALL = new GreetCall();

    /** A served {@code Greeter.greet} call as the provider's interceptors see it. */
    private static final class GreetCall implements ServerCallInfo {
        private final Map<String, String> responseAttachments = new HashMap<>();

        @Override
        public ServiceKey service() {
            return ServiceKey.of(Greeter.class);
        }

        @Override
        public Method method() {
            try {
                return Greeter.class.getMethod("greet", String.class);
            } catch (NoSuchMethodException e) {
                throw new AssertionError(e);
            }
        }

        @Override
        public Object[] arguments() {
            return new Object[] {"kestrel"};
        }

        @Override
        public Map<String, String> requestAttachments() {
            return Map.of();
        }

        @Override
        public Map<String, String> responseAttachments() {
            return responseAttachments;
        }

        @Override
        public String serialization() {
            return "kryo";
        }

        @Override
        public String peerAddress() {
            return "127.0.0.1:40000";
        }

        @Override
        public long timeoutMillis() {
            return 1_000;
        }

        @Override
        public long remainingMillis() {
            return 1_000;
        }

        @Override
        public int requestBytes() {
            return 16;
        }
    }
}
