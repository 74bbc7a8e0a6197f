package io.kestrel.rpc.observability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.observability.otel.KestrelOpenTelemetry;
import io.kestrel.rpc.observability.tracing.KestrelTracing;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.data.StatusData;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * {@link TracingContract} for {@link KestrelOpenTelemetry} (the OpenTelemetry API directly), and the
 * same spans as {@link KestrelTracing} through the bridge: names, kinds, attributes, status, events
 * (but for OK on the bridge's consumer spans).
 */
class OpenTelemetryTracingTest extends TracingContract {
    @Override
    protected RpcRuntime.Builder withTracing(RpcRuntime.Builder builder) {
        return KestrelOpenTelemetry.of(otelTracing.openTelemetry()).addTo(builder);
    }

    @Override
    protected RpcRuntime.Builder withNoopTracing(RpcRuntime.Builder builder) {
        return KestrelOpenTelemetry.of(OpenTelemetry.noop()).addTo(builder);
    }

    @Test
    void spansAreTheSameAsThroughMicrometerObservation() throws Exception {
        Map<String, String> direct = described(runtimes.aToC);

        KestrelTracing bridge = KestrelTracing.of(otelTracing.observationRegistry());
        try (RpcRuntime provider = Runtimes.provider(bridge.addTo(RpcRuntime.builder()), Runtimes.loopback().build(),
                new GreeterImpl("c"));
                RpcRuntime consumer = bridge.addTo(RpcRuntime.builder()).build()) {
            Map<String, String> observed = described(Runtimes.refer(consumer, provider, Duration.ofSeconds(5)));
            // the same but for the provider's port
            assertEquals(observed.toString().replace(":" + provider.boundPort(), ":PORT"),
                    direct.toString().replace(":" + runtimes.runtimeC.boundPort(), ":PORT"));
        }
    }

    /** A call that succeeds and one that fails, their spans described without ids, times and the caller's port. */
    private Map<String, String> described(Greeter greeter) throws InterruptedException {
        exporter.reset();
        greeter.greet("ada");
        assertThrows(IllegalStateException.class, () -> greeter.fail("boom"));
        List<SpanData> spans = spans(4);
        return spans.stream().collect(Collectors.toMap(s -> s.getKind() + " " + s.getName(), s -> {
            Map<String, Object> attributes = new TreeMap<>();
            s.getAttributes().forEach((k, v) -> attributes.put(k.getKey(),
                    k.getKey().equals("client.address") ? "(caller)" : v));
            // the one difference: the bridge marks the consumer span of a call that succeeded OK, this leaves it unset
            StatusData status = s.getStatus().getStatusCode() == StatusCode.OK ? StatusData.unset() : s.getStatus();
            return attributes + " " + status + " events " + s.getEvents().stream()
                    .map(e -> e.getName() + e.getAttributes().asMap().keySet()).collect(Collectors.toList());
        }, (x, y) -> x, TreeMap::new));
    }
}
