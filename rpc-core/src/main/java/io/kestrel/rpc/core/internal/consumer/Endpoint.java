package io.kestrel.rpc.core.internal.consumer;

import io.kestrel.rpc.api.cluster.Candidate;
import io.kestrel.rpc.api.registry.ProviderInfo;
import io.kestrel.rpc.transport.Connection;
import io.kestrel.rpc.transport.ConnectionState;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A provider as one reference sees it: its record, the shared connection, the calls in flight, and
 * the {@link Agreement.Terms} it was agreed on (the serializer for calls to it, or why it is left out).
 * The terms are worked out once per record, or once per handshake of the connection when the record
 * says nothing (direct mode), and kept: a call only compares two references.
 */
final class Endpoint implements Candidate {
    private static final Logger log = LoggerFactory.getLogger(Endpoint.class);

    private final ProviderInfo provider;
    private final String address; // "host:port", built once: interceptors read it on every call
    private final Connection connection;
    private final Agreement agreement;
    private volatile Agreement.Terms terms;
    final AtomicInteger active = new AtomicInteger();
    private final Warmup warmup;
    /** The registry no longer lists it; kept while its connection is ready (see {@link Directory}). */
    volatile boolean unlisted;
    /** Its standing in outlier ejection (see {@link OutlierEjection}). */
    final OutlierEjection.State outlier = new OutlierEjection.State();

    Endpoint(ProviderInfo provider, Connection connection, Agreement agreement) {
        this.provider = provider;
        this.address = provider.address();
        this.connection = connection;
        this.agreement = agreement;
        this.warmup = Warmup.of(provider);
    }

    /** Whether outlier ejection has it out of balancing now. */
    public boolean ejected() {
        return outlier.ejected;
    }

    /** How often outlier ejection took it out of balancing. */
    public long ejections() {
        return outlier.ejections;
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

    /** The provider's "host:port" ({@link ProviderInfo#address()}, kept). */
    String address() {
        return address;
    }

    public Connection connection() {
        return connection;
    }

    /** The terms of calls to this provider, worked out again only when the connection brought a new handshake. */
    Agreement.Terms terms() {
        Agreement.Terms t = terms;
        if (t != null && t.fromRecord()) {
            return t;
        }
        Map<String, Map<String, String>> handshake = connection.providerFacts();
        if (t != null && t.handshake() == handshake) {
            return t;
        }
        t = agreement.agree(provider, handshake);
        terms = t;
        if (!t.usable()) {
            log.error("Provider {} of {} left out: {}", provider.address(), provider.service(), t.refusal());
        } else {
            log.debug("Calls to {} of {} use {}", provider.address(), provider.service(), t.summary());
        }
        return t;
    }

    /**
     * The address, with the connection's state when it does not take calls ("connecting" while it opens),
     * and the agreed serializer (or "left out") once the terms are known.
     */
    @Override
    public String toString() {
        Agreement.Terms t = terms;
        String agreed = t == null ? "" : t.usable() ? " " + t.serializer().name() : " (left out)";
        if (connection.isConnected()) {
            return provider.address() + agreed;
        }
        ConnectionState s = connection.state();
        String state = s == ConnectionState.CONNECTING || s == ConnectionState.HANDSHAKING ? "connecting"
                : s == ConnectionState.READY ? "disconnected" : s.name().toLowerCase(java.util.Locale.ROOT);
        return provider.address() + " (" + state + ")" + agreed;
    }
}
