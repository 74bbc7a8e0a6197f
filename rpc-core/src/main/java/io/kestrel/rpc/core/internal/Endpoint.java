package io.kestrel.rpc.core.internal;

import io.kestrel.rpc.api.cluster.Candidate;
import io.kestrel.rpc.api.registry.ProviderInfo;
import io.kestrel.rpc.transport.Connection;
import io.kestrel.rpc.transport.ConnectionState;
import java.util.concurrent.atomic.AtomicInteger;

/** A provider as one reference sees it: its record, the shared connection, and the calls in flight. */
public final class Endpoint implements Candidate {
    private final ProviderInfo provider;
    private final Connection connection;
    final AtomicInteger active = new AtomicInteger();

    Endpoint(ProviderInfo provider, Connection connection) {
        this.provider = provider;
        this.connection = connection;
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

    /** The address, with the connection's state when it does not take calls ("connecting" while it opens). */
    @Override
    public String toString() {
        if (connection.isConnected()) {
            return provider.address();
        }
        ConnectionState s = connection.state();
        String state = s == ConnectionState.CONNECTING || s == ConnectionState.HANDSHAKING ? "connecting"
                : s == ConnectionState.READY ? "disconnected" : s.name().toLowerCase(java.util.Locale.ROOT);
        return provider.address() + " (" + state + ")";
    }
}
