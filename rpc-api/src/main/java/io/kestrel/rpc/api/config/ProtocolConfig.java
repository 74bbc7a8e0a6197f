package io.kestrel.rpc.api.config;

import io.kestrel.rpc.api.serialization.SerializationOptimizer;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Set;
import io.kestrel.rpc.api.security.Authenticator;

/**
 * How a provider listens and how frames are encoded: port, serialization, threads, limits.
 * Immutable; build with {@link #builder()}. XML: {@code <rpc:protocol .../>}, attribute names in
 * each method's Javadoc.
 */
public final class ProtocolConfig {
    public static final int DEFAULT_PAYLOAD_BYTES = 8 * 1024 * 1024;
    /** The native protocol's name (the default). */
    public static final String KESTREL = "kestrel";
    /** Apache Dubbo's {@code dubbo} protocol: its 16-byte header and hessian2 (or fastjson2) bodies. */
    public static final String DUBBO = "dubbo";
    /** The protocol names this framework speaks. */
    public static final java.util.List<String> NAMES = java.util.List.of(KESTREL, DUBBO);

    private final String name;

    /** The serializations the {@value #DUBBO} protocol speaks, as Dubbo names them. */
    public static final java.util.List<String> DUBBO_SERIALIZATIONS = java.util.List.of("hessian2", "fastjson2");

    private final String host;
    private final boolean hostSet;
    private final String advertisedHost;
    private final boolean advertisedHostSet;
    private final int port;
    private final String serialization;
    private final Class<? extends SerializationOptimizer> optimizer;
    private final int threads;
    private final boolean virtualThreads;
    private final int queueCapacity;
    private final int ioThreads;
    private final int payloadBytes;
    private final Set<String> allowedPackages;
    private final boolean compatible;
    private final Duration heartbeatInterval;
    private final int heartbeatMisses;
    private final Duration shutdownTimeout;
    private final ServerLimits limits;
    private final TlsConfig tls;
    private final String authenticatorName;
    private final Authenticator authenticator;

    private ProtocolConfig(Builder b) {
        this.name = b.name;
        this.host = b.host;
        this.hostSet = b.hostSet;
        this.advertisedHost = b.advertisedHost != null ? b.advertisedHost : b.host;
        this.advertisedHostSet = b.advertisedHostSet;
        this.port = b.port;
        this.serialization = b.serialization;
        this.optimizer = b.optimizer;
        this.threads = b.threads;
        this.virtualThreads = b.virtualThreads;
        this.queueCapacity = b.queueCapacity;
        this.ioThreads = b.ioThreads;
        this.payloadBytes = b.payloadBytes;
        this.allowedPackages = Set.copyOf(b.allowedPackages);
        this.compatible = b.compatible;
        this.heartbeatInterval = b.heartbeatInterval;
        this.heartbeatMisses = b.heartbeatMisses;
        this.shutdownTimeout = b.shutdownTimeout;
        this.limits = b.limits;
        this.tls = b.tls;
        this.authenticatorName = b.authenticatorName;
        this.authenticator = b.authenticator;
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * The wire protocol ({@code name}): {@value #KESTREL} (the default, the native protocol) or {@value #DUBBO}
     * (Apache Dubbo's {@code dubbo} protocol, so stock Dubbo consumers can call this runtime's services). With
     * {@value #DUBBO} the serialization defaults to hessian2, Dubbo's default, and must be hessian2 or fastjson2
     * (Dubbo's serialization id 23).
     */
    public String name() {
        return name;
    }

    /**
     * Address to bind ({@code host}). Default "127.0.0.1"; use "0.0.0.0" for all interfaces. When it is not set
     * and the registry is not on this host (see {@link RegistryConfig#isLocal()}), a provider binds all
     * interfaces and publishes a reachable address instead (docs/across-hosts.md).
     */
    public String host() {
        return host;
    }

    /** Whether {@code host} was set (false: the default applies, see {@link #host()}). */
    public boolean hostSet() {
        return hostSet;
    }

    /**
     * Address published in the registry ({@code advertised-host}). Default: {@link #host()}; when that is unset
     * or "0.0.0.0" the runtime chooses one other hosts can reach unless the registry is local (environment
     * variable {@code KESTREL_ADVERTISE_HOST} overrides the choice; see docs/across-hosts.md).
     */
    public String advertisedHost() {
        return advertisedHost;
    }

    /** Whether {@code advertised-host} was set. */
    public boolean advertisedHostSet() {
        return advertisedHostSet;
    }

    /** Port to listen on ({@code port}); 0 picks a free one. Default 20880. */
    public int port() {
        return port;
    }

    /**
     * The serialization a provider's services accept and publish as preferred ({@code serialization}); references
     * that set none adopt their provider's, so it is set on the provider only. A consumer runtime uses its own
     * only for providers that publish no preference (earlier versions). Default "fory": in the
     * perf-test matrix it is the fastest end to end, it is as compact as kryo, its plain mode fails
     * loudly (instead of misreading, as plain kryo does) when a DTO changed between versions, and
     * {@code compatible} makes it tolerate added, removed and reordered fields at little cost.
     */
    public String serialization() {
        return serialization;
    }

    /**
     * Class registering serializable classes ({@code optimizer}), or null. On a provider it is published with its
     * class list and fingerprint; references that set none load it by name. A consumer's protocol optimizer serves
     * only providers that publish none (earlier versions).
     */
    public Class<? extends SerializationOptimizer> optimizer() {
        return optimizer;
    }

    /**
     * Business threads that run service methods ({@code threads}). Default 200. 0 runs methods on
     * the I/O thread, for services that never block.
     */
    public int threads() {
        return threads;
    }

    /**
     * Whether service methods run on virtual threads ({@code threads="virtual"}), one per call, on JDK 21+.
     * Concurrency is then bounded by {@code calls-per-connection}, {@code max-connections} and the memory
     * budget instead of a pool. On an older JDK the server logs at startup that it cannot and uses
     * {@link #threads()} platform threads. Default false.
     */
    public boolean virtualThreads() {
        return virtualThreads;
    }

    /** Calls that may wait for a business thread ({@code queues}); beyond it callers get "server busy". Default 0. */
    public int queueCapacity() {
        return queueCapacity;
    }

    /** Netty I/O threads ({@code iothreads}). Default: available processors. */
    public int ioThreads() {
        return ioThreads;
    }

    /** Largest frame body accepted or sent, in bytes ({@code payload}). Default 8 MiB. */
    public int payloadBytes() {
        return payloadBytes;
    }

    /** Packages or classes allowed for deserialization besides the defaults ({@code allowed-packages}). */
    public Set<String> allowedPackages() {
        return allowedPackages;
    }

    /** Tolerate fields added, removed or reordered between versions ({@code compatible}). Default false. */
    public boolean compatible() {
        return compatible;
    }

    /** Idle time after which a heartbeat is sent ({@code heartbeat}). Default 10 s. */
    public Duration heartbeatInterval() {
        return heartbeatInterval;
    }

    /** A connection silent for this many heartbeat intervals is closed. Default 3. */
    public int heartbeatMisses() {
        return heartbeatMisses;
    }

    /** How long a stopping server waits for in-flight calls ({@code shutdown-timeout}). Default 10 s. */
    public Duration shutdownTimeout() {
        return shutdownTimeout;
    }

    /** What one client may cost this provider: connections, calls, memory, slow frames and readers. */
    public ServerLimits limits() {
        return limits;
    }

    /**
     * TLS on this port ({@code tls-*} attributes), or null for plaintext (the default). With TLS the
     * port speaks only TLS; its registry records say so ({@code tls=true}).
     */
    public TlsConfig tls() {
        return tls;
    }

    /**
     * Name of the {@link Authenticator} that checks consumers' tokens ({@code authenticator}), found
     * with {@link java.util.ServiceLoader}; null when none is named.
     */
    public String authenticatorName() {
        return authenticatorName;
    }

    /** The {@link Authenticator} instance given programmatically, or null. */
    public Authenticator authenticator() {
        return authenticator;
    }

    @Override
    public String toString() {
        return "ProtocolConfig{" + (name.equals(KESTREL) ? "" : name + " ") + host + ":" + port + ", serialization=" + serialization
                + (optimizer != null ? ", optimizer=" + optimizer.getName() : "") + ", threads=" + (virtualThreads ? "virtual" : threads)
                + ", queues=" + queueCapacity + ", payload=" + payloadBytes + (compatible ? ", compatible" : "")
                + (tls != null ? ", " + tls : "") + (authenticatorName != null ? ", authenticator=" + authenticatorName
                : authenticator != null ? ", authenticator=" + authenticator.name() : "") + "}";
    }

    public static final class Builder {
        private String name = KESTREL;
        private boolean serializationSet;
        private String host = "127.0.0.1";
        private boolean hostSet;
        private String advertisedHost;
        private boolean advertisedHostSet;
        private int port = 20880;
        private String serialization = "fory";
        private Class<? extends SerializationOptimizer> optimizer;
        private int threads = 200;
        private boolean virtualThreads;
        private int queueCapacity;
        private int ioThreads = Runtime.getRuntime().availableProcessors();
        private int payloadBytes = DEFAULT_PAYLOAD_BYTES;
        private final Set<String> allowedPackages = new LinkedHashSet<>();
        private boolean compatible;
        private Duration heartbeatInterval = Duration.ofSeconds(10);
        private int heartbeatMisses = 3;
        private Duration shutdownTimeout = Duration.ofSeconds(10);
        private ServerLimits limits = ServerLimits.defaults();
        private TlsConfig tls;
        private String authenticatorName;
        private Authenticator authenticator;

        private Builder() {
        }

        /** TLS on this port; null for plaintext. See {@link ProtocolConfig#tls()}. */
        public Builder tls(TlsConfig tls) {
            this.tls = tls;
            return this;
        }

        /** The authenticator by its name ({@code authenticator}); see {@link ProtocolConfig#authenticatorName()}. */
        public Builder authenticator(String name) {
            this.authenticatorName = Checks.nonBlank("protocol authenticator", name);
            this.authenticator = null;
            return this;
        }

        /** The authenticator as an instance. */
        public Builder authenticator(Authenticator authenticator) {
            this.authenticator = Objects.requireNonNull(authenticator, "protocol authenticator");
            this.authenticatorName = null;
            return this;
        }

        /** See {@link ProtocolConfig#name()}; one of {@link ProtocolConfig#NAMES}. */
        public Builder name(String name) {
            Checks.nonBlank("protocol name", name);
            this.name = ProtocolNames.checked("protocol name", name, "the native protocol, the default",
                    "Apache Dubbo's dubbo protocol");
            return this;
        }

        public Builder host(String host) {
            this.host = Checks.nonBlank("protocol host", host);
            this.hostSet = true;
            return this;
        }

        public Builder advertisedHost(String host) {
            this.advertisedHost = host == null || host.isBlank() ? null : host.trim();
            this.advertisedHostSet = advertisedHost != null;
            return this;
        }

        public Builder port(int port) {
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("protocol port must be 0..65535, was " + port);
            }
            this.port = port;
            return this;
        }

        /** Name of an installed serialization; checked when the protocol is used. */
        public Builder serialization(String name) {
            this.serialization = Checks.nonBlank("protocol serialization", name).toLowerCase(java.util.Locale.ROOT);
            this.serializationSet = true;
            return this;
        }

        public Builder optimizer(Class<? extends SerializationOptimizer> optimizer) {
            this.optimizer = optimizer;
            return this;
        }

        public Builder threads(int threads) {
            this.threads = Checks.atLeast("protocol threads", threads, 0);
            return this;
        }

        /** See {@link ProtocolConfig#virtualThreads()}; {@link #threads(int)} is the fallback on JDKs before 21. */
        public Builder virtualThreads(boolean virtualThreads) {
            this.virtualThreads = virtualThreads;
            return this;
        }

        public Builder queueCapacity(int queueCapacity) {
            this.queueCapacity = Checks.atLeast("protocol queues", queueCapacity, 0);
            return this;
        }

        public Builder ioThreads(int ioThreads) {
            this.ioThreads = Checks.atLeast("protocol iothreads", ioThreads, 1);
            return this;
        }

        public Builder payloadBytes(int payloadBytes) {
            this.payloadBytes = Checks.atLeast("protocol payload", payloadBytes, 1024);
            return this;
        }

        public Builder allowPackage(String prefix) {
            this.allowedPackages.add(Checks.nonBlank("protocol allowed-packages entry", prefix));
            return this;
        }

        public Builder compatible(boolean compatible) {
            this.compatible = compatible;
            return this;
        }

        public Builder heartbeatInterval(Duration interval) {
            this.heartbeatInterval = Checks.positive("protocol heartbeat", interval);
            return this;
        }

        public Builder heartbeatMisses(int misses) {
            this.heartbeatMisses = Checks.atLeast("protocol heartbeat misses", misses, 1);
            return this;
        }

        public Builder shutdownTimeout(Duration timeout) {
            this.shutdownTimeout = Checks.positive("protocol shutdown-timeout", timeout);
            return this;
        }

        public Builder limits(ServerLimits limits) {
            this.limits = Objects.requireNonNull(limits, "protocol limits");
            return this;
        }

        public ProtocolConfig build() {
            Objects.requireNonNull(serialization);
            if (name.equals(DUBBO)) {
                serialization = ProtocolNames.dubboSerialization(tls != null || authenticatorName != null
                        || authenticator != null, serializationSet, serialization);
            }
            return new ProtocolConfig(this);
        }
    }
}
