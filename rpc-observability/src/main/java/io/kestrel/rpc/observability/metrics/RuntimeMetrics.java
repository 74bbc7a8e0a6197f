package io.kestrel.rpc.observability.metrics;

import io.kestrel.rpc.core.ConnectionView;
import io.kestrel.rpc.core.ReferenceView;
import io.kestrel.rpc.core.RegistryState;
import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.core.RuntimeInspector;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.BaseUnits;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.ToDoubleFunction;

/**
 * Gauges and counters read from a runtime's inspector (its snapshot and views) when the registry is scraped: calls in
 * flight, pending calls (in total and per provider connection), connections both ways, bytes both
 * ways, the business pool and the registry connection. Nothing here runs per call. Thread-safe.
 */
public final class RuntimeMetrics implements MeterBinder {
    private final RuntimeInspector inspector;
    private final Tags tags;
    private final Set<String> connectionGauges = ConcurrentHashMap.newKeySet();
    private volatile MeterRegistry registry;

    /** @param tags added to every meter (for example the application's name when several runtimes share a registry) */
    public RuntimeMetrics(RpcRuntime runtime, Iterable<Tag> tags) {
        this.inspector = runtime.inspect();
        this.tags = Tags.of(tags);
    }

    public RuntimeMetrics(RpcRuntime runtime) {
        this(runtime, Tags.empty());
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        gauge(registry, KestrelMetrics.SERVER_CALLS_ACTIVE, "calls the server has taken on and not yet answered",
                r -> r.snapshot().server().inFlightCalls());
        gauge(registry, KestrelMetrics.CLIENT_CALLS_PENDING, "calls sent to providers and not yet answered or timed out",
                r -> r.snapshot().client().pendingCalls());
        gauge(registry, KestrelMetrics.CLIENT_CONNECTIONS, "connections to providers", r -> r.connections().size());
        gauge(registry, KestrelMetrics.CLIENT_PROVIDERS_EJECTED, "providers outlier ejection has out of balancing now",
                r -> r.references().stream().mapToLong(ReferenceView::ejectedProviders).sum());
        gauge(registry, KestrelMetrics.SERVER_CONNECTIONS, "consumer connections to the server", r -> r.snapshot().server().connections());
        gauge(registry, KestrelMetrics.SERVER_POOL_ACTIVE, "business threads running a call", r -> r.snapshot().pool().active());
        gauge(registry, KestrelMetrics.SERVER_POOL_QUEUED, "calls waiting for a business thread", r -> r.snapshot().pool().queued());
        Gauge.builder(KestrelMetrics.SERVER_MEMORY_USED, inspector, r -> r.snapshot().server().memoryInUseBytes())
                .description("bytes of requests in progress and unsent responses, counted against the memory budget")
                .baseUnit(BaseUnits.BYTES).tags(tags).register(registry);
        bytes(registry, KestrelMetrics.CLIENT_SENT, "bytes written to providers", r -> r.snapshot().client().wire().bytesWritten());
        bytes(registry, KestrelMetrics.CLIENT_RECEIVED, "bytes read from providers", r -> r.snapshot().client().wire().bytesRead());
        bytes(registry, KestrelMetrics.SERVER_SENT, "bytes written to consumers", r -> r.snapshot().server().wire().bytesWritten());
        bytes(registry, KestrelMetrics.SERVER_RECEIVED, "bytes read from consumers", r -> r.snapshot().server().wire().bytesRead());
        if (inspector.snapshot().registry() != RegistryState.NONE) {
            gauge(registry, KestrelMetrics.REGISTRY_CONNECTED,
                    "1 while the registry is reachable, 0 while it is not (or not used yet)",
                    r -> r.snapshot().registryConnected() ? 1 : 0);
        }
        this.registry = registry;
        for (ConnectionView c : inspector.connections()) {
            connectionSeen(c.address());
        }
    }

    /**
     * Adds the pending-calls gauge of the connection to {@code address} ("host:port") if it has none
     * yet; it reads 0 once the connection is gone. Cheap when it exists (one set lookup).
     */
    void connectionSeen(String address) {
        MeterRegistry r = registry;
        if (address == null || r == null || connectionGauges.contains(address) || !connectionGauges.add(address)) {
            return;
        }
        Gauge.builder(KestrelMetrics.CLIENT_CONNECTION_PENDING, inspector,
                        rt -> rt.connection(address).map(ConnectionView::pendingCalls).orElse(0))
                .description("calls sent on this connection and not yet answered or timed out")
                .tags(tags).tag(KestrelMetrics.TAG_SERVER_ADDRESS, address).register(r);
    }

    private void gauge(MeterRegistry registry, String name, String description, ToDoubleFunction<RuntimeInspector> f) {
        Gauge.builder(name, inspector, f).description(description).tags(tags).register(registry);
    }

    private void bytes(MeterRegistry registry, String name, String description, ToDoubleFunction<RuntimeInspector> f) {
        FunctionCounter.builder(name, inspector, f).description(description).baseUnit(BaseUnits.BYTES).tags(tags)
                .register(registry);
    }
}
