package io.kestrel.rpc.core.internal.consumer;

import io.kestrel.rpc.core.internal.shared.StreamingCheck;
import io.kestrel.rpc.api.NoProviderException;
import io.kestrel.rpc.api.TransportException;
import io.kestrel.rpc.api.cluster.LoadBalance;
import io.kestrel.rpc.api.config.ApplicationConfig;
import io.kestrel.rpc.api.config.ClientConfig;
import io.kestrel.rpc.api.config.ProtocolConfig;
import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.registry.ConsumerInfo;
import io.kestrel.rpc.api.registry.ProviderInfo;
import io.kestrel.rpc.core.ReferenceView;
import io.kestrel.rpc.api.registry.Registry;
import io.kestrel.rpc.api.serialization.ClassAllowlist;
import io.kestrel.rpc.api.serialization.Serializations;
import io.kestrel.rpc.core.cluster.loadbalance.LoadBalances;
import io.kestrel.rpc.core.internal.shared.AdvertisedAddress;
import io.kestrel.rpc.core.internal.shared.Interceptors;
import io.kestrel.rpc.core.internal.shared.LazyRegistry;
import io.kestrel.rpc.core.internal.shared.ProcessIdentity;
import io.kestrel.rpc.core.internal.shared.SerializerCache;
import io.kestrel.rpc.core.internal.shared.SignatureCheck;
import io.kestrel.rpc.transport.ClientTransport;
import io.kestrel.rpc.transport.Connection;
import io.kestrel.rpc.transport.TransportCounters;
import io.kestrel.rpc.transport.spi.ClientOptions;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The consumer side of a runtime: the client transport (one connection per provider address,
 * opened on first use), the directories of the references and the proxies. References share
 * connections, so two references that reach the same provider must agree on the connection
 * settings; one that differs from the connection's is refused at refer time, naming both
 * (the transport checks it). Thread-safe.
 */
public final class References {
    private static final Logger log = LoggerFactory.getLogger(References.class);

    private final ClientConfig client;
    private final ProtocolConfig protocol;
    private final SerializerCache serializers;
    private final ClassAllowlist allowlist;
    private final LazyRegistry registry;
    private final Executor callbackExecutor;
    private final Interceptors interceptors;
    private final List<Directory> directories = new CopyOnWriteArrayList<>();
    /** Application, pid, start time and framework version, written into consumer records. */
    private final Map<String, String> identity;
    /** Consumer records written (one per registry-mode reference), removed on close. */
    private final List<ConsumerInfo> recorded = new CopyOnWriteArrayList<>();
    private final List<Referred> referred = new CopyOnWriteArrayList<>();

    /** A reference made, for the read-only views. */
    private record Referred(ReferenceConfig<?> config, Directory directory) {
    }
    private volatile ClientTransport transport;
    /** This process's address in consumer records, chosen as a provider's is (see {@link AdvertisedAddress}). */
    private volatile String recordHost;

    /** @param application the runtime's application, or null (its name is then not recorded) */
    public References(ClientConfig client, ProtocolConfig protocol, SerializerCache serializers,
            LazyRegistry registry, Executor callbackExecutor, ApplicationConfig application,
            Interceptors interceptors) {
        this.identity = ProcessIdentity.attributes(application);
        this.client = client;
        this.interceptors = interceptors;
        this.protocol = protocol;
        this.serializers = serializers;
        this.allowlist = serializers.allowlist();
        this.registry = registry;
        this.callbackExecutor = callbackExecutor;
    }

    /**
     * Creates a proxy for a remote service; connections to the known providers are opened now.
     *
     * @throws NoProviderException when {@code check} is on and no provider is available
     * @throws IllegalArgumentException for an unknown serialization or load balancer name, or
     *     connection settings that disagree with an earlier reference's
     */
    public <T> T refer(ReferenceConfig<T> config) {
        ClientOptions options = ClientOptions.from(client.with(config)).withProtocol(config.protocol());
        if (options.dubbo()) {
            StreamingCheck.check(config.interfaceClass(), io.kestrel.rpc.api.config.ProtocolConfig.DUBBO,
                    "reference " + config.key());
            DubboReferences.check(config, options);
        }
        if (!config.isGeneric()) {
            allowlist.trustTypesOf(config.interfaceClass());
        }
        config.allowedPackages().forEach(allowlist::allowPackage);
        if (config.serialization() != null && !config.isGeneric()) {
            // without one the reference adopts each provider's, whose export checked the same signatures
            SignatureCheck.check(config.interfaceClass(), Serializations.installed().byName(config.serialization()),
                    "refer", "serialization on the reference");
        }
        Agreement agreement = new Agreement(config, protocol, serializers);
        LoadBalance loadBalance = LoadBalances.byName(config.loadBalance());
        ClientTransport transport = transport();
        if (options.connection().tls() != null) {
            transport.checkTls(options.connection().tls()); // reads and checks the PEM files now: errors name the file
        }
        String unbound = TokenBinding.refusal(config.key(), options);
        if (unbound != null) {
            throw new IllegalArgumentException(unbound);
        }
        if (options.connection().token() != null && options.connection().tls() == null) {
            log.warn("Reference {} sends a token over plaintext connections: anyone on the network path can read it."
                    + " Configure TLS (tls-trust) for it", config.key());
        }
        Directory directory = directory(config, transport, options, agreement);
        if (directory.conflict() != null) {
            directory.close();
            throw directory.conflict();
        }
        // direct mode has no records to go by: there the connection attempt itself tells
        String tlsMismatch = config.url() != null ? null
                : TlsMismatch.describe(config.key(), directory.seen(), options.connection().tls() != null);
        if (tlsMismatch != null) {
            directory.close();
            throw new TransportException(tlsMismatch);
        }
        directories.add(directory);
        ClusterInvoker cluster = new ClusterInvoker(config, directory, loadBalance, agreement, callbackExecutor);
        // the same filter calls use: connected, and agreed on serialization and optimizer
        if (config.check() && directory.endpoints().stream()
                .noneMatch(e -> e.connection().isConnected() && e.terms().usable())) {
            boolean leftOut = directory.endpoints().stream().anyMatch(e -> !e.terms().usable());
            String providers = directory.explainProviders();
            String errors = directory.endpoints().stream().filter(e -> !e.connection().isConnected())
                    .map(e -> e.provider().address() + ": " + e.connection().lastError())
                    .collect(Collectors.joining("; "));
            directory.close();
            directories.remove(directory);
            throw new NoProviderException("No provider available for " + config.key() + " at startup (from "
                    + directory.source() + "; providers seen: " + providers
                    + (errors.isEmpty() ? "" : "; not reachable: " + errors) + directory.otherVersions() + "; "
                    + agreement.describe() + "). " + (leftOut ? "Fix what the providers left out name, or set"
                    : "Start a provider first, check the interface/version/group, or set")
                    + " check=\"false\" on the reference to start anyway");
        }
        recordConsumer(config);
        referred.add(new Referred(config, directory));
        java.lang.reflect.InvocationHandler handler = config.isGeneric()
                ? new GenericReferenceHandler(config, cluster, transport, callbackExecutor, interceptors.forReference(config))
                : new ReferenceHandler(config, cluster, transport, callbackExecutor, interceptors.forReference(config));
        Class<T> type = config.interfaceClass();
        ClassLoader loader = type.getClassLoader() != null ? type.getClassLoader() : References.class.getClassLoader();
        Object proxy = Proxy.newProxyInstance(loader, new Class<?>[] {type}, handler);
        log.info("Referenced {} via {}: {}", config.key(), directory.source(), directory.explainProviders());
        return type.cast(proxy);
    }

    private Directory directory(ReferenceConfig<?> config, ClientTransport transport, ClientOptions options,
            Agreement agreement) {
        if (config.url() != null) {
            return Directory.direct(config.key(), config.url(), transport, options, agreement,
                    new ArrayList<>(Serializations.installed().names().values()));
        }
        Registry r = registry.get();
        if (r == null) {
            throw new IllegalArgumentException("reference " + config.key()
                    + " has no url and this runtime has no registry; set url=\"host:port\" or configure a registry");
        }
        Directory directory = Directory.subscribe(config.key(), config.protocol(), r, transport, options, agreement,
                registry.config().emptyProtection());
        try {
            directory.awaitFirstList(registry.config().connectionTimeout().toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return directory;
    }

    /** Writes this process into the service's consumers/ folder (registry mode only). */
    private void recordConsumer(ReferenceConfig<?> config) {
        Registry r = config.url() == null ? registry.get() : null;
        if (r == null) {
            return;
        }
        Map<String, String> attributes = identity;
        if (!config.protocol().equals(ProtocolConfig.KESTREL)) {
            attributes = new java.util.LinkedHashMap<>(identity);
            attributes.put(ProviderInfo.PROTOCOL, config.protocol()); // recorded beside that protocol's providers
        }
        ConsumerInfo me = new ConsumerInfo(recordHost(), config.key(), attributes);
        try {
            r.registerConsumer(me);
            recorded.add(me);
        } catch (RuntimeException e) {
            log.warn("Could not record this consumer of {} in {}: {}", config.key(), r.address(), e.toString());
        }
    }

    /** The address written into consumer records; 127.0.0.1 when no other is found (they are informational). */
    private String recordHost() {
        String h = recordHost;
        if (h == null) {
            AdvertisedAddress a = AdvertisedAddress.forThisMachine(protocol, registry.config());
            h = a.advertised() != null ? a.advertised() : "127.0.0.1";
            recordHost = h;
        }
        return h;
    }

    /** The client transport, created on first use. */
    private ClientTransport transport() {
        ClientTransport t = transport;
        if (t == null) {
            synchronized (this) {
                t = transport;
                if (t == null) {
                    t = new ClientTransport(client.ioThreads(), allowlist);
                    transport = t;
                }
            }
        }
        return t;
    }

    /** Snapshots of the references made and their providers. */
    public List<ReferenceView> views() {
        return referred.stream().map(r -> new ReferenceView(r.config().key().toString(), r.directory().source(),
                r.config().check(), r.directory().endpoints().stream().map(e -> new ReferenceView.Provider(
                        e.provider().address(), e.connection().state().name(), e.provider().weight(), e.weight(),
                        e.ejected(), e.ejections(), e.unlisted))
                        .toList())).toList();
    }

    /** The open connections (none before the first reference). */
    public List<Connection> connections() {
        ClientTransport t = transport;
        return t == null ? List.of() : t.connections();
    }

    /** Wire counters of the client connections, or null before the first reference. */
    public TransportCounters counters() {
        ClientTransport t = transport;
        return t == null ? null : t.counters();
    }

    /** Stops following the registry and closes every connection (pending calls fail). */
    public void close() {
        Registry r = registry.ifConnected();
        // while ZooKeeper is unreachable a delete would wait through every retry; the records end with the session
        if (r != null && r.isConnected()) {
            for (ConsumerInfo c : recorded) {
                try {
                    r.unregisterConsumer(c);
                } catch (RuntimeException e) {
                    log.warn("Could not remove the consumer record {}: {}", c, e.toString());
                }
            }
        }
        recorded.clear();
        ClientTransport open = transport;
        if (open != null) {
            open.drainStreams(protocol.shutdownTimeout()); // open streams may finish, new ones are refused
        }
        referred.clear();
        directories.forEach(Directory::close);
        ClientTransport t = transport;
        if (t != null) {
            t.close();
        }
    }
}
