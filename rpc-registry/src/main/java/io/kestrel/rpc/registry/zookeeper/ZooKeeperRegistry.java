package io.kestrel.rpc.registry.zookeeper;

import io.kestrel.rpc.api.RegistryException;
import io.kestrel.rpc.api.ServiceKey;
import io.kestrel.rpc.api.config.RegistryConfig;
import io.kestrel.rpc.api.registry.ConsumerInfo;
import io.kestrel.rpc.api.registry.ProviderInfo;
import io.kestrel.rpc.api.registry.ProviderListener;
import io.kestrel.rpc.api.registry.Registry;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.state.ConnectionState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link Registry} on ZooKeeper through Apache Curator. Thread-safe. Create it with
 * {@link io.kestrel.rpc.api.registry.Registries#create} (or the {@link ZooKeeperRegistryFactory} /
 * {@link EmbeddedRegistryFactory}).
 *
 * <p><b>Layout.</b> Each registered provider is an EPHEMERAL node
 * {@code <root>/<interface>[/<group>:<version>]/providers/<URL-encoded ProviderInfo.toUrl()>}, holding the
 * unencoded record as UTF-8 data; each recorded consumer likewise under {@code .../consumers/}
 * ({@link ConsumerRecords}). The {@code <group>:<version>} segment is left out when both are empty.
 * Parent folders are ZooKeeper container nodes, removed by the server once empty.
 *
 * <p><b>Registration</b> uses Curator's PersistentNode ({@link RecordNode}, kept by {@link ProviderNodes}): after a session expiry the node is created
 * again in the new session without help. {@link #close()} deletes this instance's nodes while ZooKeeper is
 * reachable; otherwise they vanish with the session.
 *
 * <p><b>Subscriptions</b> use one {@link CuratorCache} per service on its providers folder
 * ({@link ServiceWatch}), shared by all listeners of that service in this instance. Changes are
 * coalesced for {@value #NOTIFY_DELAY_MS} ms and each listener is told the full list on a single
 * notification thread, only when it differs from what that listener was last told. While the
 * connection is suspended or lost nothing is told, so consumers keep the last known list; only
 * deletions seen on a live connection (a provider that unregistered or whose session ended) shrink it.
 * After every reconnect each folder is read again with a new cache before anything is told, so the list
 * converges to what ZooKeeper holds even when the server came back empty or was replaced ({@link ServiceWatch}).
 * Child nodes that are not provider records are logged at WARN once and skipped.
 *
 * <p><b>On the embedded ZooKeeper</b> the client is a member ({@link EmbeddedRegistryProvider.Member}): it
 * authenticates with the server's credentials, creates every node closed to non-members, connects only to a server
 * that proves itself, and the constructor checks that proof again before anything is registered or read.
 */
public final class ZooKeeperRegistry implements Registry {
    private static final Logger log = LoggerFactory.getLogger(ZooKeeperRegistry.class);

    /** How long changes are gathered before listeners are told. */
    static final long NOTIFY_DELAY_MS = 100;

    private final RegistryConfig config;
    private final String connectString;
    private final EmbeddedRegistryProvider.Member lease;
    private final CuratorFramework client;
    private final ServiceWatches watches;
    private final ProviderNodes providers;
    private final ConsumerRecords consumers;
    private final RegistrationLog registrationLog;
    private final AtomicBoolean closed = new AtomicBoolean();

    /**
     * Connects and waits up to {@link RegistryConfig#connectionTimeout()} for the first connection.
     *
     * @param connectString ZooKeeper's "host:port[,host:port...]"
     * @param lease the embedded ZooKeeper this registry uses, released after the client is closed; null otherwise
     * @throws RegistryException if ZooKeeper cannot be reached in time
     */
    ZooKeeperRegistry(RegistryConfig config, String connectString, EmbeddedRegistryProvider.Member lease) {
        this.config = Objects.requireNonNull(config, "config");
        this.connectString = Objects.requireNonNull(connectString, "connectString");
        this.lease = lease;
        this.registrationLog = new RegistrationLog(config.address(), config.sessionTimeout().toMillis());
        this.watches = new ServiceWatches(this::curator, config.root(), config.dubboRoot(), config.address(),
                config.connectionTimeout().toMillis(), this::isConnected);
        this.providers = new ProviderNodes(this::curator, config, registrationLog, this::isConnected);
        CuratorFramework c;
        try {
            c = CuratorConnect.connect(config, connectString, lease, (cf, state) -> connectionStateChanged(state),
                    registrationLog::backgroundError);
        } catch (RuntimeException e) {
            watches.shutdownNotifier();
            closeQuietly(lease);
            throw e;
        }
        this.client = c;
        this.consumers = new ConsumerRecords(c, config.root(), config.dubboRoot(), config.address(),
                config.connectionTimeout().toMillis());
        if (lease != null) {
            lease.renewSessionsOf(client, config.address(), closed::get);
        }
        log.info("Registry connected to ZooKeeper {} ({}), root {}, session timeout {} ms",
                config.address(), connectString, config.root(), config.sessionTimeout().toMillis());
    }

    @Override
    public String address() {
        return config.address();
    }

    /** The ZooKeeper connect string in use, e.g. "127.0.0.1:2181" (for the embedded server, its real address). */
    public String connectString() {
        return connectString;
    }

    /** Whether the client is connected to ZooKeeper right now. */
    @Override
    public boolean isConnected() {
        return !closed.get() && client.getZookeeperClient().isConnected();
    }

    /**
     * {@inheritDoc}
     *
     * <p>Waits up to {@link RegistryConfig#connectionTimeout()} for the node to be created. Registering the
     * same provider twice is a no-op.
     *
     * @throws RegistryException if the node could not be created in time (nothing stays registered then)
     */
    @Override
    public void register(ProviderInfo provider) {
        Objects.requireNonNull(provider, "provider");
        ensureOpen();
        providers.register(provider);
    }

    @Override
    public void unregister(ProviderInfo provider) {
        Objects.requireNonNull(provider, "provider");
        providers.unregister(provider);
    }

    /**
     * {@inheritDoc}
     *
     * <p>When this returns normally the listener has already been told the current list, unless ZooKeeper did
     * not answer within {@link RegistryConfig#connectionTimeout()} (logged at WARN; it is told once ZooKeeper
     * answers). Subscribing from inside a listener does not wait. Subscribing the same listener twice tells
     * it twice.
     */
    @Override
    public void subscribe(ServiceKey service, ProviderListener listener) {
        subscribe(service, ProviderInfo.NATIVE_PROTOCOL, listener);
    }

    /**
     * {@inheritDoc}
     *
     * <p>Protocols: the native one, and "dubbo", read from Dubbo's layout (see {@link DubboUrls} for which records
     * are providers of {@code service}). Waits like {@link #subscribe(ServiceKey, ProviderListener)}.
     */
    @Override
    public void subscribe(ServiceKey service, String protocol, ProviderListener listener) {
        Objects.requireNonNull(service, "service");
        Objects.requireNonNull(listener, "listener");
        if (!ProviderInfo.NATIVE_PROTOCOL.equals(protocol) && !isDubbo(protocol)) {
            throw new UnsupportedOperationException("The ZooKeeper registry " + config.address()
                    + " lists providers of the protocols " + ProviderInfo.NATIVE_PROTOCOL + " and " + DubboUrls.SCHEME
                    + ", not '" + protocol + "'");
        }
        ensureOpen();
        watches.subscribe(service, protocol, listener);
    }

    @Override
    public void unsubscribe(ServiceKey service, ProviderListener listener) {
        unsubscribe(service, ProviderInfo.NATIVE_PROTOCOL, listener);
    }

    @Override
    public void unsubscribe(ServiceKey service, String protocol, ProviderListener listener) {
        watches.unsubscribe(service, protocol, listener);
    }

    @Override
    public void registerConsumer(ConsumerInfo consumer) {
        Objects.requireNonNull(consumer, "consumer");
        ensureOpen();
        consumers.register(consumer);
    }

    @Override
    public void unregisterConsumer(ConsumerInfo consumer) {
        Objects.requireNonNull(consumer, "consumer");
        consumers.unregister(consumer);
    }

    /** {@inheritDoc} Reads {@code <service>/consumers} now; records that do not parse are skipped. */
    @Override
    public List<ConsumerInfo> consumers(ServiceKey service) {
        Objects.requireNonNull(service, "service");
        ensureOpen();
        return consumers.read(service);
    }

    /**
     * Stops subscriptions, deletes this instance's provider nodes (when ZooKeeper is reachable; otherwise
     * they vanish when the session ends), closes the client and, for an embedded registry, releases the
     * embedded server. Idempotent.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        watches.close();
        providers.closeAll();
        consumers.closeAll();
        client.close();
        closeQuietly(lease);
        log.info("Registry {} closed", config.address());
    }

    @Override
    public List<ServiceKey> registeredVersions(String interfaceName) {
        if (closed.get() || !isConnected()) {
            return List.of();
        }
        String path = ZooKeeperPaths.interfacePath(config.root(), interfaceName);
        List<ServiceKey> keys = new ArrayList<>();
        try {
            if (client.checkExists().forPath(path) == null) {
                return List.of();
            }
            for (String child : client.getChildren().forPath(path)) {
                ServiceKey key = ZooKeeperPaths.keyOfChild(interfaceName, child);
                if (key == null) {
                    continue;
                }
                String providers = ZooKeeperPaths.providersPath(config.root(), key);
                org.apache.zookeeper.data.Stat stat = client.checkExists().forPath(providers);
                if (stat != null && stat.getNumChildren() > 0) {
                    keys.add(key);
                }
            }
        } catch (Exception e) {
            log.debug("Cannot list the versions of {} in ZooKeeper {}: {}", interfaceName, config.address(), e.toString());
            return List.of();
        }
        keys.sort(Comparator.comparing(ServiceKey::toString));
        return keys;
    }

    // ---- package-private hooks for tests ----

    CuratorFramework curator() {
        return client;
    }

    /** The list last told to listeners of {@code service}, or null if none was told yet. */
    List<ProviderInfo> lastToldProviders(ServiceKey service) {
        return watches.lastTold(service);
    }

    // ---- internals ----

    static boolean isDubbo(String protocol) {
        return DubboUrls.SCHEME.equals(protocol);
    }

    private void ensureOpen() {
        if (closed.get()) {
            throw new IllegalStateException("Registry " + config.address() + " is closed");
        }
    }

    private void connectionStateChanged(ConnectionState state) {
        switch (state) {
            case CONNECTED, RECONNECTED -> {
                if (state == ConnectionState.CONNECTED) {
                    log.debug("ZooKeeper {} connected", config.address()); // the constructor logs the one line
                } else {
                    log.info("ZooKeeper {} reconnected; re-checking providers", config.address());
                }
                List<ServiceWatch> all = watches.all();
                // after a reconnect, read every folder afresh: the server may be a new one (empty, rebuilt,
                // an embedded one taken over) whose folders look unchanged to the old caches
                all.forEach(state == ConnectionState.CONNECTED ? ServiceWatch::schedulePublish : ServiceWatch::rebuild);
            }
            case SUSPENDED -> {
                providers.suspended();
                if (lease != null) {
                    lease.connectionLost();
                }
            }
            case LOST -> {
                providers.lost();
                if (lease != null) {
                    lease.connectionLost();
                }
            }
            case READ_ONLY -> log.warn("ZooKeeper {} is read-only", config.address());
            default -> log.debug("ZooKeeper {} state {}", config.address(), state);
        }
    }

    private static void closeQuietly(AutoCloseable c) {
        if (c == null) {
            return;
        }
        try {
            c.close();
        } catch (Exception e) {
            log.warn("Could not release {}", c, e);
        }
    }

}
