package io.kestrel.rpc.api.config;

import io.kestrel.rpc.api.serialization.SerializationOptimizer;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Set;
import io.kestrel.rpc.api.security.Authenticator;

/** Builds a {@link ProtocolConfig}: get one with {@link ProtocolConfig#builder()}. */
public final class ProtocolConfigBuilder {
    String name = ProtocolConfig.KESTREL;
    boolean serializationSet;
    String host = "127.0.0.1";
    boolean hostSet;
    String advertisedHost;
    boolean advertisedHostSet;
    int port = 20880;
    String serialization = "fory";
    Class<? extends SerializationOptimizer> optimizer;
    int threads = 200;
    boolean virtualThreads;
    int queueCapacity;
    int ioThreads = Runtime.getRuntime().availableProcessors();
    int payloadBytes = ProtocolConfig.DEFAULT_PAYLOAD_BYTES;
    final Set<String> allowedPackages = new LinkedHashSet<>();
    boolean compatible;
    Duration heartbeatInterval = Duration.ofSeconds(10);
    int heartbeatMisses = 3;
    Duration shutdownTimeout = Duration.ofSeconds(10);
    ServerLimits limits = ServerLimits.defaults();
    TlsConfig tls;
    String authenticatorName;
    Authenticator authenticator;

    ProtocolConfigBuilder() {
    }

    /** TLS on this port; null for plaintext. See {@link ProtocolConfig#tls()}. */
    public ProtocolConfigBuilder tls(TlsConfig tls) {
        this.tls = tls;
        return this;
    }

    /** The authenticator by its name ({@code authenticator}); see {@link ProtocolConfig#authenticatorName()}. */
    public ProtocolConfigBuilder authenticator(String name) {
        this.authenticatorName = Checks.nonBlank("protocol authenticator", name);
        this.authenticator = null;
        return this;
    }

    /** The authenticator as an instance. */
    public ProtocolConfigBuilder authenticator(Authenticator authenticator) {
        this.authenticator = Objects.requireNonNull(authenticator, "protocol authenticator");
        this.authenticatorName = null;
        return this;
    }

    /** See {@link ProtocolConfig#name()}; one of {@link ProtocolConfig#NAMES}. */
    public ProtocolConfigBuilder name(String name) {
        Checks.nonBlank("protocol name", name);
        this.name = ProtocolNames.checked("protocol name", name, "the native protocol, the default",
                "Apache Dubbo's dubbo protocol");
        return this;
    }

    public ProtocolConfigBuilder host(String host) {
        this.host = Checks.nonBlank("protocol host", host);
        this.hostSet = true;
        return this;
    }

    public ProtocolConfigBuilder advertisedHost(String host) {
        this.advertisedHost = host == null || host.isBlank() ? null : host.trim();
        this.advertisedHostSet = advertisedHost != null;
        return this;
    }

    public ProtocolConfigBuilder port(int port) {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("protocol port must be 0..65535, was " + port);
        }
        this.port = port;
        return this;
    }

    /** Name of an installed serialization; checked when the protocol is used. */
    public ProtocolConfigBuilder serialization(String name) {
        this.serialization = Checks.nonBlank("protocol serialization", name).toLowerCase(java.util.Locale.ROOT);
        this.serializationSet = true;
        return this;
    }

    public ProtocolConfigBuilder optimizer(Class<? extends SerializationOptimizer> optimizer) {
        this.optimizer = optimizer;
        return this;
    }

    public ProtocolConfigBuilder threads(int threads) {
        this.threads = Checks.atLeast("protocol threads", threads, 0);
        return this;
    }

    /** See {@link ProtocolConfig#virtualThreads()}; {@link #threads(int)} is the fallback on JDKs before 21. */
    public ProtocolConfigBuilder virtualThreads(boolean virtualThreads) {
        this.virtualThreads = virtualThreads;
        return this;
    }

    public ProtocolConfigBuilder queueCapacity(int queueCapacity) {
        this.queueCapacity = Checks.atLeast("protocol queues", queueCapacity, 0);
        return this;
    }

    public ProtocolConfigBuilder ioThreads(int ioThreads) {
        this.ioThreads = Checks.atLeast("protocol iothreads", ioThreads, 1);
        return this;
    }

    public ProtocolConfigBuilder payloadBytes(int payloadBytes) {
        this.payloadBytes = Checks.atLeast("protocol payload", payloadBytes, 1024);
        return this;
    }

    public ProtocolConfigBuilder allowPackage(String prefix) {
        this.allowedPackages.add(Checks.nonBlank("protocol allowed-packages entry", prefix));
        return this;
    }

    public ProtocolConfigBuilder compatible(boolean compatible) {
        this.compatible = compatible;
        return this;
    }

    public ProtocolConfigBuilder heartbeatInterval(Duration interval) {
        this.heartbeatInterval = Checks.positive("protocol heartbeat", interval);
        return this;
    }

    public ProtocolConfigBuilder heartbeatMisses(int misses) {
        this.heartbeatMisses = Checks.atLeast("protocol heartbeat misses", misses, 1);
        return this;
    }

    public ProtocolConfigBuilder shutdownTimeout(Duration timeout) {
        this.shutdownTimeout = Checks.positive("protocol shutdown-timeout", timeout);
        return this;
    }

    public ProtocolConfigBuilder limits(ServerLimits limits) {
        this.limits = Objects.requireNonNull(limits, "protocol limits");
        return this;
    }

    public ProtocolConfig build() {
        Objects.requireNonNull(serialization);
        if (name.equals(ProtocolConfig.DUBBO)) {
            serialization = ProtocolNames.dubboSerialization(tls != null || authenticatorName != null
                    || authenticator != null, serializationSet, serialization);
        }
        return new ProtocolConfig(this);
    }
}
