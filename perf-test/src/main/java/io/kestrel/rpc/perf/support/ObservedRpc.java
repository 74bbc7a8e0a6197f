package io.kestrel.rpc.perf.support;

import io.kestrel.rpc.api.interceptor.ClientInterceptor;
import io.kestrel.rpc.api.interceptor.ServerInterceptor;
import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.observability.metrics.KestrelMetrics;
import io.kestrel.rpc.observability.otel.KestrelOpenTelemetry;
import io.kestrel.rpc.observability.tracing.KestrelTracing;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.micrometer.tracing.handler.DefaultTracingObservationHandler;
import io.micrometer.tracing.handler.PropagatingReceiverTracingObservationHandler;
import io.micrometer.tracing.handler.PropagatingSenderTracingObservationHandler;
import io.micrometer.tracing.otel.bridge.OtelCurrentTraceContext;
import io.micrometer.tracing.otel.bridge.OtelPropagator;
import io.micrometer.tracing.otel.bridge.OtelTracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.util.List;

/**
 * Metrics and tracing as a production setup would have them, for the {@code kestrel-*-observed} and
 * {@code kestrel-*-otel} systems: {@link KestrelMetrics} on a Prometheus registry (histograms, runtime
 * gauges) and tracing on the OpenTelemetry SDK, every call sampled, W3C propagation, spans batched to an
 * exporter that drops them (the no-op exporter: what is measured is the cost inside the process, not a
 * collector's). The tracing goes through Micrometer Observation and micrometer-tracing's OpenTelemetry
 * bridge ({@link KestrelTracing}) or straight to the OpenTelemetry API ({@link KestrelOpenTelemetry}).
 */
public final class ObservedRpc implements AutoCloseable {
    /** How calls are traced. */
    public enum Tracing {
        /** {@link KestrelTracing}: Micrometer Observation through micrometer-tracing's OpenTelemetry bridge. */
        OBSERVATION,
        /** {@link KestrelOpenTelemetry}: the OpenTelemetry API directly. */
        OPENTELEMETRY
    }

    private final PrometheusMeterRegistry meters = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final SdkTracerProvider tracerProvider = SdkTracerProvider.builder()
            .addSpanProcessor(BatchSpanProcessor.builder(SpanExporter.composite()).build()).build();
    private final ContextPropagators propagators = ContextPropagators.create(W3CTraceContextPropagator.getInstance());
    private final KestrelMetrics metrics = KestrelMetrics.of(meters);
    private final ClientInterceptor tracingClient;
    private final ServerInterceptor tracingServer;

    /** Tracing through Micrometer Observation (the {@code -observed} systems). */
    public ObservedRpc() {
        this(Tracing.OBSERVATION);
    }

    public ObservedRpc(Tracing how) {
        if (how == Tracing.OPENTELEMETRY) {
            KestrelOpenTelemetry otel = KestrelOpenTelemetry.of(OpenTelemetrySdk.builder()
                    .setTracerProvider(tracerProvider).setPropagators(propagators).build());
            this.tracingClient = otel.clientInterceptor();
            this.tracingServer = otel.serverInterceptor();
            return;
        }
        io.opentelemetry.api.trace.Tracer otel = tracerProvider.get("kestrel-perf");
        OtelTracer tracer = new OtelTracer(otel, new OtelCurrentTraceContext(), event -> { });
        OtelPropagator propagator = new OtelPropagator(propagators, otel);
        ObservationRegistry observations = ObservationRegistry.create();
        observations.observationConfig().observationHandler(new ObservationHandler.FirstMatchingCompositeObservationHandler(
                new PropagatingSenderTracingObservationHandler<>(tracer, propagator),
                new PropagatingReceiverTracingObservationHandler<>(tracer, propagator),
                new DefaultTracingObservationHandler(tracer)));
        KestrelTracing observed = KestrelTracing.of(observations);
        this.tracingClient = observed.clientInterceptor();
        this.tracingServer = observed.serverInterceptor();
    }

    /** {@code builder} with the metrics and tracing interceptors. */
    public RpcRuntime.Builder install(RpcRuntime.Builder builder) {
        return metrics.addTo(builder).clientInterceptor(tracingClient).serverInterceptor(tracingServer);
    }

    /** The consumer's interceptors {@link #install} registers, in the order they run (tracing outermost). */
    public List<ClientInterceptor> clientInterceptors() {
        return List.of(tracingClient, metrics.clientInterceptor());
    }

    /** The provider's interceptors {@link #install} registers, in the order they run (tracing outermost). */
    public List<ServerInterceptor> serverInterceptors() {
        return List.of(tracingServer, metrics.serverInterceptor());
    }

    /** The consumer's metrics interceptor alone, without tracing (what the tracing adds is the difference). */
    public List<ClientInterceptor> metricsClientInterceptors() {
        return List.of(metrics.clientInterceptor());
    }

    /** The provider's metrics interceptor alone, without tracing. */
    public List<ServerInterceptor> metricsServerInterceptors() {
        return List.of(metrics.serverInterceptor());
    }

    /** Binds the runtime's gauges; returns the runtime. */
    public RpcRuntime bind(RpcRuntime runtime) {
        metrics.bindTo(runtime);
        return runtime;
    }

    /** The Prometheus text of everything recorded so far. */
    public String scrape() {
        return meters.scrape();
    }

    @Override
    public void close() {
        tracerProvider.close();
        meters.close();
    }
}
