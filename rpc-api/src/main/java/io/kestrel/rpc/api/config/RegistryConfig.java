package io.kestrel.rpc.api.config;

import java.time.Duration;

/**
 * Where providers are published and found. Immutable; build with {@link #builder()}.
 *
 * <p>Addresses: {@code zookeeper://host:port[,host:port...]} for a ZooKeeper ensemble;
 * {@code embedded} (or no address at all) shares one real ZooKeeper among the processes of this host on
 * 127.0.0.1:2182 (system property {@code kestrel.rpc.registry.embedded.port}; 0 means a private one on a
 * free port): the first process hosts it (with {@code io.kestrel:rpc-registry-embedded} on its class path),
 * later ones join it, a survivor takes over when the host ends; {@code embedded://port} uses that port.
 */
public final class RegistryConfig {
    public static final String EMBEDDED = "embedded";

    private final String address;
    private final String root;
    private final String dubboRoot;
    private final Duration sessionTimeout;
    private final Duration connectionTimeout;
    private final boolean emptyProtection;

    private RegistryConfig(Builder b) {
        this.address = b.address;
        this.root = b.root;
        this.dubboRoot = b.dubboRoot;
        this.sessionTimeout = b.sessionTimeout;
        this.connectionTimeout = b.connectionTimeout;
        this.emptyProtection = b.emptyProtection;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The embedded ZooKeeper of this host (port 2182 unless {@code kestrel.rpc.registry.embedded.port} says otherwise). */
    public static RegistryConfig embedded() {
        return builder().build();
    }

    /** The configured address; {@value #EMBEDDED} when none was given. */
    public String address() {
        return address;
    }

    /** Scheme of the address: "zookeeper" or "embedded". */
    public String scheme() {
        int i = address.indexOf("://");
        return i < 0 ? address : address.substring(0, i);
    }

    /** Whether this config asks for an in-process ZooKeeper. */
    public boolean isEmbedded() {
        return scheme().equals(EMBEDDED);
    }

    /** Root path of all records in the registry. Default "/kestrel". */
    public String root() {
        return root;
    }

    /**
     * Root path of Apache Dubbo's layout, where providers on the {@code dubbo} protocol are also published
     * ({@code <dubbo-root>/<interface>/providers/<URL-encoded dubbo:// URL>}) and where references with
     * {@code protocol="dubbo"} look for providers, stock Dubbo ones included. Default "/dubbo", Dubbo's own
     * default (its registry's {@code group}).
     */
    public String dubboRoot() {
        return dubboRoot;
    }

    /** ZooKeeper session timeout. Default 30 s. */
    public Duration sessionTimeout() {
        return sessionTimeout;
    }

    /** How long to wait for the first connection. Default 10 s. */
    public Duration connectionTimeout() {
        return connectionTimeout;
    }

    /**
     * Whether a consumer keeps calling providers the registry no longer lists while their connections are
     * healthy ({@code empty-protection}). Default true: the registry is advice, the connection is truth. A provider
     * the registry dropped is let go when its connection fails (heartbeat, close) or the provider says it is going
     * away (graceful shutdown), and is then not reconnected. False: the consumer follows the registry's list at
     * once, closing the connections of providers it no longer lists.
     */
    public boolean emptyProtection() {
        return emptyProtection;
    }

    @Override
    public String toString() {
        return "RegistryConfig{" + address + ", root=" + root + ", dubboRoot=" + dubboRoot + ", session=" + sessionTimeout.toMillis() + "ms"
                + (emptyProtection ? "" : ", empty-protection=false") + "}";
    }

    public static final class Builder {
        private String address = EMBEDDED;
        private String root = "/kestrel";
        private String dubboRoot = "/dubbo";
        private Duration sessionTimeout = Duration.ofSeconds(30);
        private Duration connectionTimeout = Duration.ofSeconds(10);
        private boolean emptyProtection = true;

        private Builder() {
        }

        /** See the class comment; null or blank means embedded. */
        public Builder address(String address) {
            if (address == null || address.isBlank()) {
                this.address = EMBEDDED;
                return this;
            }
            String a = address.trim();
            if (!a.equals(EMBEDDED) && !a.startsWith(EMBEDDED + "://") && !a.startsWith("zookeeper://")) {
                throw new IllegalArgumentException("registry address '" + a
                        + "' is not understood; use zookeeper://host:port[,host:port...], or 'embedded'");
            }
            this.address = a;
            return this;
        }

        public Builder root(String root) {
            String r = Checks.nonBlank("registry root", root);
            this.root = r.startsWith("/") ? r : "/" + r;
            return this;
        }

        /** See {@link RegistryConfig#dubboRoot()}; a missing leading '/' is added. */
        public Builder dubboRoot(String dubboRoot) {
            String r = Checks.nonBlank("registry dubboRoot", dubboRoot);
            this.dubboRoot = r.startsWith("/") ? r : "/" + r;
            return this;
        }

        public Builder sessionTimeout(Duration timeout) {
            this.sessionTimeout = Checks.positive("registry sessionTimeout", timeout);
            return this;
        }

        public Builder connectionTimeout(Duration timeout) {
            this.connectionTimeout = Checks.positive("registry connectionTimeout", timeout);
            return this;
        }

        /** See {@link RegistryConfig#emptyProtection()}. */
        public Builder emptyProtection(boolean on) {
            this.emptyProtection = on;
            return this;
        }

        public RegistryConfig build() {
            return new RegistryConfig(this);
        }
    }
}
