package io.kestrel.rpc.observability.metrics;

import io.kestrel.rpc.api.interceptor.ClientInterceptor;
import io.kestrel.rpc.api.interceptor.ServerInterceptor;
import io.kestrel.rpc.core.RpcRuntime;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import java.util.Arrays;
import java.util.Objects;

/**
 * Micrometer metrics for Kestrel RPC: call duration timers recorded by two interceptors, and gauges
 * read from the runtime's views.
 *
 * <pre>{@code
 * KestrelMetrics metrics = KestrelMetrics.builder(meterRegistry).percentiles(0.5, 0.99).build();
 * RpcRuntime runtime = metrics.addTo(RpcRuntime.builder()).protocol(...).build();
 * metrics.bindTo(runtime);                       // the gauges
 * }</pre>
 *
 * <p><b>Timers</b> (names after OpenTelemetry's RPC semantic conventions): {@value #CLIENT_DURATION}
 * and {@value #SERVER_DURATION}, tagged {@value #TAG_SYSTEM}={@value #SYSTEM}, {@value #TAG_SERVICE}
 * (the service key: {@code group/interface:version}, absent parts left out), {@value #TAG_METHOD},
 * {@value #TAG_STATUS} (the {@link io.kestrel.rpc.api.interceptor.CallOutcome} tag: {@code ok},
 * {@code timeout}, {@code service_error}, ...) and {@value #TAG_SERIALIZATION}. A histogram is
 * published by default; client-side percentiles when asked for. The interceptors run outermost
 * but for tracing (order {@value #ORDER}), so refusals by the {@code actives}/{@code executes} limits
 * are timed too.
 *
 * <p><b>Streams</b> (calls of streaming methods, see {@code docs/streaming.md}) are timed in the same timers from
 * their start until they end, with their outcome ({@code ok}, {@code cancelled}, {@code timeout},
 * {@code service_error}, ...), on both sides; {@value #CLIENT_STREAMS_OPEN} and {@value #SERVER_STREAMS_OPEN} gauge
 * the streams open now, and {@value #CLIENT_STREAM_SENT}, {@value #CLIENT_STREAM_RECEIVED},
 * {@value #SERVER_STREAM_SENT} and {@value #SERVER_STREAM_RECEIVED} count their messages (tagged as the timers, but
 * for the status).
 *
 * <p><b>Gauges</b> ({@link RuntimeMetrics}): see the constants below. Micrometer is an optional
 * dependency of this module: only applications that use this class need it.
 */
public final class KestrelMetrics {
    /** Order of the metrics interceptors: before the access log (-2000) and the limits (-1000). */
    public static final int ORDER = -2500;

    public static final String CLIENT_DURATION = "rpc.client.duration";
    public static final String SERVER_DURATION = "rpc.server.duration";
    public static final String SERVER_CALLS_ACTIVE = "kestrel.rpc.server.calls.active";
    public static final String CLIENT_CALLS_PENDING = "kestrel.rpc.client.calls.pending";
    public static final String CLIENT_CONNECTION_PENDING = "kestrel.rpc.client.connection.calls.pending";
    public static final String CLIENT_CONNECTIONS = "kestrel.rpc.client.connections";
    /** Providers outlier ejection has out of balancing now, over all references (see docs/cluster-resilience.md). */
    public static final String CLIENT_PROVIDERS_EJECTED = "kestrel.rpc.client.providers.ejected";
    public static final String SERVER_CONNECTIONS = "kestrel.rpc.server.connections";
    public static final String CLIENT_SENT = "kestrel.rpc.client.sent";
    public static final String CLIENT_RECEIVED = "kestrel.rpc.client.received";
    public static final String SERVER_SENT = "kestrel.rpc.server.sent";
    public static final String SERVER_RECEIVED = "kestrel.rpc.server.received";
    public static final String SERVER_POOL_ACTIVE = "kestrel.rpc.server.pool.active";
    public static final String SERVER_POOL_QUEUED = "kestrel.rpc.server.pool.queued";
    public static final String SERVER_MEMORY_USED = "kestrel.rpc.server.memory.used";
    public static final String REGISTRY_CONNECTED = "kestrel.rpc.registry.connected";
    /** Streams open now, per side (a gauge kept by the interceptors). */
    public static final String CLIENT_STREAMS_OPEN = "kestrel.rpc.client.streams.open";
    public static final String SERVER_STREAMS_OPEN = "kestrel.rpc.server.streams.open";
    /** Stream messages sent and received, per side, service, method and serialization (counters). */
    public static final String CLIENT_STREAM_SENT = "kestrel.rpc.client.stream.messages.sent";
    public static final String CLIENT_STREAM_RECEIVED = "kestrel.rpc.client.stream.messages.received";
    public static final String SERVER_STREAM_SENT = "kestrel.rpc.server.stream.messages.sent";
    public static final String SERVER_STREAM_RECEIVED = "kestrel.rpc.server.stream.messages.received";

    public static final String TAG_SYSTEM = "rpc.system";
    public static final String SYSTEM = "kestrel";
    public static final String TAG_SERVICE = "rpc.service";
    public static final String TAG_METHOD = "rpc.method";
    public static final String TAG_STATUS = "status";
    public static final String TAG_SERIALIZATION = "serialization";
    public static final String TAG_SERVER_ADDRESS = "server.address";

    private final MeterRegistry registry;
    private final Tags tags;
    private final ClientInterceptor client;
    private final ServerInterceptor server;
    private volatile RuntimeMetrics[] bound = new RuntimeMetrics[0]; // read per call: an array, no iterator

    private KestrelMetrics(Builder b) {
        this.registry = b.registry;
        this.tags = b.tags;
        MetricsOptions options = new MetricsOptions(b.percentiles, b.histogram);
        CallTimers clientTimers = new CallTimers(registry, CLIENT_DURATION,
                "duration of calls made by this process, until their result (or error) arrived", tags, options);
        CallTimers serverTimers = new CallTimers(registry, SERVER_DURATION,
                "duration of calls served by this process, from decoded request to result", tags, options);
        this.client = new MetricsInterceptors.Client(clientTimers, new StreamMeters(registry, new String[] {
                CLIENT_STREAMS_OPEN, CLIENT_STREAM_SENT, CLIENT_STREAM_RECEIVED}, tags,
                clientTimers), this);
        this.server = new MetricsInterceptors.Server(serverTimers, new StreamMeters(registry, new String[] {
                SERVER_STREAMS_OPEN, SERVER_STREAM_SENT, SERVER_STREAM_RECEIVED}, tags,
                serverTimers));
    }

    /** Metrics with the defaults: histograms, no client-side percentiles, no extra tags. */
    public static KestrelMetrics of(MeterRegistry registry) {
        return builder(registry).build();
    }

    public static Builder builder(MeterRegistry registry) {
        return new Builder(registry);
    }

    /**
     * Binds only the runtime's gauges (no timers): the same as {@code new RuntimeMetrics(runtime).bindTo(registry)}.
     */
    public static void bindTo(RpcRuntime runtime, MeterRegistry registry) {
        new RuntimeMetrics(runtime).bindTo(registry);
    }

    /** The consumer-side interceptor recording {@value #CLIENT_DURATION}. */
    public ClientInterceptor clientInterceptor() {
        return client;
    }

    /** The provider-side interceptor recording {@value #SERVER_DURATION}. */
    public ServerInterceptor serverInterceptor() {
        return server;
    }

    /** Registers both interceptors on a runtime being built; returns the builder. */
    public RpcRuntime.Builder addTo(RpcRuntime.Builder builder) {
        return builder.clientInterceptor(client).serverInterceptor(server);
    }

    /**
     * Registers the gauges of {@code runtime} ({@link RuntimeMetrics}) with this object's registry and
     * tags; per-connection gauges appear as the client interceptor sees calls to new providers.
     */
    public KestrelMetrics bindTo(RpcRuntime runtime) {
        RuntimeMetrics m = new RuntimeMetrics(runtime, tags);
        m.bindTo(registry);
        synchronized (this) {
            RuntimeMetrics[] more = Arrays.copyOf(bound, bound.length + 1);
            more[bound.length] = m;
            bound = more;
        }
        return this;
    }

    /** A call went to {@code address}: make sure its connection has a pending-calls gauge. */
    void calledProvider(String address) {
        for (RuntimeMetrics m : bound) {
            m.connectionSeen(address);
        }
    }

    public static final class Builder {
        private final MeterRegistry registry;
        private double[] percentiles = new double[0];
        private boolean histogram = true;
        private Tags tags = Tags.empty();

        private Builder(MeterRegistry registry) {
            this.registry = Objects.requireNonNull(registry, "meterRegistry");
        }

        /** Client-side percentiles published with each timer, e.g. {@code 0.5, 0.95, 0.99}. Default: none. */
        public Builder percentiles(double... percentiles) {
            this.percentiles = new MetricsOptions(percentiles, histogram).percentiles();
            return this;
        }

        /** Whether the timers publish histogram buckets (Prometheus {@code _bucket} series). Default true. */
        public Builder histogram(boolean histogram) {
            this.histogram = histogram;
            return this;
        }

        /** Tags added to every meter, e.g. {@code Tags.of("application", "orders")}. Default: none. */
        public Builder tags(Iterable<Tag> tags) {
            this.tags = Tags.of(tags);
            return this;
        }

        public KestrelMetrics build() {
            return new KestrelMetrics(this);
        }
    }
}
