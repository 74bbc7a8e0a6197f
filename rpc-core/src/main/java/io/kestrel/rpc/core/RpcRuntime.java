package io.kestrel.rpc.core;

import io.kestrel.rpc.api.NoProviderException;
import io.kestrel.rpc.api.RegistryException;
import io.kestrel.rpc.api.ServiceKey;
import io.kestrel.rpc.api.cluster.LoadBalance;
import io.kestrel.rpc.api.config.ApplicationConfig;
import io.kestrel.rpc.api.config.ProtocolConfig;
import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.config.RegistryConfig;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.api.registry.ProviderInfo;
import io.kestrel.rpc.api.registry.Registries;
import io.kestrel.rpc.api.registry.Registry;
import io.kestrel.rpc.api.serialization.ClassAllowlist;
import io.kestrel.rpc.api.serialization.Serializations;
import io.kestrel.rpc.api.serialization.Serializer;
import io.kestrel.rpc.core.cluster.loadbalance.LoadBalances;
import io.kestrel.rpc.core.internal.ClusterInvoker;
import io.kestrel.rpc.core.internal.Directory;
import io.kestrel.rpc.core.internal.ProviderDispatcher;
import io.kestrel.rpc.core.internal.ReferenceHandler;
import io.kestrel.rpc.core.internal.SerializerCache;
import io.kestrel.rpc.transport.ClientOptions;
import io.kestrel.rpc.transport.ClientTransport;
import io.kestrel.rpc.transport.RpcServer;
import io.kestrel.rpc.transport.TransportCounters;
import java.lang.reflect.Proxy;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The entry point: exports services on the protocol's port and creates proxies for references.
 * One runtime per application is typical; it owns one server, one client transport (one connection
 * per provider address, shared by every reference), one registry connection and one deserialization
 * allowlist. Thread-safe.
 *
 * <pre>{@code
 * RpcRuntime provider = RpcRuntime.builder().protocol(ProtocolConfig.builder().port(20880).build())
 *         .registry(RegistryConfig.embedded()).build();
 * provider.export(ServiceConfig.builder(UserService.class, new UserServiceImpl()).build());
 *
 * RpcRuntime consumer = RpcRuntime.builder().registry(RegistryConfig.embedded()).build();
 * UserService users = consumer.refer(ReferenceConfig.builder(UserService.class).build());
 * }</pre>
 */
public final class RpcRuntime implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(RpcRuntime.class);

    private final ApplicationConfig application;
    private final ProtocolConfig protocol;
    private final RegistryConfig registryConfig;
    private final ClassAllowlist allowlist = ClassAllowlist.withDefaults();
    private final SerializerCache serializers;
    private final Executor callbackExecutor;
    private final List<ExporterImpl> exporters = new CopyOnWriteArrayList<>();
    private final Map<Object, ReferenceHandler> references = new ConcurrentHashMap<>();
    private final List<Directory> directories = new CopyOnWriteArrayList<>();
    private ProviderDispatcher dispatcher;
    private RpcServer server;
    private volatile ClientTransport client;
    private volatile Registry registry;
    private volatile boolean closed;

    private RpcRuntime(Builder b) {
        this.application = b.application;
        this.protocol = b.protocol;
        this.registryConfig = b.registry;
        this.callbackExecutor = b.callbackExecutor;
        ClassLoader tccl = Thread.currentThread().getContextClassLoader();
        this.serializers = new SerializerCache(allowlist, tccl != null ? tccl : RpcRuntime.class.getClassLoader());
        protocol.allowedPackages().forEach(allowlist::allowPackage);
    }

    public static Builder builder() {
        return new Builder();
    }

    public ApplicationConfig application() {
        return application;
    }

    public ProtocolConfig protocol() {
        return protocol;
    }

    /** The registry config, or null in direct-only mode. */
    public RegistryConfig registryConfig() {
        return registryConfig;
    }

    /** The deserialization allowlist shared by every serializer of this runtime. */
    public ClassAllowlist allowlist() {
        return allowlist;
    }

    /**
     * Exports a service: starts the server on the protocol's port (first export only), makes the
     * service's methods callable and registers it (when a registry is configured).
     *
     * @throws io.kestrel.rpc.api.TransportException if the port cannot be bound
     * @throws RegistryException if the registry cannot be reached
     */
    public synchronized <T> Exporter export(ServiceConfig<T> config) {
        ensureOpen();
        allowlist.trustTypesOf(config.interfaceClass());
        if (server == null) {
            Serializations.installed().byName(protocol.serialization()); // fail early on a bad name
            dispatcher = new ProviderDispatcher(serializers, protocol.optimizer(), protocol.compatible(),
                    protocol.serialization());
            server = RpcServer.start(protocol, dispatcher);
        }
        List<Byte> accepted = dispatcher.add(config);
        ProviderInfo info = new ProviderInfo(advertisedHost(), server.port(), config.key(), accepted, config.weight(),
                ProviderDispatcher.remoteMethodNames(config.interfaceClass()), config.timeout().orElse(null));
        Registry r = registry();
        if (r != null) {
            r.register(info);
        }
        ExporterImpl exporter = new ExporterImpl(info, config.key());
        exporters.add(exporter);
        log.info("Exported {} on {}{}", config.key(), info.address(), r != null ? " (registered in " + r.address() + ")" : "");
        return exporter;
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

    /** The server's bound port; throws if nothing was exported yet. */
    public synchronized int boundPort() {
        if (server == null) {
            throw new IllegalStateException("no service exported yet, so no port is bound");
        }
        return server.port();
    }

    /** The server, or null when nothing is exported. */
    public synchronized RpcServer server() {
        return server;
    }

    /**
     * Creates a proxy for a remote service. Connections to the known providers are opened now, not
     * on the first call.
     *
     * @throws NoProviderException when {@code check} is on and no provider is available
     * @throws IllegalArgumentException for an unknown serialization or load balancer name
     */
    public <T> T refer(ReferenceConfig<T> config) {
        ensureOpen();
        allowlist.trustTypesOf(config.interfaceClass());
        config.allowedPackages().forEach(allowlist::allowPackage);
        String serializationName = config.serialization() != null ? config.serialization() : protocol.serialization();
        Serializer serializer = serializers.get(serializationName,
                config.optimizer() != null ? config.optimizer() : protocol.optimizer(),
                config.compatible() || protocol.compatible());
        LoadBalance loadBalance = LoadBalances.byName(config.loadBalance());
        ClientTransport transport = client();
        ClientOptions options = ClientOptions.from(config);
        Directory directory;
        if (config.url() != null) {
            directory = Directory.direct(config.key(), config.url(), transport, options,
                    new ArrayList<>(Serializations.installed().names().values()));
        } else {
            Registry r = registry();
            if (r == null) {
                throw new IllegalArgumentException("reference " + config.key()
                        + " has no url and this runtime has no registry; set url=\"host:port\" or configure a registry");
            }
            directory = Directory.subscribe(config.key(), r, transport, options);
            try {
                directory.awaitFirstList(registryConfig.connectionTimeout().toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        directories.add(directory);
        ClusterInvoker cluster = new ClusterInvoker(config, directory, loadBalance, serializer);
        if (config.check() && directory.endpoints().stream().noneMatch(e -> e.connection().isConnected())) {
            directory.close();
            directories.remove(directory);
            String seen = directory.seen().isEmpty() ? "none" : directory.seen().stream()
                    .map(p -> p.address()).collect(Collectors.joining(", "));
            throw new NoProviderException("No provider available for " + config.key() + " at startup (from "
                    + directory.source() + "; providers seen: " + seen + (directory.seen().isEmpty() ? ""
                    : ", none reachable") + "). Start a provider first, check the interface/version/group, or set"
                    + " check=\"false\" on the reference to start anyway");
        }
        ReferenceHandler handler = new ReferenceHandler(config, cluster, transport, callbackExecutor);
        Object proxy = Proxy.newProxyInstance(proxyLoader(config.interfaceClass()),
                new Class<?>[] {config.interfaceClass()}, handler);
        references.put(proxy, handler);
        log.info("Referenced {} via {} with {} ({} providers)", config.key(), directory.source(), serializer.name(),
                directory.endpoints().size());
        return config.interfaceClass().cast(proxy);
    }

    private static ClassLoader proxyLoader(Class<?> type) {
        return type.getClassLoader() != null ? type.getClassLoader() : RpcRuntime.class.getClassLoader();
    }

    /** Counters of the bytes and frames this runtime's connections moved (client and server side). */
    public TransportStats transportStats() {
        long bw = 0;
        long br = 0;
        long fw = 0;
        long fr = 0;
        long conns = 0;
        List<TransportCounters> all = new ArrayList<>();
        if (client != null) {
            all.add(client.counters());
        }
        synchronized (this) {
            if (server != null) {
                all.add(server.counters());
            }
        }
        for (TransportCounters c : all) {
            bw += c.bytesWritten();
            br += c.bytesRead();
            fw += c.framesWritten();
            fr += c.framesRead();
            conns += c.connectionsOpened();
        }
        return new TransportStats(bw, br, fw, fr, conns);
    }

    /** The client transport (created on first use). */
    public ClientTransport client() {
        ClientTransport c = client;
        if (c == null) {
            synchronized (this) {
                c = client;
                if (c == null) {
                    c = new ClientTransport(Math.max(1, Math.min(2, Runtime.getRuntime().availableProcessors())), allowlist);
                    client = c;
                }
            }
        }
        return c;
    }

    /** The registry, connected on first use; null when none is configured. */
    public Registry registry() {
        if (registryConfig == null) {
            return null;
        }
        Registry r = registry;
        if (r == null) {
            synchronized (this) {
                r = registry;
                if (r == null) {
                    r = Registries.create(registryConfig);
                    registry = r;
                }
            }
        }
        return r;
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("this RpcRuntime is closed");
        }
    }

    /**
     * Shuts down in the safe order: unregister every service (and give consumers a moment to see
     * it), refuse new calls, finish in-flight calls within the protocol's shutdown timeout, close the
     * server, then the client connections and the registry.
     */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        Registry r = registry;
        boolean unregistered = false;
        for (ExporterImpl e : exporters) {
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
        directories.forEach(Directory::close);
        ClientTransport c = client;
        if (c != null) {
            c.close();
        }
        if (r != null) {
            r.close();
        }
        log.info("RpcRuntime{} closed", application != null ? " of " + application.name() : "");
    }

    private static void pause(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private final class ExporterImpl implements Exporter {
        private final ProviderInfo info;
        private final ServiceKey key;
        private volatile boolean unexported;

        ExporterImpl(ProviderInfo info, ServiceKey key) {
            this.info = info;
            this.key = key;
        }

        @Override
        public ProviderInfo provider() {
            return info;
        }

        @Override
        public void unexport() {
            if (unexported) {
                return;
            }
            unexported = true;
            Registry r = registry;
            if (r != null) {
                r.unregister(info);
            }
            dispatcher.remove(key);
            exporters.remove(this);
        }
    }

    public static final class Builder {
        private ApplicationConfig application;
        private ProtocolConfig protocol = ProtocolConfig.builder().build();
        private RegistryConfig registry;
        private Executor callbackExecutor = ForkJoinPool.commonPool();

        private Builder() {
        }

        public Builder application(ApplicationConfig application) {
            this.application = application;
            return this;
        }

        /** Default: {@code ProtocolConfig.builder().build()} (port 20880, kryo). */
        public Builder protocol(ProtocolConfig protocol) {
            this.protocol = Objects.requireNonNull(protocol, "protocol");
            return this;
        }

        /** Default: none (direct mode only). {@link RegistryConfig#embedded()} starts an in-process ZooKeeper. */
        public Builder registry(RegistryConfig registry) {
            this.registry = registry;
            return this;
        }

        /** Where futures returned by async methods complete. Default: the common fork-join pool. */
        public Builder callbackExecutor(Executor executor) {
            this.callbackExecutor = Objects.requireNonNull(executor, "callbackExecutor");
            return this;
        }

        public RpcRuntime build() {
            return new RpcRuntime(this);
        }
    }
}
