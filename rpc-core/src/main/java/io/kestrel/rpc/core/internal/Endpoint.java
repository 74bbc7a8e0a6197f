package io.kestrel.rpc.core.internal;

import io.kestrel.rpc.api.cluster.Candidate;
import io.kestrel.rpc.api.registry.ProviderInfo;
import io.kestrel.rpc.transport.Connection;
import java.util.concurrent.atomic.AtomicInteger;

/** A provider as one reference sees it: its record, the shared connection, and the calls in flight. */
public final class Endpoint implements Candidate {
    private final ProviderInfo provider;
    private final Connection connection;
    final AtomicInteger active = new AtomicInteger();
    private final Warmup warmup;

    Endpoint(ProviderInfo provider, Connection connection) {
        this.provider = provider;
        this.connection = connection;
        this.warmup = Warmup.of(provider);
    }

    /** The published weight, ramped up while the provider warms up (see {@link Warmup}). */
    @Override
    public int weight() {
        return warmup == null ? provider.weight() : warmup.weight(provider.weight(), System.currentTimeMillis());
    }

    @Override
    public ProviderInfo provider() {
        return provider;
    }

    @Override
    public int activeCalls() {
        return active.get();
    }

    public Connection connection() {
        return connection;
    }

    @Override
    public String toString() {
        return provider.address() + (connection.isConnected() ? "" : " (disconnected)");
    }
}
