package io.kestrel.rpc.core.internal;

import io.kestrel.rpc.api.ServiceKey;
import io.kestrel.rpc.api.registry.ProviderInfo;
import io.kestrel.rpc.api.registry.ProviderListener;
import io.kestrel.rpc.api.registry.Registry;
import io.kestrel.rpc.transport.ClientOptions;
import io.kestrel.rpc.transport.ClientTransport;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The providers of one reference: a fixed list (direct mode) or the registry's current list. Opens
 * (shares) a connection to each provider as soon as it appears, so the first call does not pay for
 * connecting, and releases it when the provider disappears. Thread-safe.
 */
public final class Directory implements ProviderListener, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Directory.class);

    private final ServiceKey service;
    private final ClientTransport transport;
    private final ClientOptions options;
    private final Agreement agreement;
    private final Registry registry;
    /** The protocol whose providers the registry lists for this directory (registry mode). */
    private final String protocol;
    private final String source;
    private final CountDownLatch firstList = new CountDownLatch(1);
    private volatile List<Endpoint> endpoints = List.of();
    private volatile List<ProviderInfo> seen = List.of();
    private final ProviderCap cap;
    /** Why a provider was left out: its shared connection has other settings (null if none was). */
    private volatile IllegalArgumentException conflict;
    private boolean closed;

    private Directory(ServiceKey service, ClientTransport transport, ClientOptions options, Agreement agreement,
            Registry registry, String protocol, String source) {
        this.service = service;
        this.protocol = protocol;
        this.agreement = agreement;
        this.transport = transport;
        this.options = options;
        this.registry = registry;
        this.source = source;
        this.cap = new ProviderCap(service);
    }

    /** Direct mode: the given providers, "host:port[,host:port...]", accepting any serialization. */
    static Directory direct(ServiceKey service, String url, ClientTransport transport, ClientOptions options,
            Agreement agreement, List<Byte> anySerialization) {
        Directory d = new Directory(service, transport, options, agreement, null, null, "direct url " + url);
        List<ProviderInfo> providers = new ArrayList<>();
        for (String part : url.split(",")) {
            String hp = part.trim();
            if (hp.startsWith("kestrel://")) {
                hp = hp.substring("kestrel://".length());
            }
            int slash = hp.indexOf('/');
            if (slash >= 0) {
                hp = hp.substring(0, slash);
            }
            int colon = hp.lastIndexOf(':');
            if (colon <= 0) {
                throw new IllegalArgumentException("reference url '" + url + "' must be host:port[,host:port...]");
            }
            int port;
            try {
                port = Integer.parseInt(hp.substring(colon + 1));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("reference url '" + url + "' has a bad port in '" + part + "'");
            }
            providers.add(new ProviderInfo(hp.substring(0, colon), port, service, anySerialization, 100, List.of()));
        }
        d.update(providers, true);
        return d;
    }

    /**
     * Registry mode: follows the registry's list of the providers of {@code service} on {@code protocol} (for
     * "dubbo", Dubbo's own layout, where stock Dubbo providers are too).
     */
    static Directory subscribe(ServiceKey service, String protocol, Registry registry, ClientTransport transport,
            ClientOptions options, Agreement agreement) {
        Directory d = new Directory(service, transport, options, agreement, registry, protocol,
                "registry " + registry.address() + (protocol.equals(ProviderInfo.NATIVE_PROTOCOL) ? ""
                        : " (" + protocol + " providers)"));
        registry.subscribe(service, protocol, d);
        return d;
    }

    /**
     * Waits up to {@code timeoutMillis} for the registry's first answer, then for the first connection
     * attempt to each provider in it, so a reference is usable (and checkable) when it is returned.
     */
    public void awaitFirstList(long timeoutMillis) throws InterruptedException {
        firstList.await(timeoutMillis, TimeUnit.MILLISECONDS);
        for (Endpoint e : endpoints) {
            e.connection().awaitFirstConnect();
        }
    }

    @Override
    public void providersChanged(ServiceKey key, List<ProviderInfo> providers) {
        update(cap.limit(providers, endpoints), false);
    }

    private synchronized void update(List<ProviderInfo> providers, boolean awaitConnect) {
        if (closed) {
            return;
        }
        Map<String, Endpoint> old = new HashMap<>();
        for (Endpoint e : endpoints) {
            old.put(e.provider().address(), e);
        }
        List<Endpoint> next = new ArrayList<>();
        for (ProviderInfo p : providers) {
            Endpoint kept = old.remove(p.address());
            if (kept != null && kept.provider().equals(p)) {
                next.add(kept);
            } else if (kept != null) {
                next.add(new Endpoint(p, kept.connection(), agreement)); // same address, new record: keep the connection
            } else {
                try {
                    next.add(new Endpoint(p, transport.acquire(p.host(), p.port(), options, "reference " + service,
                            service.toString(), awaitConnect), agreement));
                } catch (IllegalArgumentException e) {
                    conflict = e;
                    log.error("Provider {} of {} left out: {}", p.address(), service, e.getMessage());
                }
            }
        }
        for (Endpoint e : next) {
            e.terms(); // agreed now, so a provider left out is logged when it appears, not at the first call
        }
        endpoints = List.copyOf(next);
        seen = List.copyOf(providers);
        for (Endpoint gone : old.values()) {
            transport.release(gone.provider().host(), gone.provider().port());
        }
        if (registry != null) {
            // addresses only: connections to new providers are being opened right now, not "disconnected"
            log.info("Providers of {}: {}", service, next.stream().map(e -> e.provider().address()).toList());
        }
        firstList.countDown();
    }

    /**
     * The connection-settings conflict that made this directory leave a provider out, or null.
     * A reference whose first list had one must not be created.
     */
    public IllegalArgumentException conflict() {
        return conflict;
    }

    public List<Endpoint> endpoints() {
        return endpoints;
    }

    /** Every provider record currently known, including ones filtered out later. */
    public List<ProviderInfo> seen() {
        return seen;
    }

    /**
     * Every known provider with what keeps it from taking calls: "left out: <why>" when it disagrees with
     * this reference on serialization or optimizer, "not reachable" when its connection is down, and the
     * serialization agreed on otherwise. For messages.
     */
    public String explainProviders() {
        if (seen.isEmpty()) {
            return "none";
        }
        StringBuilder sb = new StringBuilder();
        for (ProviderInfo p : seen) {
            Endpoint e = endpoints.stream().filter(x -> x.provider().address().equals(p.address())).findFirst()
                    .orElse(null);
            sb.append(sb.length() == 0 ? "" : "; ").append(p.address());
            if (e == null) {
                sb.append(" (no connection: connection settings conflict)");
                continue;
            }
            Agreement.Terms t = e.terms();
            if (!t.usable()) {
                sb.append(" (left out: ").append(t.refusal()).append(')');
            } else {
                sb.append(" (").append(t.summary())
                        .append(e.connection().isConnected() ? "" : ", not reachable").append(')');
            }
        }
        return sb.toString();
    }

    /**
     * For "no provider" messages when none of this reference's version and group is registered: the
     * versions and groups of the interface that are (asked from the registry now, so only on failure),
     * or that there are none; "" in direct mode.
     */
    public String otherVersions() {
        if (registry == null || !seen.isEmpty()) {
            return "";
        }
        List<ServiceKey> others = registry.registeredVersions(service.interfaceName()).stream()
                .filter(k -> !k.equals(service)).toList();
        if (others.isEmpty()) {
            return "; no other version or group of " + service.interfaceName() + " is registered either";
        }
        return "; registered for " + service.interfaceName() + ": " + others.stream()
                .map(k -> "version '" + k.version() + "' group '" + k.group() + "'")
                .collect(java.util.stream.Collectors.joining(", "))
                + ". Set version and group on the reference to one of those (or export the one it asks for)";
    }

    /** Where the list comes from, for messages. */
    public String source() {
        return source;
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (registry != null) {
            registry.unsubscribe(service, protocol, this);
        }
        for (Endpoint e : endpoints) {
            transport.release(e.provider().host(), e.provider().port());
        }
        endpoints = List.of();
    }
}
