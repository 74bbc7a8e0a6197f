package io.kestrel.rpc.core;

import io.kestrel.rpc.api.NoProviderException;
import io.kestrel.rpc.api.RegistryException;
import io.kestrel.rpc.api.ServiceKey;
import io.kestrel.rpc.api.generic.ServiceMetadata;
import io.kestrel.rpc.api.registry.ConsumerInfo;
import io.kestrel.rpc.api.registry.ProviderInfo;
import io.kestrel.rpc.api.registry.ProviderListener;
import io.kestrel.rpc.api.registry.Registry;
import io.kestrel.rpc.core.internal.provider.Exports;
import io.kestrel.rpc.core.internal.shared.LazyRegistry;
import io.kestrel.rpc.core.internal.consumer.MetadataClient;
import io.kestrel.rpc.core.internal.consumer.References;
import io.kestrel.rpc.transport.Connection;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The read-only face of a runtime ({@link RpcRuntime#inspect()}), in the manner of gRPC's channelz: one
 * {@link #snapshot() snapshot} of its figures, views of what it exports and references and of its connections, and
 * what the registry and the providers say about a service. Everything returned is a snapshot that does not change
 * afterwards; nothing here changes the runtime. Health checks, metrics, the console and the actuator endpoints
 * read the runtime through it. Thread-safe.
 */
public final class RuntimeInspector {
    private final RpcRuntime runtime;
    private final Exports exports;
    private final References references;
    private final LazyRegistry registry;
    private final MetadataClient metadata;

    RuntimeInspector(RpcRuntime runtime, Exports exports, References references, LazyRegistry registry) {
        this.runtime = runtime;
        this.exports = exports;
        this.references = references;
        this.registry = registry;
        this.metadata = new MetadataClient(references, this::providers);
    }

    /** The runtime's figures now: server, client side, business pool and registry connection. */
    public RuntimeSnapshot snapshot() {
        boolean open = !runtime.isClosed();
        RuntimeSnapshot.Server server = new RuntimeSnapshot.Server(open && exports.accepting(), exports.port(),
                exports.connections(), exports.inFlight(), exports.memoryInUse(), exports.refusedConnections(),
                TransportStats.of(exports.counters()), exports.openStreams());
        List<Connection> connections = references.connections();
        RuntimeSnapshot.Client client = new RuntimeSnapshot.Client(connections.size(),
                connections.stream().mapToInt(Connection::pendingCalls).sum(), TransportStats.of(references.counters()));
        RegistryState state = registryState();
        if (!open && state == RegistryState.CONNECTED) {
            state = RegistryState.DISCONNECTED;
        }
        return new RuntimeSnapshot(server, client,
                new RuntimeSnapshot.Pool(exports.businessActive(), exports.businessQueued()), state);
    }

    private RegistryState registryState() {
        if (registry.config() == null) {
            return RegistryState.NONE;
        }
        Registry r = registry.ifConnected();
        if (r == null) {
            return RegistryState.NOT_STARTED;
        }
        return r.isConnected() ? RegistryState.CONNECTED : RegistryState.DISCONNECTED;
    }

    /** The services the runtime exports (empty before the first export). */
    public List<ServiceView> services() {
        return exports.views();
    }

    /** The runtime's references with the providers each knows and their connection states. */
    public List<ReferenceView> references() {
        return references.views();
    }

    /** The runtime's connections to providers. */
    public List<ConnectionView> connections() {
        return references.connections().stream().map(RuntimeInspector::view).toList();
    }

    /** The connection to {@code address} ("host:port"), if the runtime has one. */
    public Optional<ConnectionView> connection(String address) {
        return references.connections().stream().filter(c -> c.address().equals(address)).findFirst()
                .map(RuntimeInspector::view);
    }

    private static ConnectionView view(Connection c) {
        return new ConnectionView(c.address(), c.state().name(), c.pendingCalls(), c.openStreams());
    }

    /**
     * Who provides a service: the provider records in the registry for {@code service} now (address, accepted
     * serializations, methods, and application, pid, start time, framework version). Subscribes once and
     * stops; connects to the registry if needed.
     *
     * @throws IllegalStateException if the runtime has no registry (direct mode only) or is closed
     */
    public List<ProviderInfo> providers(ServiceKey service) {
        Registry r = registry("provider");
        AtomicReference<List<ProviderInfo>> seen = new AtomicReference<>(List.of());
        ProviderListener listener = (key, list) -> seen.set(list);
        r.subscribe(service, listener);
        r.unsubscribe(service, listener);
        return seen.get();
    }

    /**
     * Who calls a service: the consumers recorded in the registry for {@code service} (each process that refers
     * it, with host, application, pid, start time and framework version), read now. Connects to the registry if
     * needed.
     *
     * @throws IllegalStateException if the runtime has no registry (direct mode only) or is closed
     * @throws UnsupportedOperationException if the registry does not record consumers
     * @throws RegistryException if the registry cannot be read
     */
    public List<ConsumerInfo> consumers(ServiceKey service) {
        return registry("consumer").consumers(service);
    }

    private Registry registry(String records) {
        runtime.ensureOpen();
        Registry r = registry.get();
        if (r == null) {
            throw new IllegalStateException("this RpcRuntime has no registry, so no " + records + " records; configure"
                    + " one (RpcRuntime.builder().registry(...))");
        }
        return r;
    }

    /**
     * The metadata of {@code service} as one of its providers in the registry describes it (methods with parameter
     * and return types, parameter names when compiled with {@code -parameters}, beans and enums reached,
     * serializations accepted). Asked once per provider address and cached; the interface class is not needed.
     *
     * @throws IllegalStateException if the runtime has no registry (use {@link #metadata(ServiceKey, String)})
     * @throws NoProviderException when no provider of the service is registered
     */
    public ServiceMetadata metadata(ServiceKey service) {
        runtime.ensureOpen();
        return metadata.of(service);
    }

    /**
     * The metadata of {@code service} as the provider at {@code address} ("host:port") describes it, asked directly
     * (no registry needed) once and cached per address.
     *
     * @throws io.kestrel.rpc.api.ServiceNotFoundException when that provider does not export the service
     */
    public ServiceMetadata metadata(ServiceKey service, String address) {
        runtime.ensureOpen();
        return metadata.of(service, address);
    }
}
