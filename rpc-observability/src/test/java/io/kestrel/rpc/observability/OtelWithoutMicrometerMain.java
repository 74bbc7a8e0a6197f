package io.kestrel.rpc.observability;

import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.observability.otel.KestrelOpenTelemetry;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.time.Duration;
import java.util.List;

/**
 * Run by {@link WithoutMicrometerTest} in a JVM with the OpenTelemetry jars and no Micrometer: checks
 * Micrometer is really absent, makes a call traced by {@link KestrelOpenTelemetry} and prints "OK ",
 * the answer and the kinds of the spans exported (SimpleSpanProcessor: exported as they end).
 */
public final class OtelWithoutMicrometerMain {
    private OtelWithoutMicrometerMain() {
    }

    public static void main(String[] args) {
        for (String absent : new String[] {"io.micrometer.core.instrument.MeterRegistry",
                "io.micrometer.observation.ObservationRegistry", "io.micrometer.common.KeyValues"}) {
            try {
                Class.forName(absent);
                System.out.println("FAIL: " + absent + " is on the class path");
                System.exit(2);
            } catch (ClassNotFoundException expected) {
                // what this JVM is for
            }
        }
        InMemorySpanExporter exporter = InMemorySpanExporter.create();
        SdkTracerProvider tracerProvider = SdkTracerProvider.builder()
                .addSpanProcessor(SimpleSpanProcessor.create(exporter)).build();
        KestrelOpenTelemetry tracing = KestrelOpenTelemetry.of(OpenTelemetrySdk.builder().setTracerProvider(tracerProvider)
                .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance())).build());
        String answer;
        try (RpcRuntime provider = Runtimes.provider(tracing.addTo(RpcRuntime.builder()), Runtimes.loopback().build(),
                new GreeterImpl("otel"));
                RpcRuntime consumer = tracing.addTo(RpcRuntime.builder()).build()) {
            answer = Runtimes.refer(consumer, provider, Duration.ofSeconds(5)).greet("ada");
        } // closing the provider waits for its call, whose span has ended by then
        List<SpanData> spans = exporter.getFinishedSpanItems();
        tracerProvider.close();
        System.out.println("OK " + answer + ", spans " + spans.stream().map(s -> s.getKind().name()).sorted().toList()
                + (spans.stream().map(SpanData::getTraceId).distinct().count() == 1 ? " in one trace" : " in several traces"));
    }
}
