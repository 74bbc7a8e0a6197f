package io.kestrel.rpc.core;

import io.kestrel.rpc.api.NoProviderException;
import io.kestrel.rpc.api.RegistryException;
import io.kestrel.rpc.api.ServiceKey;
import io.kestrel.rpc.api.config.ApplicationConfig;
import io.kestrel.rpc.api.config.ClientConfig;
import io.kestrel.rpc.api.config.ProtocolConfig;
import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.config.RegistryConfig;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.api.interceptor.ClientInterceptor;
import io.kestrel.rpc.api.interceptor.ServerInterceptor;
import io.kestrel.rpc.api.serialization.ClassAllowlist;
import io.kestrel.rpc.core.internal.consumer.CallbackPool;
import io.kestrel.rpc.core.internal.provider.Exports;
import io.kestrel.rpc.core.internal.shared.Interceptors;
import io.kestrel.rpc.core.internal.shared.LazyRegistry;
import io.kestrel.rpc.core.internal.consumer.References;
import io.kestrel.rpc.core.internal.shared.SerializerCache;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The entry point: exports services on the protocol's port and creates proxies for references. A
 * facade over the provider side (server, exported methods, registrations), the consumer side (one
 * connection per provider address shared by every reference, directories, proxies) and what both
 * share (the registry connection and the deserialization allowlist). One runtime per application is
 * typical. Its three faces: this class (lifecycle, export, refer, configuration), the read-only
 * {@link #inspect() inspector} (figures and views for health, metrics, console and actuator) and the
 * per-export {@link Exporter} handles (offline/online, unexport). Add-ons such as the web console attach from
 * outside ({@link Builder#addOn}). Thread-safe.
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
    private final List<RuntimeAddOn> addOns;
    private final Map<ServiceKey, Exporter> exporters = new ConcurrentHashMap<>();
    private final RuntimeInspector inspector;
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
        this.addOns = List.copyOf(b.addOns);
        for (RuntimeAddOn addOn : addOns) {
            clientInterceptors.addAll(addOn.clientInterceptors());
            serverInterceptors.addAll(addOn.serverInterceptors());
        }
        Interceptors interceptors = new Interceptors(clientInterceptors, serverInterceptors,
                b.accessLog || Boolean.getBoolean(ACCESS_LOG_PROPERTY));
        this.exports = new Exports(protocol, serializers, registry, application, interceptors);
        this.ownCallbacks = b.callbackExecutor == null ? CallbackPool.create() : null;
        Executor callbacks = b.callbackExecutor != null ? b.callbackExecutor : ownCallbacks;
        if (b.callbacks != null ? b.callbacks == Callbacks.DIRECT : CallbackPool.DIRECT) {
            callbacks = CallbackPool.direct(callbacks);
        }
        this.references = new References(client, protocol, serializers, registry, callbacks, application,
                interceptors);
        this.inspector = new RuntimeInspector(this, exports, references, registry);
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
     * @return the export's handle: offline/online (take it out of the registry and back while it serves) and
     *     unexport; {@link #exporter(ServiceKey)} finds it again
     * @throws io.kestrel.rpc.api.TransportException if the port cannot be bound
     * @throws RegistryException if the registry cannot be reached
     */
    public synchronized <T> Exporter export(ServiceConfig<T> config) {
        ensureOpen();
        allowlist.trustTypesOf(config.interfaceClass());
        Exporter exporter = new ExportHandle(exports, exports.export(config), exporters);
        exporters.put(exporter.provider().service(), exporter);
        return exporter;
    }

    /** The handle of this runtime's export of {@code service}, if it exports it now. */
    public Optional<Exporter> exporter(ServiceKey service) {
        return Optional.ofNullable(exporters.get(service));
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
     * The read-only face of this runtime: a snapshot of its figures (server, client, pool, registry), the services
     * it exports, its references and connections, and the provider and consumer records and metadata of a service.
     */
    public RuntimeInspector inspect() {
        return inspector;
    }

    /** The add-on of {@code type} attached to this runtime ({@link Builder#addOn}), if there is one. */
    public <A extends RuntimeAddOn> Optional<A> addOn(Class<A> type) {
        return addOns.stream().filter(type::isInstance).map(type::cast).findFirst();
    }

    /** Test hook: drops the server and the registry session at once, as a crashed process would. */
    void crash() {
        exports.crash();
        registry.close();
    }

    boolean isClosed() {
        return closed;
    }

    void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("this RpcRuntime is closed");
        }
    }

    /**
     * Shuts down in the safe order: close the add-ons (last attached first), unregister every service (and give
     * consumers a moment to see it), refuse new calls, finish in-flight calls within the protocol's shutdown timeout, close the
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
        for (int i = addOns.size() - 1; i >= 0; i--) {
            addOns.get(i).close();
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
        private Callbacks callbacks; // null: -Dkestrel.rpc.consumer.callbacks, else pool
        private final List<RuntimeAddOn> addOns = new ArrayList<>();

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

        /**
         * Where the futures of asynchronous methods complete ({@link Callbacks}): {@code POOL} (the default) on the
         * callback executor, {@code DIRECT} on the thread that ends the call, without a hand-off, for applications
         * whose callbacks never block (streams' response observers then run on the I/O thread too). Unset: the system
         * property {@code kestrel.rpc.consumer.callbacks} ({@code pool} or {@code direct}), else pool.
         */
        public Builder callbacks(Callbacks callbacks) {
            this.callbacks = Objects.requireNonNull(callbacks, "callbacks");
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
         * Attaches an add-on from outside, such as the web console ({@code io.kestrel:rpc-console}): its interceptors
         * join this runtime's, it starts once the runtime is built and closes first when the runtime closes
         * ({@link RuntimeAddOn}). Found again with {@link RpcRuntime#addOn(Class)}.
         */
        public Builder addOn(RuntimeAddOn addOn) {
            this.addOns.add(Objects.requireNonNull(addOn, "addOn"));
            return this;
        }

        /**
         * @throws RuntimeException what an add-on's {@link RuntimeAddOn#start} threw (for example a
         *     {@link io.kestrel.rpc.api.TransportException} when the console's port cannot be bound); the runtime is
         *     closed then
         */
        public RpcRuntime build() {
            RpcRuntime runtime = new RpcRuntime(this);
            try {
                for (RuntimeAddOn addOn : runtime.addOns) {
                    addOn.start(runtime);
                }
            } catch (RuntimeException e) {
                runtime.close();
                throw e;
            }
            return runtime;
        }
    }
}
