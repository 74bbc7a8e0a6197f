package io.kestrel.rpc.core.internal;

import io.kestrel.rpc.api.ServiceKey;
import io.kestrel.rpc.api.config.ProtocolConfig;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.api.registry.ProviderInfo;
import io.kestrel.rpc.api.registry.Registry;
import io.kestrel.rpc.api.serialization.Serializations;
import io.kestrel.rpc.transport.RpcServer;
import io.kestrel.rpc.transport.TransportCounters;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The provider side of a runtime: the server (started by the first export), the table of exported
 * methods and the registry records of what is exported. Thread-safe.
 */
public final class Exports {
    private static final Logger log = LoggerFactory.getLogger(Exports.class);

    private final ProtocolConfig protocol;
    private final SerializerCache serializers;
    private final LazyRegistry registry;
    private final Interceptors interceptors;
    private final List<Exported> exported = new CopyOnWriteArrayList<>();
    private ProviderDispatcher dispatcher;
    private RpcServer server;

    public Exports(ProtocolConfig protocol, SerializerCache serializers, LazyRegistry registry, Interceptors interceptors) {
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
            server = RpcServer.start(protocol, dispatcher);
        }
        List<Byte> accepted = dispatcher.add(config, interceptors.forService(config));
        ProviderInfo info = new ProviderInfo(advertisedHost(), server.port(), config.key(), accepted, config.weight(),
                ProviderDispatcher.remoteMethodNames(config.interfaceClass()), config.timeout().orElse(null));
        Registry r = registry.get();
        if (r != null) {
            r.register(info);
        }
        Exported e = new Exported(info, config.key());
        exported.add(e);
        log.info("Exported {} on {}{}", config.key(), info.address(), r != null ? " (registered in " + r.address() + ")" : "");
        return e;
    }

    private String advertisedHost() {
        String host = protocol.advertisedHost();
        if (!host.equals("0.0.0.0") && !host.equals("::")) {
            return host;
        }
        try {
            return InetAddress.getLocalHost().getHostAddress();
        } catch (UnknownHostException e) {
            throw new IllegalStateException("protocol binds to all interfaces but this machine's address is unknown;"
                    + " set advertised-host on the protocol", e);
        }
    }

    /** The bound port, or -1 when nothing was exported yet. */
    public synchronized int port() {
        return server == null ? -1 : server.port();
    }

    /** The server's wire counters, or null when nothing was exported. */
    public synchronized TransportCounters counters() {
        return server == null ? null : server.counters();
    }

    /** Calls taken on by the server and not yet answered. */
    public synchronized int inFlight() {
        return server == null ? 0 : server.inFlight();
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
     * Unregisters every service, keeps serving for about a second while consumers notice, then
     * closes the server gracefully: new calls refused as not run, in-flight calls finished within
     * the protocol's shutdown timeout.
     */
    public void close() {
        Registry r = registry.ifConnected();
        boolean unregistered = false;
        for (Exported e : exported) {
            if (r != null) {
                try {
                    r.unregister(e.info);
                    unregistered = true;
                } catch (RuntimeException ex) {
                    log.warn("Could not unregister {}: {}", e.info, ex.toString());
                }
            }
        }
        RpcServer s;
        synchronized (this) {
            s = server;
        }
        if (s != null) {
            if (unregistered) {
                // consumers see the unregistration within about a second; keep serving meanwhile
                pause(Duration.ofMillis(Math.min(1000, protocol.shutdownTimeout().toMillis() / 2)));
            }
            s.closeGracefully(protocol.shutdownTimeout());
        }
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
