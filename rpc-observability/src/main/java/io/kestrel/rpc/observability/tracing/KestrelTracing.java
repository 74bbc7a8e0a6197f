package io.kestrel.rpc.observability.tracing;

import io.kestrel.rpc.api.interceptor.ClientInterceptor;
import io.kestrel.rpc.api.interceptor.ServerInterceptor;
import io.kestrel.rpc.core.RpcRuntime;
import io.micrometer.observation.ObservationConvention;
import io.micrometer.observation.ObservationRegistry;
import java.util.Objects;

/**
 * Tracing for Kestrel RPC with Micrometer Observation: one observation per call on each side, which a
 * tracing bridge (micrometer-tracing with OpenTelemetry or Brave) turns into a CLIENT span on the
 * consumer and a SERVER span on the provider, its child across the wire.
 *
 * <pre>{@code
 * KestrelTracing tracing = KestrelTracing.of(observationRegistry);
 * RpcRuntime runtime = tracing.addTo(RpcRuntime.builder()).protocol(...).build();
 * }</pre>
 *
 * <p><b>Propagation.</b> The consumer's observation starts before the request is written; the
 * bridge's propagator writes the trace context (W3C {@code traceparent} and {@code tracestate} with
 * the OpenTelemetry bridge's default) into the request attachments, and the provider's observation
 * continues from them. While the service method runs, its observation is current on the business
 * thread, so calls the service makes from that thread are children of it (A -> B -> C is one trace).
 * Work the service hands to another thread carries the observation only if the application
 * propagates it (Micrometer's {@code ContextSnapshot}, or the bridge's context wrapping).
 *
 * <p><b>Errors.</b> A call that fails (timeout, service exception, refusal, transport error) is
 * reported with {@code Observation.error}, which the bridges record as an error status and an
 * exception event; the {@code status} key value holds the outcome's tag either way.
 *
 * <p>Interceptors of order {@value #ORDER}: outermost, so every other interceptor runs inside the
 * span. Needs {@code micrometer-observation} on the class path (only applications using this class).
 */
public final class KestrelTracing {
    /** Order of the tracing interceptors: outermost (metrics are -2500, the access log -2000). */
    public static final int ORDER = -3000;

    private final ClientInterceptor client;
    private final ServerInterceptor server;

    private KestrelTracing(Builder b) {
        this.client = new TracingInterceptors.Client(b.registry, b.clientConvention);
        this.server = new TracingInterceptors.Server(b.registry, b.serverConvention);
    }

    /** Tracing with the default conventions ({@link RpcObservationConventions}). */
    public static KestrelTracing of(ObservationRegistry registry) {
        return builder(registry).build();
    }

    public static Builder builder(ObservationRegistry registry) {
        return new Builder(registry);
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

    public static final class Builder {
        private final ObservationRegistry registry;
        private ObservationConvention<RpcClientContext> clientConvention = new RpcObservationConventions.Client();
        private ObservationConvention<RpcServerContext> serverConvention = new RpcObservationConventions.Server();

        private Builder(ObservationRegistry registry) {
            this.registry = Objects.requireNonNull(registry, "observationRegistry");
        }

        /** Names and key values of consumer observations. Default {@link RpcObservationConventions.Client}. */
        public Builder clientConvention(ObservationConvention<RpcClientContext> convention) {
            this.clientConvention = Objects.requireNonNull(convention, "clientConvention");
            return this;
        }

        /** Names and key values of provider observations. Default {@link RpcObservationConventions.Server}. */
        public Builder serverConvention(ObservationConvention<RpcServerContext> convention) {
            this.serverConvention = Objects.requireNonNull(convention, "serverConvention");
            return this;
        }

        public KestrelTracing build() {
            return new KestrelTracing(this);
        }
    }
}
