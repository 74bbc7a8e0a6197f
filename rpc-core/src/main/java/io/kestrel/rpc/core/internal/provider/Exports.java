package io.kestrel.rpc.core.internal.provider;

import io.kestrel.rpc.core.internal.shared.StreamingCheck;
import io.kestrel.rpc.api.ServiceKey;
import io.kestrel.rpc.api.config.ApplicationConfig;
import io.kestrel.rpc.api.config.ProtocolConfig;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.api.registry.ProviderInfo;
import io.kestrel.rpc.api.security.Authenticator;
import io.kestrel.rpc.api.spi.ExtensionPoint;
import io.kestrel.rpc.api.registry.Registry;
import io.kestrel.rpc.api.serialization.Serializations;
import io.kestrel.rpc.core.ServiceView;
import io.kestrel.rpc.core.internal.shared.AdvertisedAddress;
import io.kestrel.rpc.core.internal.shared.Interceptors;
import io.kestrel.rpc.core.internal.shared.LazyRegistry;
import io.kestrel.rpc.core.internal.shared.ProcessIdentity;
import io.kestrel.rpc.core.internal.shared.SerializerCache;
import io.kestrel.rpc.core.internal.shared.ServiceFacts;
import io.kestrel.rpc.transport.RpcServer;
import io.kestrel.rpc.transport.TransportCounters;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The provider side of a runtime: the server (started by the first export), the table of exported
 * methods and the registry records of what is exported. Thread-safe.
 */
public final class Exports {
    private static final Logger log = LoggerFactory.getLogger(Exports.class);
    private static final ExtensionPoint<Authenticator> AUTHENTICATORS = ExtensionPoint.of(Authenticator.class,
            "authenticator", Authenticator::name, "Check the protocol's authenticator setting, and that the jar with"
                    + " the authenticator (listed in META-INF/services/" + Authenticator.class.getName()
                    + ") is a dependency.");

    private final ProtocolConfig protocol;
    private final SerializerCache serializers;
    private final LazyRegistry registry;
    /** Application, pid, start time and framework version, added to every provider record. */
    private final Map<String, String> identity;
    private final Interceptors interceptors;
    private final List<Exported> exported = new CopyOnWriteArrayList<>();
    private ProviderDispatcher dispatcher;
    private RpcServer server;
    /** Where the server listens and what it publishes, chosen when it starts. */
    private AdvertisedAddress address;

    /** @param application the runtime's application, or null (its name is then not published) */
    public Exports(ProtocolConfig protocol, SerializerCache serializers, LazyRegistry registry,
            ApplicationConfig application, Interceptors interceptors) {
        this.identity = ProcessIdentity.attributes(application);
        this.protocol = protocol;
        this.interceptors = interceptors;
        this.serializers = serializers;
        this.registry = registry;
    }

    /** One exported service: what was published, and how to take it back. */
    public final class Exported {
        private final ProviderInfo info;
        private final ServiceKey key;
        private volatile boolean unexported;
        private volatile boolean online = true;

        private Exported(ProviderInfo info, ServiceKey key) {
            this.info = info;
            this.key = key;
        }

        public ProviderInfo info() {
            return info;
        }

        /** Unregisters the service and stops serving new calls to it. Idempotent. */
        public void unexport() {
            if (unexported) {
                return;
            }
            unexported = true;
            Registry r = registry.ifConnected();
            if (r != null) {
                r.unregister(info);
            }
            dispatcher.remove(key);
            exported.remove(this);
        }
    }

    /** Starts the server on first use, makes the service callable and registers it. */
    public synchronized Exported export(ServiceConfig<?> config) {
        if (server == null) {
            Serializations.installed().byName(protocol.serialization()); // fail early on a bad name
            dispatcher = new ProviderDispatcher(serializers, protocol.optimizer(), protocol.compatible(),
                    protocol.serialization(), protocol.limits().discloseServices());
            address = AdvertisedAddress.forProvider(protocol, registry.config());
            server = RpcServer.start(protocol, address.bind(), dispatcher, authenticator());
        }
        StreamingCheck.check(config.interfaceClass(), protocol.name(), "export of " + config.key());
        List<Byte> accepted = dispatcher.add(config, interceptors.forService(config));
        ServiceFacts facts = ServiceFacts.of(accepted, preferredSerialization(config), protocol.compatible(),
                protocol.optimizer() == null ? null : protocol.optimizer().getName(),
                serializers.registeredClassNames(protocol.optimizer()));
        dispatcher.describe(config.key(), facts.handshakeAttributes());
        ProviderInfo info = new ProviderInfo(address.advertised(), server.port(), config.key(), accepted, config.weight(),
                ProviderDispatcher.remoteMethodNames(config.interfaceClass()), config.timeout().orElse(null))
                .withAttributes(identity).withAttributes(facts.recordAttributes());
        if (config.warmup().isPresent()) {
            info = info.withAttributes(warmupAttributes(info, config.warmup().get().toMillis()));
        }
        if (!protocol.name().equals(ProtocolConfig.KESTREL)) {
            // published where that protocol's consumers look (for dubbo: Dubbo's own ZooKeeper layout)
            info = info.withAttributes(Map.of(ProviderInfo.PROTOCOL, protocol.name())); // native consumers leave it out
        }
        if (server.requiresTls()) {
            info = info.withAttributes(Map.of(ProviderInfo.TLS, "true")); // plaintext consumers refuse it at refer
        }
        if (config.restrictsCallers() && protocol.tls() == null && protocol.authenticatorName() == null
                && protocol.authenticator() == null) {
            log.warn("Service {} admits only {}{}, but the protocol has neither TLS client certificates nor an"
                    + " authenticator: every caller is anonymous and refused. Set tls-client-auth or authenticator"
                    + " on the protocol", config.key(), config.allowedPrincipals(), config.allowedRoles().isEmpty()
                    ? "" : " and roles " + config.allowedRoles());
        }
        Registry r = registry.get();
        if (r != null) {
            r.register(info);
        }
        Exported e = new Exported(info, config.key());
        exported.add(e);
        log.info("Exported {} on {}{}; references that set none use its {}{}", config.key(), info.address(),
                r != null ? " (registered in " + r.address() + ")" : "", facts.preferred(),
                facts.optimizer() == null ? "" : " and optimizer " + facts.optimizer());
        return e;
    }

    /**
     * The serialization published as preferred: the protocol's when the service accepts it (the default),
     * else the first the service lists.
     */
    private String preferredSerialization(ServiceConfig<?> config) {
        Serializations installed = Serializations.installed();
        String protocolName = installed.byName(protocol.serialization()).name();
        if (config.serializations().isEmpty()) {
            return protocolName;
        }
        for (String name : config.serializations()) {
            if (installed.byName(name).name().equals(protocolName)) {
                return protocolName;
            }
        }
        return installed.byName(config.serializations().iterator().next()).name();
    }

    /** The warm-up and, unless the record has one already, the process's start time it counts from. */
    private static Map<String, String> warmupAttributes(ProviderInfo info, long warmupMillis) {
        Map<String, String> extra = new HashMap<>();
        extra.put(ProviderInfo.WARMUP, Long.toString(warmupMillis));
        if (info.attribute(ProviderInfo.START_TIME).isEmpty()) {
            extra.put(ProviderInfo.START_TIME, Long.toString(ManagementFactory.getRuntimeMXBean().getStartTime()));
        }
        return extra;
    }

    /**
     * Publishes ({@code online}) or unpublishes this runtime's record of {@code service}; it keeps serving either way.
     *
     * @return whether the state changed
     */
    public synchronized boolean setOnline(ServiceKey service, boolean online) {
        Exported e = exported.stream().filter(x -> x.key.equals(service)).findFirst().orElseThrow(() ->
                new IllegalArgumentException("this runtime does not export " + service + "; it exports "
                        + exported.stream().map(x -> x.key.toString()).toList()));
        if (e.online == online) {
            return false;
        }
        Registry r = registry.get();
        if (r == null) {
            throw new IllegalStateException("this runtime has no registry, so " + service + " cannot go "
                    + (online ? "online" : "offline") + " (direct mode: consumers name the address themselves)");
        }
        if (online) {
            r.register(e.info);
        } else {
            r.unregister(e.info);
        }
        e.online = online;
        log.info("{} {} in {}", service, online ? "back online: registered again" : "taken offline: unregistered"
                + " (still serving calls)", r.address());
        return true;
    }

    /** Whether the record of {@code service} is published (false when offline or not exported). */
    public boolean isOnline(ServiceKey service) {
        return exported.stream().anyMatch(x -> x.key.equals(service) && x.online);
    }

    /** Snapshots of the exported services. */
    public List<ServiceView> views() {
        return exported.stream().map(e -> new ServiceView(e.info.service().toString(), e.info.address(),
                e.info.methods(), e.info.serializationIds().stream().map(Exports::serializationName).toList(),
                e.info.weight(), e.info.attribute(ProviderInfo.WARMUP).map(Long::parseLong).orElse(0L))).toList();
    }

    private static String serializationName(byte id) {
        return Serializations.installed().byId(id).name();
    }

    /** The protocol's authenticator: its instance, or the one named, found with ServiceLoader; null for none. */
    private Authenticator authenticator() {
        if (protocol.authenticator() != null) {
            return protocol.authenticator();
        }
        return protocol.authenticatorName() == null ? null : AUTHENTICATORS.installed().get(protocol.authenticatorName());
    }

    /** The bound port, or -1 when nothing was exported yet. */
    public synchronized int port() {
        return server == null ? -1 : server.port();
    }

    /** The server's wire counters, or null when nothing was exported. */
    public synchronized TransportCounters counters() {
        return server == null ? null : server.counters();
    }

    /** Whether the server exists and takes new calls. */
    public synchronized boolean accepting() {
        return server != null && server.accepting();
    }

    /** Calls taken on by the server and not yet answered. */
    public synchronized int inFlight() {
        return server == null ? 0 : server.inFlight();
    }

    /** Streams open now on the server's connections. */
    public synchronized int openStreams() {
        return server == null ? 0 : server.openStreams();
    }

    /** Bytes held by requests in progress and unsent responses (0 when nothing was exported). */
    public synchronized long memoryInUse() {
        return server == null ? 0 : server.memoryInUse();
    }

    /** Connections refused by the connection limits. */
    public synchronized long refusedConnections() {
        return server == null ? 0 : server.refusedConnections();
    }

    /** Open consumer connections. */
    public synchronized int connections() {
        return server == null ? 0 : server.connectionCount();
    }

    /** Business threads running a call now. */
    public synchronized int businessActive() {
        return server == null ? 0 : server.businessActive();
    }

    /** Calls waiting for a business thread. */
    public synchronized int businessQueued() {
        return server == null ? 0 : server.businessQueued();
    }

    /**
     * Unregisters every service (waiting at most the registry's unregister timeout, and not at all while it is
     * unreachable), keeps serving for about a second while consumers notice, then closes the server gracefully:
     * new calls refused as not run, in-flight calls finished within the protocol's shutdown timeout.
     */
    public void close() {
        Registry r = registry.ifConnected();
        boolean unregistered = r != null && !exported.isEmpty() && unregisterAll(r);
        RpcServer s;
        synchronized (this) {
            s = server;
        }
        if (s != null) {
            if (unregistered) {
                // consumers see the unregistration within about a second; keep serving meanwhile
                pause(Duration.ofMillis(Math.min(1000, protocol.shutdownTimeout().toMillis() / 2)));
            }
            log.info("Draining: refusing new calls, finishing {} in-flight call(s) within {} ms", s.inFlight(),
                    protocol.shutdownTimeout().toMillis());
            s.closeGracefully(protocol.shutdownTimeout());
        }
    }

    /**
     * Deletes the records of every export, bounded: skipped while the registry is unreachable (the records are
     * ephemeral and end with the session, which closing the registry ends), abandoned after the unregister
     * timeout so a registry that stops answering midway never holds up the drain.
     *
     * @return whether every record was deleted
     */
    private boolean unregisterAll(Registry r) {
        if (!r.isConnected()) {
            log.warn("Registry {} is unreachable while shutting down: not unregistering {} service(s); their records"
                    + " vanish when this process's session ends. Draining now", r.address(), exported.size());
            return false;
        }
        long timeoutMs = registry.config().unregisterTimeout().toMillis();
        List<Exported> all = List.copyOf(exported);
        Thread t = new Thread(() -> all.forEach(e -> {
            try {
                r.unregister(e.info);
            } catch (RuntimeException ex) {
                log.warn("Could not unregister {}: {}", e.info, ex.toString());
            }
        }), "kestrel-unregister");
        t.setDaemon(true);
        t.start();
        try {
            t.join(timeoutMs);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (t.isAlive()) {
            log.warn("Unregistering from {} did not finish within {} ms (the registry's unregister-timeout); draining"
                    + " now. Records not deleted vanish when this process's session ends", r.address(), timeoutMs);
            return false;
        }
        log.info("Unregistered {} service(s) from the registry", all.size());
        return true;
    }

    /** Closes the server at once, as a crashed process would (tests). */
    public synchronized void crash() {
        if (server != null) {
            server.closeGracefully(Duration.ZERO);
        }
    }

    private static void pause(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
