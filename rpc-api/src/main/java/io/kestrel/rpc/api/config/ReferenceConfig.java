package io.kestrel.rpc.api.config;

import io.kestrel.rpc.api.ServiceKey;
import io.kestrel.rpc.api.interceptor.ClientInterceptor;
import io.kestrel.rpc.api.serialization.SerializationOptimizer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A consumer's view of a remote service: how to find providers, how to call them, how to fail.
 * Immutable; build with {@link #builder(Class)}. XML: {@code <rpc:reference id=".." interface=".."/>}.
 *
 * @param <T> the service interface
 */
public final class ReferenceConfig<T> {
    /** The deadline of calls when neither the reference nor the provider's service sets a timeout: 3 s. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(3);

    private final Class<T> interfaceClass;
    private final String genericInterface; // the remote interface of a GenericService reference, else null
    private final String version;
    private final String group;
    private final ServiceKey key; // built once: calls ask for it every time
    private final Duration timeout;
    private final int retries;
    private final String loadBalance;
    private final ClusterMode cluster;
    private final String serialization;
    private final Class<? extends SerializationOptimizer> optimizer;
    private final String url;
    private final String protocol;
    private final boolean check;
    private final boolean idempotent;
    private final boolean compatible;
    private final ConnectionSettings connection;
    private final Set<String> allowedPackages;
    private final List<ClientInterceptor> interceptors;
    private final int actives;
    private final boolean propagateDeadline;
    private final ResilienceConfig resilience;

    private ReferenceConfig(Builder<T> b) {
        this.interfaceClass = b.interfaceClass;
        this.genericInterface = b.genericInterface;
        this.version = b.version;
        this.group = b.group;
        this.key = new ServiceKey(interfaceName(), version, group);
        this.timeout = b.timeout;
        this.retries = b.retries;
        this.loadBalance = b.loadBalance;
        this.cluster = b.cluster;
        this.serialization = b.serialization;
        this.optimizer = b.optimizer;
        this.url = b.url;
        this.protocol = b.protocol;
        this.check = b.check;
        this.idempotent = b.idempotent;
        this.compatible = b.compatible;
        this.connection = b.connection.build();
        this.allowedPackages = Set.copyOf(b.allowedPackages);
        this.interceptors = List.copyOf(b.interceptors);
        this.actives = b.actives;
        this.propagateDeadline = b.propagateDeadline;
        this.resilience = b.resilience;
    }

    public static <T> Builder<T> builder(Class<T> interfaceClass) {
        return new Builder<>(interfaceClass);
    }

    /**
     * A generic reference to the service {@code interfaceName}, whose class this side need not have: the proxy is a
     * {@link io.kestrel.rpc.api.generic.GenericService}. Every other setting works as for a typed reference.
     *
     * @throws IllegalArgumentException when {@code interfaceName} is not a Java class name
     */
    public static Builder<io.kestrel.rpc.api.generic.GenericService> generic(String interfaceName) {
        Builder<io.kestrel.rpc.api.generic.GenericService> b = new Builder<>(io.kestrel.rpc.api.generic.GenericService.class);
        b.genericInterface = Checks.className("generic reference interface", interfaceName);
        return b;
    }

    /** The proxy's interface: the service interface, or {@code GenericService} for a {@link #generic} reference. */
    public Class<T> interfaceClass() {
        return interfaceClass;
    }

    /** Whether this is a {@link #generic} reference (its proxy is a {@code GenericService}). */
    public boolean isGeneric() {
        return genericInterface != null;
    }

    /** The remote service interface's class name (for a {@link #generic} reference, the name it was given). */
    public String interfaceName() {
        return genericInterface != null ? genericInterface : interfaceClass.getName();
    }

    public String version() {
        return version;
    }

    public String group() {
        return group;
    }

    public ServiceKey key() {
        return key;
    }

    /**
     * Deadline of each call ({@code timeout}), or empty when not set (the default). The deadline a call
     * uses is, in order: this timeout if set; else the timeout the chosen provider publishes in the
     * registry (its service's {@code timeout}); else {@link #DEFAULT_TIMEOUT} (3 s). In direct mode
     * ({@link #url()}) there is no registry record, so it is this timeout or the default.
     */
    public Optional<Duration> timeout() {
        return Optional.ofNullable(timeout);
    }

    /** Extra attempts on other providers with cluster "failover" ({@code retries}). Default 2. */
    public int retries() {
        return retries;
    }

    /** Load balancer name ({@code loadbalance}): random, roundrobin, leastactive, consistenthash. Default random. */
    public String loadBalance() {
        return loadBalance;
    }

    /** Fault tolerance ({@code cluster}): failover, failfast, failsafe. Default {@link ClusterMode#FAILOVER}. */
    public ClusterMode cluster() {
        return cluster;
    }

    /**
     * Serialization name ({@code serialization}); null (the default) means each provider's preferred one, as
     * published in its registry record or, in direct mode, its connection handshake (for providers that publish
     * none, the consumer runtime's protocol serialization). A provider that does not accept the one set here is
     * left out of the reference's providers, with the reason in the log and in {@code NoProviderException}.
     */
    public String serialization() {
        return serialization;
    }

    /**
     * Class registering serializable classes ({@code optimizer}), or null (the default): the provider's, loaded by
     * class name (for providers that publish none, the consumer runtime's protocol optimizer). For serializations that write
     * registered classes as numbers (kryo, fst, fory) it must register the provider's classes in the provider's
     * order, or the provider is left out with a message naming the first difference.
     */
    public Class<? extends SerializationOptimizer> optimizer() {
        return optimizer;
    }

    /**
     * Direct provider addresses, "host:port[,host:port...]" ({@code url}); null means use the
     * registry.
     */
    public String url() {
        return url;
    }

    /**
     * The wire protocol spoken to the providers ({@code protocol}): {@value ProtocolConfig#KESTREL} (the default)
     * or {@value ProtocolConfig#DUBBO}, to call stock Apache Dubbo providers. A direct {@link #url()} written
     * {@code dubbo://host:port} sets it to {@value ProtocolConfig#DUBBO}.
     */
    public String protocol() {
        return protocol;
    }

    /** Fail at creation when no provider is available ({@code check}). Default true. */
    public boolean check() {
        return check;
    }

    /**
     * Whether every method of the service may safely run more than once ({@code idempotent}).
     * Default false: failover then retries only calls that certainly did not run. When true it also
     * retries calls that may have run: timeouts and connections lost with the call in flight.
     */
    public boolean idempotent() {
        return idempotent;
    }

    /** Compatible mode of the serialization ({@code compatible}). Default false. */
    public boolean compatible() {
        return compatible;
    }

    /**
     * The connection settings this reference sets itself (unset ones null: the runtime's {@link ClientConfig}).
     * Connections are shared per provider address by every reference of a runtime, so a reference may set them
     * only to values that agree with its runtime's other references to the same provider.
     */
    public ConnectionSettings connection() {
        return connection;
    }

    /** Cap of calls in flight per connection ({@code max-pending}), or null; see {@link #connection()}. */
    public Integer maxPendingCalls() {
        return connection.maxPendingCalls();
    }

    /** Largest frame body sent or accepted ({@code payload}), or null; see {@link #connection()}. */
    public Integer payloadBytes() {
        return connection.payloadBytes();
    }

    /** TCP connect timeout ({@code connect-timeout}), or null; see {@link #connection()}. */
    public Duration connectTimeout() {
        return connection.connectTimeout();
    }

    /** Idle time before a heartbeat, or null; see {@link #connection()}. */
    public Duration heartbeatInterval() {
        return connection.heartbeatInterval();
    }

    /** Silent heartbeat intervals before a reconnect, or null; see {@link #connection()}. */
    public Integer heartbeatMisses() {
        return connection.heartbeatMisses();
    }

    /** TLS to the providers ({@code tls-*}), or null: the runtime's {@link ClientConfig#tls()}; see {@link #connection()}. */
    public TlsConfig tls() {
        return connection.tls();
    }

    /** The token sent once per connection ({@code token}), or null: the runtime's {@link ClientConfig#token()}. */
    public String token() {
        return connection.token();
    }

    /** Packages or classes allowed for deserialization besides the defaults. */
    public Set<String> allowedPackages() {
        return allowedPackages;
    }

    /**
     * This reference's own interceptors, run after the runtime's ones of the same order (see
     * {@link ClientInterceptor}). Default none.
     */
    public List<ClientInterceptor> interceptors() {
        return interceptors;
    }

    /**
     * Most calls of one method of this reference in flight at once from this consumer ({@code actives});
     * a call beyond it fails at once with {@link io.kestrel.rpc.api.ServerBusyException} without being
     * sent. 0 (the default): no limit.
     */
    public int actives() {
        return actives;
    }

    /**
     * Whether calls made while this thread serves an incoming call get at most that call's remaining
     * time ({@code propagate-deadline}, default true): the deadline is min(own timeout, remaining
     * budget). False: this reference's calls keep their own timeout (for work that must outlive the
     * caller, such as a cleanup or audit call).
     */
    public boolean propagateDeadline() {
        return propagateDeadline;
    }

    /**
     * Outlier ejection and the retry budget of this reference's calls (see {@link ResilienceConfig}). Default
     * {@link ResilienceConfig#defaults()}.
     */
    public ResilienceConfig resilience() {
        return resilience;
    }

    @Override
    public String toString() {
        return "ReferenceConfig{" + key() + (protocol.equals(ProtocolConfig.KESTREL) ? "" : ", protocol=" + protocol)
                + (url != null ? ", url=" + url : "") + ", timeout="
                + (timeout != null ? timeout.toMillis() + "ms" : "unset") + ", cluster=" + cluster + ", retries=" + retries
                + ", loadbalance=" + loadBalance + ", serialization=" + serialization + "}";
    }

    public static final class Builder<T> {
        private final Class<T> interfaceClass;
        private String genericInterface;
        private String version = "";
        private String group = "";
        private Duration timeout;
        private int retries = 2;
        private String loadBalance = "random";
        private ClusterMode cluster = ClusterMode.FAILOVER;
        private String serialization;
        private Class<? extends SerializationOptimizer> optimizer;
        private String url;
        private String protocol;
        private String urlProtocol;
        private boolean check = true;
        private boolean idempotent;
        private boolean compatible;
        private ConnectionSettings.Builder connection = ConnectionSettings.builder();
        private final Set<String> allowedPackages = new LinkedHashSet<>();
        private final List<ClientInterceptor> interceptors = new ArrayList<>();
        private int actives;
        private boolean propagateDeadline = true;
        private ResilienceConfig resilience = ResilienceConfig.defaults();

        private Builder(Class<T> interfaceClass) {
            Objects.requireNonNull(interfaceClass, "reference interface");
            if (!interfaceClass.isInterface()) {
                throw new IllegalArgumentException("reference interface " + interfaceClass.getName()
                        + " is a class; refer to an interface");
            }
            this.interfaceClass = interfaceClass;
        }

        public Builder<T> version(String version) {
            this.version = Checks.orEmpty(version);
            return this;
        }

        public Builder<T> group(String group) {
            this.group = Checks.orEmpty(group);
            return this;
        }

        /** See {@link ReferenceConfig#timeout()}; at least 1 ms. */
        public Builder<T> timeout(Duration timeout) {
            this.timeout = Checks.positiveMillis("reference timeout", timeout);
            return this;
        }

        public Builder<T> retries(int retries) {
            this.retries = Checks.atLeast("reference retries", retries, 0);
            return this;
        }

        public Builder<T> loadBalance(String name) {
            this.loadBalance = Checks.nonBlank("reference loadbalance", name).toLowerCase(Locale.ROOT);
            return this;
        }

        /** Parse configuration text with {@link ClusterMode#byName}. */
        public Builder<T> cluster(ClusterMode mode) {
            this.cluster = Objects.requireNonNull(mode, "reference cluster");
            return this;
        }

        public Builder<T> serialization(String name) {
            this.serialization = name == null || name.isBlank() ? null : name.trim().toLowerCase(Locale.ROOT);
            return this;
        }

        public Builder<T> optimizer(Class<? extends SerializationOptimizer> optimizer) {
            this.optimizer = optimizer;
            return this;
        }

        /**
         * Direct provider addresses, {@code host:port[,host:port...]}; each may be written
         * {@code dubbo://host:port} (the reference then speaks the dubbo protocol) or {@code kestrel://host:port}.
         * A path after host:port is ignored, as before (Dubbo users write the interface there).
         */
        public Builder<T> url(String url) {
            this.url = null;
            this.urlProtocol = null;
            ProtocolNames.DirectUrl direct = ProtocolNames.DirectUrl.parse(url);
            if (direct != null) {
                this.url = direct.addresses();
                this.urlProtocol = direct.protocol();
            }
            return this;
        }

        /** See {@link ReferenceConfig#protocol()}; one of {@link ProtocolConfig#NAMES}. */
        public Builder<T> protocol(String name) {
            if (name == null || name.isBlank()) {
                this.protocol = null;
                return this;
            }
            this.protocol = ProtocolNames.checked("reference protocol", name, "the default", "to call Apache Dubbo providers");
            return this;
        }

        public Builder<T> check(boolean check) {
            this.check = check;
            return this;
        }

        public Builder<T> idempotent(boolean idempotent) {
            this.idempotent = idempotent;
            return this;
        }

        public Builder<T> compatible(boolean compatible) {
            this.compatible = compatible;
            return this;
        }

        /** Replaces the connection settings set so far; see {@link ReferenceConfig#connection()}. */
        public Builder<T> connection(ConnectionSettings settings) {
            this.connection = settings.toBuilder("reference");
            return this;
        }

        public Builder<T> maxPendingCalls(int max) {
            connection.maxPendingCalls(max);
            return this;
        }

        public Builder<T> payloadBytes(int bytes) {
            connection.payloadBytes(bytes);
            return this;
        }

        public Builder<T> connectTimeout(Duration timeout) {
            connection.connectTimeout(timeout);
            return this;
        }

        public Builder<T> heartbeatInterval(Duration interval) {
            connection.heartbeatInterval(interval);
            return this;
        }

        public Builder<T> heartbeatMisses(int misses) {
            connection.heartbeatMisses(misses);
            return this;
        }

        /** See {@link ReferenceConfig#tls()}. */
        public Builder<T> tls(TlsConfig tls) {
            connection.tls(tls);
            return this;
        }

        /** See {@link ReferenceConfig#token()}; null or empty: the runtime's. */
        public Builder<T> token(String token) {
            connection.token(token);
            return this;
        }

        public Builder<T> allowPackage(String prefix) {
            this.allowedPackages.add(Checks.nonBlank("reference allowed-packages entry", prefix));
            return this;
        }

        /** Adds an interceptor for this reference's calls; see {@link ReferenceConfig#interceptors()}. */
        public Builder<T> interceptor(ClientInterceptor interceptor) {
            this.interceptors.add(Objects.requireNonNull(interceptor, "reference interceptor"));
            return this;
        }

        /** See {@link ReferenceConfig#actives()}; 0 for no limit. */
        public Builder<T> actives(int actives) {
            this.actives = Checks.atLeast("reference actives", actives, 0);
            return this;
        }

        /** See {@link ReferenceConfig#propagateDeadline()}. */
        public Builder<T> propagateDeadline(boolean propagate) {
            this.propagateDeadline = propagate;
            return this;
        }

        /** See {@link ReferenceConfig#resilience()}. */
        public Builder<T> resilience(ResilienceConfig resilience) {
            this.resilience = Objects.requireNonNull(resilience, "reference resilience");
            return this;
        }

        public ReferenceConfig<T> build() {
            if (interfaceClass == io.kestrel.rpc.api.generic.GenericService.class && genericInterface == null) {
                throw new IllegalArgumentException("a GenericService reference needs the remote interface's name: use"
                        + " ReferenceConfig.generic(\"com.example.UserService\") instead of builder(GenericService.class)");
            }
            if (protocol != null && urlProtocol != null && !protocol.equals(urlProtocol)) {
                throw new IllegalArgumentException("reference " + interfaceClass.getName() + " has protocol \""
                        + protocol + "\" but its url says " + urlProtocol + "://; make them agree");
            }
            if (protocol == null) {
                protocol = urlProtocol != null ? urlProtocol : ProtocolConfig.KESTREL;
            }
            return new ReferenceConfig<>(this);
        }
    }
}
