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
import io.opentelemetry.sdk.trace.samplers.Sampler;
import java.util.List;

/**
 * Metrics and tracing as a production setup would have them, for the {@code kestrel-*-observed} and
 * {@code kestrel-*-otel} systems: {@link KestrelMetrics} on a Prometheus registry (histograms, runtime
 * gauges) and tracing on the OpenTelemetry SDK, every call sampled, W3C propagation, spans batched to an
 * exporter that drops them (the no-op exporter: what is measured is the cost inside the process, not a
 * collector's; {@value #SAMPLING_PROPERTY} below 1 samples that share of the traces instead, as a
 * production setup usually does: Spring Boot's default probability is 0.1). The tracing goes through Micrometer Observation and micrometer-tracing's OpenTelemetry
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

    /**
     * System property: the share of traces sampled, in (0, 1] (default 1: every call). The consumer
     * decides; the provider follows the decision the {@code traceparent} carries.
     */
    public static final String SAMPLING_PROPERTY = "kestrel.perf.trace-sampling";

    private final PrometheusMeterRegistry meters = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final SdkTracerProvider tracerProvider = SdkTracerProvider.builder()
            .setSampler(sampler(sampling()))
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

    /** The share of traces sampled, from {@value #SAMPLING_PROPERTY}. */
    public static double sampling() {
        String value = System.getProperty(SAMPLING_PROPERTY);
        return value == null ? 1.0 : parseSampling(value);
    }

    /** Parses a sampling share, refusing anything outside (0, 1] with a message naming the setting. */
    public static double parseSampling(String value) {
        double share;
        try {
            share = Double.parseDouble(value.trim());
        } catch (NumberFormatException e) {
            share = Double.NaN;
        }
        if (!(share > 0 && share <= 1)) {
            throw new IllegalArgumentException("trace sampling must be a share in (0, 1], e.g. 0.1, was '" + value + "'");
        }
        return share;
    }

    /** 1: the SDK's default (every new trace sampled); below 1: that share of new traces; both follow a parent's decision. */
    private static Sampler sampler(double share) {
        return share >= 1 ? Sampler.parentBased(Sampler.alwaysOn()) : Sampler.parentBased(Sampler.traceIdRatioBased(share));
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

    /** The tracer provider's sampler, described (e.g. {@code ParentBased{root:TraceIdRatioBased{0.1...}}}). */
    public String samplerDescription() {
        return tracerProvider.getSampler().getDescription();
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
