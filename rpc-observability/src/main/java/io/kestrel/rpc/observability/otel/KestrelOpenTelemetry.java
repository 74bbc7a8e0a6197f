package io.kestrel.rpc.observability.otel;

import io.kestrel.rpc.api.interceptor.ClientInterceptor;
import io.kestrel.rpc.api.interceptor.ServerInterceptor;
import io.kestrel.rpc.core.RpcRuntime;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.propagation.TextMapPropagator;
import java.util.Objects;

/**
 * Tracing for Kestrel RPC on the OpenTelemetry API directly, without Micrometer Observation: a CLIENT
 * span per call on the consumer and a SERVER span on the provider, its child across the wire.
 *
 * <pre>{@code
 * KestrelOpenTelemetry tracing = KestrelOpenTelemetry.of(openTelemetry); // the application's SDK
 * RpcRuntime runtime = tracing.addTo(RpcRuntime.builder()).protocol(...).build();
 * }</pre>
 *
 * <p>The spans are those of {@link io.kestrel.rpc.observability.tracing.KestrelTracing} with the
 * micrometer-tracing OpenTelemetry bridge: name {@code service/method}; attributes
 * {@code rpc.system=kestrel}, {@code rpc.service}, {@code rpc.method}, {@code serialization},
 * {@code status} (the outcome's tag), {@code server.address} (consumer, the provider called; also
 * {@code peer.service}, the service) or {@code client.address} (provider, the caller); status ERROR
 * with the exception's message and an {@code exception} event for a call that failed (timeout, service
 * exception, refusal, transport error). A call that succeeded leaves the status unset, as OpenTelemetry
 * asks of instrumentation (the bridge sets OK on consumer spans, and leaves provider spans unset). It costs less per call: one span
 * built with attributes prepared once per method, no observation context, handlers or key values.
 * Use it when the application uses the OpenTelemetry SDK itself; use {@code KestrelTracing} to go
 * through Micrometer Observation (Spring Boot's default, Brave, observation handlers).
 *
 * <p><b>Propagation.</b> The consumer's span starts before the request is written, as a child of the
 * current context; the {@link TextMapPropagator} of the {@link OpenTelemetry} given (W3C
 * {@code traceparent}/{@code tracestate} with the SDK's usual setup) writes it into the request
 * attachments, and the provider's span continues from them (never from whatever its pooled thread
 * last had current). Each span is current while the rest of the chain runs on that thread, so calls a
 * service makes from its thread are children of its SERVER span (A -> B -> C is one trace). Work
 * handed to another thread carries it only if the application propagates the context
 * ({@code Context.taskWrapping}).
 *
 * <p>Interceptors of order {@value #ORDER}, outermost, like {@code KestrelTracing}: register one of
 * the two, not both. Needs {@code opentelemetry-api} on the class path (only applications using this
 * class). Thread-safe.
 */
public final class KestrelOpenTelemetry {
    /** Order of the interceptors: outermost, the same position as {@code KestrelTracing.ORDER}. */
    public static final int ORDER = -3000;
    /** The instrumentation scope name of the spans' tracer. */
    public static final String INSTRUMENTATION_NAME = "io.kestrel.rpc";

    private final ClientInterceptor client;
    private final ServerInterceptor server;

    private KestrelOpenTelemetry(Tracer tracer, TextMapPropagator propagator) {
        this.client = new OtelInterceptors.Client(tracer, propagator);
        this.server = new OtelInterceptors.Server(tracer, propagator);
    }

    /**
     * Tracing with the tracer ({@value #INSTRUMENTATION_NAME}) and the text-map propagator of
     * {@code openTelemetry}.
     */
    public static KestrelOpenTelemetry of(OpenTelemetry openTelemetry) {
        Objects.requireNonNull(openTelemetry, "openTelemetry");
        return new KestrelOpenTelemetry(openTelemetry.getTracer(INSTRUMENTATION_NAME),
                openTelemetry.getPropagators().getTextMapPropagator());
    }

    /** The consumer-side interceptor. */
    public ClientInterceptor clientInterceptor() {
        return client;
    }

    /** The provider-side interceptor. */
    public ServerInterceptor serverInterceptor() {
        return server;
    }

    /** Registers both interceptors on a runtime being built; returns the builder. */
    public RpcRuntime.Builder addTo(RpcRuntime.Builder builder) {
        return builder.clientInterceptor(client).serverInterceptor(server);
    }
}
