package io.kestrel.rpc.core.internal.consumer;

import io.kestrel.rpc.api.ServiceKey;
import io.kestrel.rpc.api.registry.ProviderInfo;
import io.kestrel.rpc.api.registry.ProviderListener;
import io.kestrel.rpc.api.config.RegistryConfig;
import io.kestrel.rpc.api.registry.Registry;
import io.kestrel.rpc.transport.ClientTransport;
import io.kestrel.rpc.transport.ConnectionState;
import io.kestrel.rpc.transport.spi.ClientOptions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;

/**
 * The providers of one reference: a fixed list (direct mode) or the registry's current list. Opens
 * (shares) a connection to each provider as soon as it appears, so the first call does not pay for
 * connecting, and releases it when the provider disappears. Thread-safe.
 *
 * <p><b>The registry is advice, the connection is truth</b> ({@link RegistryConfig#emptyProtection()}, on by
 * default). A provider the registry stops listing (its list shrank or is empty: a provider cut from ZooKeeper,
 * an expired session, a ZooKeeper that lost its data) whose connection is ready is kept, and keeps taking
 * calls, until its connection leaves the ready state: the heartbeat or a transport failure closed it, or the
 * provider said it is going away (a graceful shutdown). Then it is let go and not reconnected. Listed again,
 * it is an ordinary provider again. A provider whose connection is not ready when the registry drops it is let
 * go at once.
 */
final class Directory implements ProviderListener, AutoCloseable {
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
    /** Keep providers the registry dropped while their connections are ready (registry mode). */
    private final boolean keepConnected;
    /**
     * Re-checks the kept providers when one of their connections changes state; off the thread that changed it
     * (an event loop, or one holding another directory's lock while it releases a shared connection).
     */
    private final Runnable recheckKept = () -> ForkJoinPool.commonPool().execute(this::letGoOfFailedKept);

    private Directory(ServiceKey service, ClientTransport transport, ClientOptions options, Agreement agreement,
            Registry registry, String protocol, String source, boolean keepConnected) {
        this.keepConnected = keepConnected;
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
        Directory d = new Directory(service, transport, options, agreement, null, null, "direct url " + url, false);
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
            ClientOptions options, Agreement agreement, boolean keepConnected) {
        Directory d = new Directory(service, transport, options, agreement, registry, protocol,
                "registry " + registry.address() + (protocol.equals(ProviderInfo.NATIVE_PROTOCOL) ? ""
                        : " (" + protocol + " providers)"), keepConnected);
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
            if (kept != null && kept.unlisted) { // listed again
                kept.unlisted = false;
                kept.connection().removeStateListener(recheckKept);
            }
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
        List<Endpoint> keptUnlisted = new ArrayList<>();
        for (Endpoint gone : old.values()) {
            if (keepConnected && gone.terms().usable()) {
                if (!gone.unlisted) {
                    gone.connection().onStateChange(recheckKept); // first, so a change from now on is not missed
                }
                if (gone.connection().isConnected()) {
                    gone.unlisted = true;
                    keptUnlisted.add(gone);
                    continue;
                }
            }
            letGo(gone);
        }
        next.addAll(keptUnlisted);
        endpoints = List.copyOf(next);
        seen = List.copyOf(providers);
        if (registry != null) {
            // addresses only: connections to new providers are being opened right now, not "disconnected"
            log.info("Providers of {}: {}", service, next.stream().map(e -> e.provider().address()
                    + (e.unlisted ? " (not listed, connected)" : "")).toList());
            if (!keptUnlisted.isEmpty()) {
                // an empty list is the classic registry failure; a shorter one is also what a graceful restart looks like
                log.atLevel(providers.isEmpty() ? Level.WARN : Level.INFO).log("Registry {} lists {} for {}; keeping {}"
                        + " connected provider(s): {}. They take calls until their connections fail or they shut down"
                        + " (registry empty-protection)", registry.address(),
                        providers.isEmpty() ? "none" : providers.size() + " provider(s)", service,
                        keptUnlisted.size(), keptUnlisted.stream().map(Endpoint::address).toList());
            }
        }
        firstList.countDown();
    }

    /** A kept provider's connection changed: let go of every kept provider whose connection is no longer ready. */
    private synchronized void letGoOfFailedKept() {
        if (closed) {
            return;
        }
        List<Endpoint> next = new ArrayList<>(endpoints.size());
        boolean changed = false;
        for (Endpoint e : endpoints) {
            if (e.unlisted && !e.connection().isConnected()) {
                changed = true;
                ConnectionState state = e.connection().state();
                if (state == ConnectionState.DRAINING) { // it said it is going away: the departure is confirmed
                    log.info("Letting go of provider {} of {}: the registry no longer lists it and it is shutting down",
                            e.address(), service);
                } else {
                    log.warn("Letting go of provider {} of {}: the registry no longer lists it and its connection is {}"
                            + " ({}); not reconnecting", e.address(), service, state, e.connection().lastError());
                }
                letGo(e);
            } else {
                next.add(e);
            }
        }
        if (changed) {
            endpoints = List.copyOf(next);
            if (next.isEmpty()) {
                log.warn("The registry {} lists no provider of {} and no connected provider remains", registry.address(),
                        service);
            }
        }
    }

    private void letGo(Endpoint gone) {
        gone.connection().removeStateListener(recheckKept);
        transport.release(gone.provider().host(), gone.provider().port());
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
        List<Endpoint> kept = endpoints.stream().filter(e -> e.unlisted).toList();
        if (seen.isEmpty() && kept.isEmpty()) {
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
        for (Endpoint e : kept) {
            sb.append(sb.length() == 0 ? "" : "; ").append(e.address())
                    .append(" (not listed by the registry; kept while connected)");
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

    /**
     * For "no provider" messages of calls: that the registry lists none and no provider it dropped is still
     * connected (registry mode with empty-protection); "" otherwise.
     */
    public String nothingKept() {
        return registry != null && keepConnected && seen.isEmpty() && endpoints.isEmpty()
                ? "; the registry lists none and no connected provider remains" : "";
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
            letGo(e);
        }
        endpoints = List.of();
    }
}
