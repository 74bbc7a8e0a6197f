package io.kestrel.rpc.core;

import io.kestrel.rpc.api.NoProviderException;
import io.kestrel.rpc.api.RegistryException;
import io.kestrel.rpc.api.ServiceKey;
import io.kestrel.rpc.api.config.ApplicationConfig;
import io.kestrel.rpc.api.config.ClientConfig;
import io.kestrel.rpc.api.config.ConsoleConfig;
import io.kestrel.rpc.api.config.ProtocolConfig;
import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.config.RegistryConfig;
import io.kestrel.rpc.api.registry.Registry;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.api.generic.ServiceMetadata;
import io.kestrel.rpc.api.registry.ConsumerInfo;
import io.kestrel.rpc.api.interceptor.ClientInterceptor;
import io.kestrel.rpc.api.interceptor.ServerInterceptor;
import io.kestrel.rpc.api.registry.ProviderInfo;
import io.kestrel.rpc.api.serialization.ClassAllowlist;
import io.kestrel.rpc.core.internal.consumer.CallbackPool;
import io.kestrel.rpc.core.internal.shared.Consoles;
import io.kestrel.rpc.core.internal.provider.Exports;
import io.kestrel.rpc.core.internal.shared.Interceptors;
import io.kestrel.rpc.core.internal.shared.LazyRegistry;
import io.kestrel.rpc.core.internal.consumer.MetadataClient;
import io.kestrel.rpc.core.internal.consumer.References;
import io.kestrel.rpc.core.internal.shared.SerializerCache;
import io.kestrel.rpc.transport.Connection;
import io.kestrel.rpc.transport.TransportCounters;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The entry point: exports services on the protocol's port and creates proxies for references. A
 * facade over the provider side (server, exported methods, registrations), the consumer side (one
 * connection per provider address shared by every reference, directories, proxies) and what both
 * share (the registry connection and the deserialization allowlist). One runtime per application is
 * typical. What it exposes besides export and refer are read-only figures. Thread-safe.
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
    /** System property that turns the access log on for every runtime ({@link Builder#accessLog}). */
    public static final String ACCESS_LOG_PROPERTY = "kestrel.rpc.accessLog";

    private final ApplicationConfig application;
    private final ProtocolConfig protocol;
    private final ClientConfig client;
    private final ClassAllowlist allowlist = ClassAllowlist.withDefaults();
    private final LazyRegistry registry;
    private final Exports exports;
    private final References references;
    private final ForkJoinPool ownCallbacks; // null when the application gave a callback executor
    private final RuntimeConsole console;
    private final MetadataClient metadata;
    private volatile boolean closed;

    private RpcRuntime(Builder b) {
        this.application = b.application;
        this.protocol = b.protocol;
        this.client = b.client;
        this.registry = new LazyRegistry(b.registry);
        ClassLoader tccl = Thread.currentThread().getContextClassLoader();
        SerializerCache serializers = new SerializerCache(allowlist, tccl != null ? tccl : RpcRuntime.class.getClassLoader());
        protocol.allowedPackages().forEach(allowlist::allowPackage);
        List<ClientInterceptor> clientInterceptors = new ArrayList<>(b.clientInterceptors);
        List<ServerInterceptor> serverInterceptors = new ArrayList<>(b.serverInterceptors);
        if (b.loadInterceptors) {
            clientInterceptors.addAll(Interceptors.loaded(ClientInterceptor.class));
            serverInterceptors.addAll(Interceptors.loaded(ServerInterceptor.class));
        }
        this.console = Consoles.create(b.console);
        if (console != null) {
            clientInterceptors.add(console.clientInterceptor());
            serverInterceptors.add(console.serverInterceptor());
        }
        Interceptors interceptors = new Interceptors(clientInterceptors, serverInterceptors,
                b.accessLog || Boolean.getBoolean(ACCESS_LOG_PROPERTY));
        this.exports = new Exports(protocol, serializers, registry, application, interceptors);
        this.ownCallbacks = b.callbackExecutor == null ? CallbackPool.create() : null;
        this.references = new References(client, protocol, serializers, registry,
                b.callbackExecutor != null ? b.callbackExecutor : ownCallbacks, application, interceptors);
        this.metadata = new MetadataClient(references, this::providers);
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

    /** The settings of this runtime's connections to providers. */
    public ClientConfig clientConfig() {
        return client;
    }

    /** The registry config, or null in direct-only mode. */
    public RegistryConfig registryConfig() {
        return registry.config();
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
        Exports.Exported exported = exports.export(config);
        return new Exporter() {
            @Override
            public ProviderInfo provider() {
                return exported.info();
            }

            @Override
            public void unexport() {
                exported.unexport();
            }
        };
    }

    /** The server's bound port; throws if nothing was exported yet. */
    public int boundPort() {
        int port = exports.port();
        if (port < 0) {
            throw new IllegalStateException("no service exported yet, so no port is bound");
        }
        return port;
    }

    /**
     * Creates a proxy for a remote service. Connections to the known providers are opened now, not
     * on the first call.
     *
     * @throws NoProviderException when {@code check} is on and no provider is available
     * @throws IllegalArgumentException for an unknown serialization or load balancer name, or
     *     connection settings that disagree with another reference of this runtime
     */
    public <T> T refer(ReferenceConfig<T> config) {
        ensureOpen();
        return references.refer(config);
    }

    /**
     * The metadata of {@code service} as one of its providers in the registry describes it (methods with parameter
     * and return types, parameter names when compiled with {@code -parameters}, beans and enums reached,
     * serializations accepted). Asked once per provider address and cached; the interface class is not needed.
     *
     * @throws IllegalStateException if this runtime has no registry (use {@link #metadata(ServiceKey, String)})
     * @throws NoProviderException when no provider of the service is registered
     */
    public ServiceMetadata metadata(ServiceKey service) {
        ensureOpen();
        return metadata.of(service);
    }

    /**
     * The metadata of {@code service} as the provider at {@code address} ("host:port") describes it, asked directly
     * (no registry needed) once and cached per address.
     *
     * @throws io.kestrel.rpc.api.ServiceNotFoundException when that provider does not export the service
     */
    public ServiceMetadata metadata(ServiceKey service, String address) {
        ensureOpen();
        return metadata.of(service, address);
    }

    /**
     * Who calls a service: the consumers recorded in the registry for {@code service} (each process that refers
     * it, with host, application, pid, start time and framework version), read now. Connects to the registry if
     * needed.
     *
     * @throws IllegalStateException if this runtime has no registry (direct mode only)
     * @throws UnsupportedOperationException if the registry does not record consumers
     * @throws RegistryException if the registry cannot be read
     */
    public List<ConsumerInfo> consumers(ServiceKey service) {
        ensureOpen();
        Registry r = registry.get();
        if (r == null) {
            throw new IllegalStateException("this RpcRuntime has no registry, so no consumer records; configure one "
                    + "(RpcRuntime.builder().registry(...))");
        }
        return r.consumers(service);
    }

    /**
     * Who provides a service: the provider records in the registry for {@code service} now (address, accepted
     * serializations, methods, and application, pid, start time, framework version). Subscribes once and
     * stops; connects to the registry if needed.
     *
     * @throws IllegalStateException if this runtime has no registry (direct mode only)
     */
    public List<ProviderInfo> providers(ServiceKey service) {
        ensureOpen();
        Registry r = registry.get();
        if (r == null) {
            throw new IllegalStateException("this RpcRuntime has no registry, so no provider records; configure one "
                    + "(RpcRuntime.builder().registry(...))");
        }
        java.util.concurrent.atomic.AtomicReference<List<ProviderInfo>> seen =
                new java.util.concurrent.atomic.AtomicReference<>(List.of());
        io.kestrel.rpc.api.registry.ProviderListener listener = (key, list) -> seen.set(list);
        r.subscribe(service, listener);
        r.unsubscribe(service, listener);
        return seen.get();
    }

    /** Wire counters of everything this runtime moved: its client connections and its server. */
    public TransportStats transportStats() {
        return TransportStats.sum(references.counters(), exports.counters());
    }

    /** Wire counters of this runtime's connections to providers. */
    public TransportStats clientStats() {
        return TransportStats.sum(references.counters(), null);
    }

    /** Wire counters of this runtime's server (zeros when nothing is exported). */
    public TransportStats serverStats() {
        return TransportStats.sum(null, exports.counters());
    }

    /** Calls this runtime's server has taken on and not yet answered. */
    public int inFlightCalls() {
        return exports.inFlight();
    }

    /** Whether this runtime's server is bound and takes new calls (false before the first export and once closing). */
    public boolean serverAccepting() {
        return !closed && exports.accepting();
    }

    /**
     * Whether the registry is connected right now; false in direct-only mode (no registry config) and before
     * the first export or registry reference connected it.
     */
    public boolean registryConnected() {
        return !closed && registryState() == RegistryState.CONNECTED;
    }

    /** Consumer connections open to this runtime's server. */
    public int serverConnections() {
        return exports.connections();
    }

    /**
     * Bytes this runtime's server holds for requests in progress and responses not yet written,
     * counted against the protocol's memory budget.
     */
    public long serverMemoryInUse() {
        return exports.memoryInUse();
    }

    /** Connections this runtime's server refused at its connection limits. */
    public long refusedConnections() {
        return exports.refusedConnections();
    }

    /** Business threads of this runtime's server running a call now (0 when nothing is exported). */
    public int businessPoolActive() {
        return exports.businessActive();
    }

    /** Calls waiting for a business thread of this runtime's server (the protocol's {@code queues}). */
    public int businessPoolQueued() {
        return exports.businessQueued();
    }

    /** Where this runtime's registry connection is now; never connects. */
    public RegistryState registryState() {
        if (registry.config() == null) {
            return RegistryState.NONE;
        }
        Registry r = registry.ifConnected();
        if (r == null) {
            return RegistryState.NOT_STARTED;
        }
        return r.isConnected() ? RegistryState.CONNECTED : RegistryState.DISCONNECTED;
    }

    /** The state of a runtime's registry connection ({@link #registryState()}). */
    public enum RegistryState {
        /** No registry configured (direct mode only). */
        NONE,
        /** Configured, not used yet: it connects on the first export or registry reference. */
        NOT_STARTED,
        /** Reachable. */
        CONNECTED,
        /** Unreachable now; registrations are kept and consumers use the last known providers. */
        DISCONNECTED
    }

    /** Calls this runtime sent to providers and not yet answered or timed out. */
    public int pendingCalls() {
        return references.connections().stream().mapToInt(Connection::pendingCalls).sum();
    }

    /** The services this runtime exports, as snapshots (empty before the first export). */
    public List<ServiceView> services() {
        return exports.views();
    }

    /** This runtime's references with the providers each knows and their connection states, as snapshots. */
    public List<ReferenceView> references() {
        return references.views();
    }

    /** This runtime's connections to providers, as snapshots. */
    public List<ConnectionView> connections() {
        return references.connections().stream().map(RpcRuntime::view).toList();
    }

    /** The connection to {@code address} ("host:port"), if this runtime has one. */
    public Optional<ConnectionView> connection(String address) {
        return references.connections().stream().filter(c -> c.address().equals(address)).findFirst()
                .map(RpcRuntime::view);
    }

    private static ConnectionView view(Connection c) {
        return new ConnectionView(c.address(), c.state().name(), c.pendingCalls());
    }

    /**
     * Takes this runtime's provider of {@code service} out of the registry (consumers stop choosing it within
     * about a second) while it keeps serving calls already routed to it; {@link #online} publishes it again.
     *
     * @return false if it was offline already
     * @throws IllegalArgumentException if this runtime does not export {@code service}
     */
    public boolean offline(ServiceKey service) {
        ensureOpen();
        return exports.setOnline(service, false);
    }

    /**
     * Publishes this runtime's provider of {@code service} in the registry again after {@link #offline}.
     *
     * @return false if it was online already
     * @throws IllegalArgumentException if this runtime does not export {@code service}
     */
    public boolean online(ServiceKey service) {
        ensureOpen();
        return exports.setOnline(service, true);
    }

    /** Whether this runtime's provider of {@code service} is published (false once {@link #offline}). */
    public boolean isOnline(ServiceKey service) {
        return exports.isOnline(service);
    }

    /**
     * One of the web console's JSON documents ({@code overview}, {@code services}, {@code registry},
     * {@code connections}, {@code calls}) as plain maps and lists.
     *
     * @throws IllegalStateException when this runtime serves no console
     * @throws IllegalArgumentException for an unknown document name
     */
    public java.util.Map<String, Object> consoleDocument(String name) {
        if (console == null) {
            throw new IllegalStateException("this RpcRuntime serves no web console (rpc.console.enabled)");
        }
        return console.document(name);
    }

    /** The port of this runtime's web console, or -1 when it has none ({@link Builder#console}). */
    public int consolePort() {
        return console == null ? -1 : console.port();
    }

    /** Test hook: drops the server and the registry session at once, as a crashed process would. */
    void crash() {
        exports.crash();
        registry.close();
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
        if (console != null) {
            console.close();
        }
        exports.close();
        references.close();
        if (ownCallbacks != null) {
            ownCallbacks.shutdown(); // callbacks already queued still run
        }
        registry.close();
        log.info("RpcRuntime{} closed", application != null ? " of " + application.name() : "");
    }

    public static final class Builder {
        private ApplicationConfig application;
        private ProtocolConfig protocol = ProtocolConfig.builder().build();
        private ClientConfig client = ClientConfig.defaults();
        private RegistryConfig registry;
        private Executor callbackExecutor; // null: the runtime's own CallbackPool
        private final List<ClientInterceptor> clientInterceptors = new ArrayList<>();
        private final List<ServerInterceptor> serverInterceptors = new ArrayList<>();
        private boolean loadInterceptors = true;
        private boolean accessLog;
        private ConsoleConfig console = ConsoleConfig.disabled();

        private Builder() {
        }

        /**
         * Adds an interceptor run around every call of this runtime's references (before each
         * reference's own of the same order). See {@link ClientInterceptor} for order, threads and errors.
         */
        public Builder clientInterceptor(ClientInterceptor interceptor) {
            this.clientInterceptors.add(Objects.requireNonNull(interceptor, "clientInterceptor"));
            return this;
        }

        /**
         * Adds an interceptor run around every invocation of this runtime's exported services (before
         * each service's own of the same order). See {@link ServerInterceptor}.
         */
        public Builder serverInterceptor(ServerInterceptor interceptor) {
            this.serverInterceptors.add(Objects.requireNonNull(interceptor, "serverInterceptor"));
            return this;
        }

        /**
         * Whether interceptors listed in {@code META-INF/services/io.kestrel.rpc.api.interceptor.ClientInterceptor}
         * and {@code ...ServerInterceptor} are added (after the programmatic ones). Default true.
         */
        public Builder loadInterceptors(boolean load) {
            this.loadInterceptors = load;
            return this;
        }

        /**
         * Logs one line per call on both sides (service#method, outcome, duration, bytes where known,
         * peer) at INFO to the loggers {@code io.kestrel.rpc.access.client} and
         * {@code io.kestrel.rpc.access.server}. Default false; also on with the system property
         * {@code kestrel.rpc.accessLog=true}.
         */
        public Builder accessLog(boolean enabled) {
            this.accessLog = enabled;
            return this;
        }

        public Builder application(ApplicationConfig application) {
            this.application = application;
            return this;
        }

        /** Default: {@code ProtocolConfig.builder().build()} (port 20880, fory). */
        public Builder protocol(ProtocolConfig protocol) {
            this.protocol = Objects.requireNonNull(protocol, "protocol");
            return this;
        }

        /** Settings of the connections to providers. Default: {@link ClientConfig#defaults()}. */
        public Builder client(ClientConfig client) {
            this.client = Objects.requireNonNull(client, "client");
            return this;
        }

        /** Default: none (direct mode only). {@link RegistryConfig#embedded()} starts an in-process ZooKeeper. */
        public Builder registry(RegistryConfig registry) {
            this.registry = registry;
            return this;
        }

        /**
         * Where futures returned by async methods complete. Default: a pool of the runtime's own
         * ({@code kestrel-callback-N} threads, at least two; shut down with the runtime). Not the common
         * fork-join pool: with two CPUs or fewer, CompletableFuture would start a thread per callback there.
         */
        public Builder callbackExecutor(Executor executor) {
            this.callbackExecutor = Objects.requireNonNull(executor, "callbackExecutor");
            return this;
        }

        /**
         * The web console this runtime serves on its own port (needs {@code io.kestrel:rpc-console} on the class
         * path when enabled). Default: none.
         */
        public Builder console(ConsoleConfig console) {
            this.console = Objects.requireNonNull(console, "console");
            return this;
        }

        /**
         * @throws IllegalStateException when the console is enabled and {@code io.kestrel:rpc-console} is missing
         * @throws io.kestrel.rpc.api.TransportException when the console's port cannot be bound
         */
        public RpcRuntime build() {
            RpcRuntime runtime = new RpcRuntime(this);
            if (runtime.console != null) {
                try {
                    runtime.console.start(runtime);
                } catch (RuntimeException e) {
                    runtime.close();
                    throw e;
                }
            }
            return runtime;
        }
    }
}
