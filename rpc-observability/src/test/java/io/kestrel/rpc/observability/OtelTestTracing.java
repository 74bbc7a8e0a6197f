package io.kestrel.rpc.observability;

import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.handler.DefaultTracingObservationHandler;
import io.micrometer.tracing.handler.PropagatingReceiverTracingObservationHandler;
import io.micrometer.tracing.handler.PropagatingSenderTracingObservationHandler;
import io.micrometer.tracing.otel.bridge.OtelCurrentTraceContext;
import io.micrometer.tracing.otel.bridge.OtelPropagator;
import io.micrometer.tracing.otel.bridge.OtelTracer;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;

/**
 * The OpenTelemetry SDK with an in-memory exporter, W3C propagation, every span sampled: behind
 * Micrometer Observation as an application would wire micrometer-tracing-bridge-otel, and as the
 * {@link OpenTelemetry} an application using the SDK directly has.
 */
final class OtelTestTracing implements AutoCloseable {
    private final InMemorySpanExporter exporter = InMemorySpanExporter.create();
    private final SdkTracerProvider tracerProvider = SdkTracerProvider.builder()
            .addSpanProcessor(SimpleSpanProcessor.create(exporter)).build();
    private final io.opentelemetry.api.trace.Tracer otel = tracerProvider.get("kestrel-test");
    private final ObservationRegistry observations = ObservationRegistry.create();
    private final OpenTelemetry openTelemetry = OpenTelemetrySdk.builder().setTracerProvider(tracerProvider)
            .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance())).build();

    OtelTestTracing() {
        OtelTracer tracer = new OtelTracer(otel, new OtelCurrentTraceContext(), event -> { });
        OtelPropagator propagator = new OtelPropagator(
                ContextPropagators.create(W3CTraceContextPropagator.getInstance()), otel);
        observations.observationConfig().observationHandler(new ObservationHandler.FirstMatchingCompositeObservationHandler(
                new PropagatingSenderTracingObservationHandler<>(tracer, propagator),
                new PropagatingReceiverTracingObservationHandler<>(tracer, propagator),
                new DefaultTracingObservationHandler(tracer)));
    }

    ObservationRegistry observationRegistry() {
        return observations;
    }

    /** The same SDK as an application using OpenTelemetry directly has it: W3C propagation. */
    OpenTelemetry openTelemetry() {
        return openTelemetry;
    }

    InMemorySpanExporter exporter() {
        return exporter;
    }

    /** The OpenTelemetry API tracer of the same SDK (for spans a test starts itself). */
    io.opentelemetry.api.trace.Tracer otel() {
        return otel;
    }

    @Override
    public void close() {
        tracerProvider.close();
    }
}
