package io.kestrel.rpc.registry.zookeeper;

import io.kestrel.rpc.api.RegistryException;
import io.kestrel.rpc.api.ServiceKey;
import io.kestrel.rpc.api.config.RegistryConfig;
import io.kestrel.rpc.api.registry.ConsumerInfo;
import io.kestrel.rpc.api.registry.ProviderInfo;
import io.kestrel.rpc.api.registry.ProviderListener;
import io.kestrel.rpc.api.registry.Registry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.nodes.PersistentNode;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.retry.BoundedExponentialBackoffRetry;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.CreateMode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link Registry} on ZooKeeper through Apache Curator. Thread-safe. Create it with
 * {@link io.kestrel.rpc.registry.Registries#create} (or the {@link ZooKeeperRegistryFactory} /
 * {@link EmbeddedRegistryFactory}).
 *
 * <p><b>Layout.</b> Each registered provider is an EPHEMERAL node
 * {@code <root>/<interface>[/<group>:<version>]/providers/<URL-encoded ProviderInfo.toUrl()>}, holding the
 * unencoded record as UTF-8 data; each recorded consumer likewise under {@code .../consumers/}
 * ({@link ConsumerRecords}). The {@code <group>:<version>} segment is left out when both are empty.
 * Parent folders are ZooKeeper container nodes, removed by the server once empty.
 *
 * <p><b>Registration</b> uses Curator's {@link PersistentNode}: after a session expiry the node is created
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
 * <p><b>On the embedded ZooKeeper</b> the client is a member ({@link EmbeddedAccess}): it authenticates with the
 * server's credentials, creates every node closed to non-members, connects only to a server that proves itself
 * ({@link EmbeddedHostProvider}), and the constructor checks that proof again before anything is registered or read.
 */
public final class ZooKeeperRegistry implements Registry {
    private static final Logger log = LoggerFactory.getLogger(ZooKeeperRegistry.class);

    /** How long changes are gathered before listeners are told. */
    static final long NOTIFY_DELAY_MS = 100;
    private static final int RETRY_BASE_SLEEP_MS = 100;
    private static final int RETRY_MAX_SLEEP_MS = 3_000;
    private static final int RETRY_MAX_RETRIES = 10;

    private final RegistryConfig config;
    private final String connectString;
    private final EmbeddedZooKeeper.Lease lease;
    private final CuratorFramework client;
    private final ScheduledExecutorService notifier;
    private volatile Thread notifierThread;
    private final ConcurrentMap<String, ProviderNode> registered = new ConcurrentHashMap<>();
    private final ConsumerRecords consumers;
    /** Guarded by itself. */
    private final Map<WatchKey, ServiceWatch> watches = new LinkedHashMap<>();
    private final AtomicBoolean closed = new AtomicBoolean();
    /** System.nanoTime() of the last session reset (embedded take-over); recovery thread only. */
    private long lastSessionReset = System.nanoTime() - TimeUnit.HOURS.toNanos(1);
    /** Embedded: the credentials the client's current ZooKeeper handle authenticated with. */
    private volatile EmbeddedCredentials handleCredentials;
    /** How long a client gets to reconnect by itself before it is given a new session. */
    private static final int RECONNECT_GRACE_MS = 1_500;
    /** Resets closer together than this are the echo of the previous one. */
    private static final long RESET_INTERVAL_MS = 10_000;

    /**
     * Connects and waits up to {@link RegistryConfig#connectionTimeout()} for the first connection.
     *
     * @param connectString ZooKeeper's "host:port[,host:port...]"
     * @param lease the embedded ZooKeeper this registry uses, released after the client is closed; null otherwise
     * @throws RegistryException if ZooKeeper cannot be reached in time
     */
    ZooKeeperRegistry(RegistryConfig config, String connectString, EmbeddedZooKeeper.Lease lease) {
        this.config = Objects.requireNonNull(config, "config");
        this.connectString = Objects.requireNonNull(connectString, "connectString");
        this.lease = lease;
        this.notifier = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "kestrel-registry-notify");
            t.setDaemon(true);
            notifierThread = t;
            return t;
        });
        long connectMs = config.connectionTimeout().toMillis();
        CuratorFramework c = null;
        try {
            CuratorFrameworkFactory.Builder builder = CuratorFrameworkFactory.builder();
            if (lease != null) { // members only: authenticated, and every node closed to others
                builder.zookeeperFactory(EmbeddedAccess.zookeeperFactory(() -> {
                    handleCredentials = lease.credentials();
                    return handleCredentials;
                })).aclProvider(EmbeddedAccess.ACLS);
            }
            c = builder
                    .connectString(connectString)
                    .sessionTimeoutMs(toIntMillis(config.sessionTimeout()))
                    // Curator's own per-attempt wait; above the session timeout it only delays recovery.
                    .connectionTimeoutMs(toIntMillis(min(config.connectionTimeout(), config.sessionTimeout())))
                    .retryPolicy(new BoundedExponentialBackoffRetry(
                            RETRY_BASE_SLEEP_MS, RETRY_MAX_SLEEP_MS, RETRY_MAX_RETRIES))
                    // Keep the addresses as configured; the tracker would replace them with the
                    // servers' own view of their host names.
                    .ensembleTracker(false)
                    .build();
            c.getConnectionStateListenable().addListener((cf, state) -> connectionStateChanged(state));
            c.getUnhandledErrorListenable().addListener((message, e) ->
                    log.warn("ZooKeeper registry {}: {}", config.address(), message, e));
            c.start();
            if (!c.blockUntilConnected((int) Math.min(connectMs, Integer.MAX_VALUE), TimeUnit.MILLISECONDS)) {
                throw new RegistryException(String.format(
                        "Could not connect to ZooKeeper at %s (%s) within %d ms; check that ZooKeeper is running "
                                + "there and reachable from this host (host names, ports, firewall), or raise the "
                                + "registry's connection-timeout (<rpc:registry connection-timeout=\"30s\"/>, "
                                + "rpc.registry.connection-timeout, RegistryConfig.Builder.connectionTimeout)",
                        config.address(), connectString, connectMs));
            }
            if (lease != null) {
                lease.verify(c); // before anything is registered or read
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            cleanUpAfterFailedStart(c);
            throw new RegistryException("Interrupted while connecting to ZooKeeper at " + config.address(), e);
        } catch (RegistryException e) {
            cleanUpAfterFailedStart(c);
            throw e;
        } catch (RuntimeException e) {
            cleanUpAfterFailedStart(c);
            throw new RegistryException(String.format(
                    "Could not start a ZooKeeper client for %s (%s): %s; check the address (host:port[,host:port...])",
                    config.address(), connectString, e.getMessage()), e);
        }
        this.client = c;
        this.consumers = new ConsumerRecords(c, config.root(), config.dubboRoot(), config.address(), connectMs);
        if (lease != null) {
            lease.onServerReplaced(this::startNewSession);
        }
        log.info("Registry connected to ZooKeeper {} ({}), root {}, session timeout {} ms",
                config.address(), connectString, config.root(), config.sessionTimeout().toMillis());
    }

    private void cleanUpAfterFailedStart(CuratorFramework c) {
        if (c != null) {
            c.close();
        }
        notifier.shutdownNow();
        closeQuietly(lease);
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
        String path = ZooKeeperPaths.providerPath(config.root(), config.dubboRoot(), provider);
        ProviderNode node = new ProviderNode(path, ZooKeeperPaths.providerData(provider).getBytes(StandardCharsets.UTF_8));
        if (registered.putIfAbsent(path, node) != null) {
            log.debug("Provider {} is already registered in {}", provider, config.address());
            return;
        }
        if (isDubbo(provider.protocol())) {
            DubboFolders.ensure(client, ZKPaths.getPathAndNode(path).getPath(), config.address());
        }
        node.start();
        boolean created;
        try {
            created = node.waitForInitialCreate(config.connectionTimeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            created = false;
        }
        if (!created) {
            registered.remove(path, node);
            closeNode(node, provider.toString());
            throw new RegistryException(String.format(
                    "Could not register provider %s in ZooKeeper %s within %d ms (connected: %s); check that "
                            + "ZooKeeper is reachable and retry",
                    provider, config.address(), config.connectionTimeout().toMillis(), isConnected()));
        }
        log.info("Registered provider {} in {} at {}", provider, config.address(), path);
    }

    @Override
    public void unregister(ProviderInfo provider) {
        Objects.requireNonNull(provider, "provider");
        ProviderNode node = registered.remove(ZooKeeperPaths.providerPath(config.root(), config.dubboRoot(), provider));
        if (node != null) {
            closeNode(node, provider.toString());
            log.info("Unregistered provider {} from {}", provider, config.address());
        }
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
        ServiceWatch.Subscriber subscriber = new ServiceWatch.Subscriber(listener);
        ServiceWatch watch;
        synchronized (watches) {
            watch = watches.computeIfAbsent(new WatchKey(service, protocol), this::watch);
            watch.subscribers.add(subscriber);
        }
        runOnNotifier(() -> watch.tellCurrent(subscriber));
        if (Thread.currentThread() == notifierThread) {
            return;
        }
        try {
            if (!subscriber.told.await(config.connectionTimeout().toMillis(), TimeUnit.MILLISECONDS)) {
                log.warn("No provider list for {} from ZooKeeper {} after {} ms (connected: {}); the listener will "
                        + "be told once ZooKeeper answers", service, config.address(),
                        config.connectionTimeout().toMillis(), isConnected());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void unsubscribe(ServiceKey service, ProviderListener listener) {
        unsubscribe(service, ProviderInfo.NATIVE_PROTOCOL, listener);
    }

    @Override
    public void unsubscribe(ServiceKey service, String protocol, ProviderListener listener) {
        ServiceWatch toClose = null;
        WatchKey key = new WatchKey(service, protocol);
        synchronized (watches) {
            ServiceWatch watch = watches.get(key);
            if (watch == null) {
                return;
            }
            watch.subscribers.removeIf(s -> s.listener == listener);
            if (watch.subscribers.isEmpty()) {
                watches.remove(key);
                toClose = watch;
            }
        }
        if (toClose != null) {
            toClose.close();
        }
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
        List<ServiceWatch> toClose;
        synchronized (watches) {
            toClose = new ArrayList<>(watches.values());
            watches.clear();
        }
        toClose.forEach(ServiceWatch::close);
        if (!isConnected() && !registered.isEmpty()) {
            log.warn("ZooKeeper {} is unreachable while closing; {} provider node(s) will disappear when the "
                    + "session times out ({} ms)", config.address(), registered.size(),
                    config.sessionTimeout().toMillis());
        }
        for (Map.Entry<String, ProviderNode> e : registered.entrySet()) {
            e.getValue().closing = true;
            closeNode(e.getValue(), e.getKey());
        }
        registered.clear();
        consumers.closeAll(isConnected());
        client.close();
        notifier.shutdownNow();
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

    /** Starts following what {@code key} names (under the lock of {@link #watches}). */
    private ServiceWatch watch(WatchKey key) {
        boolean dubbo = isDubbo(key.protocol());
        String path = dubbo ? ZooKeeperPaths.dubboProvidersPath(config.dubboRoot(), key.service().interfaceName())
                : ZooKeeperPaths.providersPath(config.root(), key.service());
        return new ServiceWatch(key.service(), dubbo, path, client, config.address(), notifier, this::isConnected);
    }

    /** The list last told to listeners of {@code service}, or null if none was told yet. */
    List<ProviderInfo> lastToldProviders(ServiceKey service) {
        ServiceWatch watch;
        synchronized (watches) {
            watch = watches.get(new WatchKey(service, ProviderInfo.NATIVE_PROTOCOL));
        }
        return watch == null ? null : watch.current;
    }

    // ---- internals ----

    private static boolean isDubbo(String protocol) {
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
                List<ServiceWatch> all;
                synchronized (watches) {
                    all = new ArrayList<>(watches.values());
                }
                // after a reconnect, read every folder afresh: the server may be a new one (empty, rebuilt,
                // an embedded one taken over) whose folders look unchanged to the old caches
                all.forEach(state == ConnectionState.CONNECTED ? ServiceWatch::schedulePublish : ServiceWatch::rebuild);
            }
            case SUSPENDED -> {
                log.warn("ZooKeeper {} connection suspended; keeping the last known providers", config.address());
                if (lease != null) {
                    lease.connectionLost();
                }
            }
            case LOST -> {
                log.warn("ZooKeeper {} session lost; keeping the last known providers and re-registering "
                        + "once reconnected", config.address());
                if (lease != null) {
                    lease.connectionLost();
                }
            }
            case READ_ONLY -> log.warn("ZooKeeper {} is read-only", config.address());
            default -> log.debug("ZooKeeper {} state {}", config.address(), state);
        }
    }

    /**
     * The embedded ZooKeeper was replaced by a new server (its host ended): the old session is unknown there
     * and the client may refuse the new server's younger transaction ids, so start over with a new session.
     * Registered nodes are created again and watches set again by Curator on the new session.
     */
    private void startNewSession() {
        if (closed.get()) {
            return;
        }
        try {
            // The same server came back (a pause, not a new host): the client reconnects by itself.
            if (client.blockUntilConnected(RECONNECT_GRACE_MS, TimeUnit.MILLISECONDS)
                    && handleCredentials == lease.credentials()) {
                return;
            }
            long now = System.nanoTime();
            if (now - lastSessionReset < TimeUnit.MILLISECONDS.toNanos(RESET_INTERVAL_MS)) {
                return; // the last reset is still connecting; closing its handle raised this event
            }
            lastSessionReset = now;
            log.info("Starting a new ZooKeeper session on {} (the embedded ZooKeeper was replaced)", config.address());
            client.getZookeeperClient().reset();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            log.warn("Could not start a new ZooKeeper session on {}: {}", config.address(), e.toString());
        }
    }

    private void runOnNotifier(Runnable task) {
        try {
            notifier.execute(task);
        } catch (RejectedExecutionException e) {
            log.debug("Registry {} closed; dropping a notification", config.address());
        }
    }

    private void closeNode(ProviderNode node, String what) {
        try {
            node.close();
        } catch (IOException | RuntimeException e) {
            log.warn("Could not delete provider node {} in {}; it disappears when the session ends",
                    what, config.address(), e);
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

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    private static int toIntMillis(Duration d) {
        return (int) Math.min(d.toMillis(), Integer.MAX_VALUE);
    }

    /**
     * The provider's ephemeral node. On {@link #close()} (closing the registry) while ZooKeeper is unreachable
     * it skips the delete, which would block through every retry; closing the client ends the session and
     * the server removes the node then. {@link #unregister} always deletes (Curator's guaranteed delete).
     */
    private final class ProviderNode extends PersistentNode {
        volatile boolean closing;

        ProviderNode(String path, byte[] data) {
            super(client, CreateMode.EPHEMERAL, false, path, data);
        }

        @Override
        protected void deleteNode() throws Exception {
            if (closing && !isConnected()) {
                return;
            }
            super.deleteNode();
        }
    }

    /** What a watch follows: one service's providers on one protocol. */
    private record WatchKey(ServiceKey service, String protocol) {
    }
}
