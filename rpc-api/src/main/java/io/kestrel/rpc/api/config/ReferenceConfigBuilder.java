package io.kestrel.rpc.api.config;

import io.kestrel.rpc.api.interceptor.ClientInterceptor;
import io.kestrel.rpc.api.serialization.SerializationOptimizer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

/**
 * Builds a {@link ReferenceConfig}: get one with {@link ReferenceConfig#builder} or {@link ReferenceConfig#generic}.
 * Each setter checks its value; {@link #build()} checks what the settings say together.
 *
 * @param <T> the service interface
 */
public final class ReferenceConfigBuilder<T> {
    final Class<T> interfaceClass;
    String genericInterface;
    String version = "";
    String group = "";
    Duration timeout;
    int retries = 2;
    String loadBalance = "random";
    ClusterMode cluster = ClusterMode.FAILOVER;
    String serialization;
    Class<? extends SerializationOptimizer> optimizer;
    String url;
    String protocol;
    String urlProtocol;
    boolean check = true;
    boolean idempotent;
    boolean compatible;
    ConnectionSettings.Builder connection = ConnectionSettings.builder();
    final Set<String> allowedPackages = new LinkedHashSet<>();
    final List<ClientInterceptor> interceptors = new ArrayList<>();
    int actives;
    boolean propagateDeadline = true;
    ResilienceConfig resilience = ResilienceConfig.defaults();

    ReferenceConfigBuilder(Class<T> interfaceClass) {
        Objects.requireNonNull(interfaceClass, "reference interface");
        if (!interfaceClass.isInterface()) {
            throw new IllegalArgumentException("reference interface " + interfaceClass.getName()
                    + " is a class; refer to an interface");
        }
        this.interfaceClass = interfaceClass;
    }

    public ReferenceConfigBuilder<T> version(String version) {
        this.version = Checks.orEmpty(version);
        return this;
    }

    public ReferenceConfigBuilder<T> group(String group) {
        this.group = Checks.orEmpty(group);
        return this;
    }

    /** See {@link ReferenceConfig#timeout()}; at least 1 ms. */
    public ReferenceConfigBuilder<T> timeout(Duration timeout) {
        this.timeout = Checks.positiveMillis("reference timeout", timeout);
        return this;
    }

    public ReferenceConfigBuilder<T> retries(int retries) {
        this.retries = Checks.atLeast("reference retries", retries, 0);
        return this;
    }

    public ReferenceConfigBuilder<T> loadBalance(String name) {
        this.loadBalance = Checks.nonBlank("reference loadbalance", name).toLowerCase(Locale.ROOT);
        return this;
    }

    /** Parse configuration text with {@link ClusterMode#byName}. */
    public ReferenceConfigBuilder<T> cluster(ClusterMode mode) {
        this.cluster = Objects.requireNonNull(mode, "reference cluster");
        return this;
    }

    public ReferenceConfigBuilder<T> serialization(String name) {
        this.serialization = name == null || name.isBlank() ? null : name.trim().toLowerCase(Locale.ROOT);
        return this;
    }

    public ReferenceConfigBuilder<T> optimizer(Class<? extends SerializationOptimizer> optimizer) {
        this.optimizer = optimizer;
        return this;
    }

    /**
     * Direct provider addresses, {@code host:port[,host:port...]}; each may be written
     * {@code dubbo://host:port} (the reference then speaks the dubbo protocol) or {@code kestrel://host:port}.
     * A path after host:port is ignored, as before (Dubbo users write the interface there).
     */
    public ReferenceConfigBuilder<T> url(String url) {
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
    public ReferenceConfigBuilder<T> protocol(String name) {
        if (name == null || name.isBlank()) {
            this.protocol = null;
            return this;
        }
        this.protocol = ProtocolNames.checked("reference protocol", name, "the default", "to call Apache Dubbo providers");
        return this;
    }

    public ReferenceConfigBuilder<T> check(boolean check) {
        this.check = check;
        return this;
    }

    public ReferenceConfigBuilder<T> idempotent(boolean idempotent) {
        this.idempotent = idempotent;
        return this;
    }

    public ReferenceConfigBuilder<T> compatible(boolean compatible) {
        this.compatible = compatible;
        return this;
    }

    /** Replaces the connection settings set so far; see {@link ReferenceConfig#connection()}. */
    public ReferenceConfigBuilder<T> connection(ConnectionSettings settings) {
        this.connection = settings.toBuilder("reference");
        return this;
    }

    public ReferenceConfigBuilder<T> maxPendingCalls(int max) {
        connection.maxPendingCalls(max);
        return this;
    }

    public ReferenceConfigBuilder<T> payloadBytes(int bytes) {
        connection.payloadBytes(bytes);
        return this;
    }

    public ReferenceConfigBuilder<T> connectTimeout(Duration timeout) {
        connection.connectTimeout(timeout);
        return this;
    }

    public ReferenceConfigBuilder<T> heartbeatInterval(Duration interval) {
        connection.heartbeatInterval(interval);
        return this;
    }

    public ReferenceConfigBuilder<T> heartbeatMisses(int misses) {
        connection.heartbeatMisses(misses);
        return this;
    }

    /** See {@link ReferenceConfig#tls()}. */
    public ReferenceConfigBuilder<T> tls(TlsConfig tls) {
        connection.tls(tls);
        return this;
    }

    /** See {@link ReferenceConfig#token()}; null or empty: the runtime's. */
    public ReferenceConfigBuilder<T> token(String token) {
        connection.token(token);
        return this;
    }

    public ReferenceConfigBuilder<T> allowPackage(String prefix) {
        this.allowedPackages.add(Checks.nonBlank("reference allowed-packages entry", prefix));
        return this;
    }

    /** Adds an interceptor for this reference's calls; see {@link ReferenceConfig#interceptors()}. */
    public ReferenceConfigBuilder<T> interceptor(ClientInterceptor interceptor) {
        this.interceptors.add(Objects.requireNonNull(interceptor, "reference interceptor"));
        return this;
    }

    /** See {@link ReferenceConfig#actives()}; 0 for no limit. */
    public ReferenceConfigBuilder<T> actives(int actives) {
        this.actives = Checks.atLeast("reference actives", actives, 0);
        return this;
    }

    /** See {@link ReferenceConfig#propagateDeadline()}. */
    public ReferenceConfigBuilder<T> propagateDeadline(boolean propagate) {
        this.propagateDeadline = propagate;
        return this;
    }

    /** See {@link ReferenceConfig#resilience()}. */
    public ReferenceConfigBuilder<T> resilience(ResilienceConfig resilience) {
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
