package io.kestrel.rpc.api.config;

import java.time.Duration;
import java.util.Objects;

/**
 * The consumer side of one runtime: settings of the connections it opens to providers. A runtime
 * keeps one connection per provider address, shared by every reference, so these are settings of
 * the runtime. A reference may set its own values (see {@link ReferenceConfig#payloadBytes()}),
 * but a reference whose values differ from those of the shared connection it would use is refused
 * at refer time, naming the reference that opened the connection: no setting is silently ignored.
 * Immutable; build with {@link #builder()}.
 */
public final class ClientConfig {
    private final int ioThreads;
    private final int maxPendingCalls;
    private final int payloadBytes;
    private final Duration connectTimeout;
    private final Duration heartbeatInterval;
    private final int heartbeatMisses;
    private final TlsConfig tls;
    private final String token;

    private ClientConfig(Builder b) {
        this.ioThreads = b.ioThreads;
        this.maxPendingCalls = b.maxPendingCalls;
        this.payloadBytes = b.payloadBytes;
        this.connectTimeout = b.connectTimeout;
        this.heartbeatInterval = b.heartbeatInterval;
        this.heartbeatMisses = b.heartbeatMisses;
        this.tls = b.tls;
        this.token = b.token;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The defaults. */
    public static ClientConfig defaults() {
        return builder().build();
    }

    /** Event-loop threads shared by all connections. Default: 2, or 1 on a one-core machine. */
    public int ioThreads() {
        return ioThreads;
    }

    /** Calls in flight per connection beyond which new calls fail at once ({@code max-pending}). Default 65536. */
    public int maxPendingCalls() {
        return maxPendingCalls;
    }

    /** Largest frame body sent or accepted ({@code payload}). Default 8 MiB. */
    public int payloadBytes() {
        return payloadBytes;
    }

    /** TCP connect timeout ({@code connect-timeout}). Default 3 s. */
    public Duration connectTimeout() {
        return connectTimeout;
    }

    /** Idle time after which a heartbeat is sent ({@code heartbeat}). Default 10 s. */
    public Duration heartbeatInterval() {
        return heartbeatInterval;
    }

    /** A connection silent for this many heartbeat intervals is closed and reconnected. Default 3. */
    public int heartbeatMisses() {
        return heartbeatMisses;
    }

    /**
     * TLS for connections to providers ({@code tls-*} on a reference), or null for plaintext (the
     * default). Providers that require TLS publish it; a consumer refers them only with TLS.
     */
    public TlsConfig tls() {
        return tls;
    }

    /**
     * The bearer token sent to each provider once per connection, right after the TLS handshake
     * ({@code token}), checked by the provider's authenticator; null for none. Send tokens over TLS
     * only: on a plaintext connection anyone on the path can read them. With TLS, a reference with a
     * token needs {@link TlsConfig#trustRoots() tls-trust}: it is refused at refer time without it,
     * since the JDK's default trust store accepts any host with a public certificate under a name the
     * registry chose (opt out with {@code -Dkestrel.rpc.consumer.tokenWithDefaultTrust=true}; see
     * {@link io.kestrel.rpc.api.ConsumerLimits}).
     */
    public String token() {
        return token;
    }

    /**
     * These settings with the connection settings {@code reference} sets itself in their place.
     *
     * @see ReferenceConfig#maxPendingCalls()
     */
    public ClientConfig with(ReferenceConfig<?> reference) {
        Builder b = toBuilder();
        if (reference.maxPendingCalls() != null) {
            b.maxPendingCalls(reference.maxPendingCalls());
        }
        if (reference.payloadBytes() != null) {
            b.payloadBytes(reference.payloadBytes());
        }
        if (reference.connectTimeout() != null) {
            b.connectTimeout(reference.connectTimeout());
        }
        if (reference.heartbeatInterval() != null) {
            b.heartbeatInterval(reference.heartbeatInterval());
        }
        if (reference.heartbeatMisses() != null) {
            b.heartbeatMisses(reference.heartbeatMisses());
        }
        if (reference.tls() != null) {
            b.tls(reference.tls());
        }
        if (reference.token() != null) {
            b.token(reference.token());
        }
        return b.build();
    }

    /** A builder holding these settings. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.ioThreads = ioThreads;
        b.maxPendingCalls = maxPendingCalls;
        b.payloadBytes = payloadBytes;
        b.connectTimeout = connectTimeout;
        b.heartbeatInterval = heartbeatInterval;
        b.heartbeatMisses = heartbeatMisses;
        b.tls = tls;
        b.token = token;
        return b;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ClientConfig c && ioThreads == c.ioThreads && maxPendingCalls == c.maxPendingCalls
                && payloadBytes == c.payloadBytes && connectTimeout.equals(c.connectTimeout)
                && heartbeatInterval.equals(c.heartbeatInterval) && heartbeatMisses == c.heartbeatMisses
                && Objects.equals(tls, c.tls) && Objects.equals(token, c.token);
    }

    @Override
    public int hashCode() {
        return Objects.hash(ioThreads, maxPendingCalls, payloadBytes, connectTimeout, heartbeatInterval, heartbeatMisses,
                tls, token);
    }

    @Override
    public String toString() {
        return "ClientConfig{io-threads=" + ioThreads + ", max-pending=" + maxPendingCalls + ", payload=" + payloadBytes
                + ", connect-timeout=" + connectTimeout.toMillis() + "ms, heartbeat=" + heartbeatInterval.toMillis()
                + "ms, heartbeat-misses=" + heartbeatMisses + (tls != null ? ", " + tls : "")
                + (token != null ? ", token=(set)" : "") + "}";
    }

    public static final class Builder {
        private int ioThreads = Math.max(1, Math.min(2, Runtime.getRuntime().availableProcessors()));
        private int maxPendingCalls = 65536;
        private int payloadBytes = ProtocolConfig.DEFAULT_PAYLOAD_BYTES;
        private Duration connectTimeout = Duration.ofSeconds(3);
        private Duration heartbeatInterval = Duration.ofSeconds(10);
        private int heartbeatMisses = 3;
        private TlsConfig tls;
        private String token;

        private Builder() {
        }

        /** See {@link ClientConfig#tls()}; null for plaintext. */
        public Builder tls(TlsConfig tls) {
            this.tls = tls;
            return this;
        }

        /** See {@link ClientConfig#token()}; null or empty for none. */
        public Builder token(String token) {
            this.token = Checks.token("client token", token);
            return this;
        }

        public Builder ioThreads(int threads) {
            this.ioThreads = Checks.atLeast("client io-threads", threads, 1);
            return this;
        }

        public Builder maxPendingCalls(int max) {
            this.maxPendingCalls = Checks.atLeast("client max-pending", max, 1);
            return this;
        }

        public Builder payloadBytes(int bytes) {
            this.payloadBytes = Checks.atLeast("client payload", bytes, 1024);
            return this;
        }

        public Builder connectTimeout(Duration timeout) {
            this.connectTimeout = Checks.positive("client connect-timeout", timeout);
            return this;
        }

        public Builder heartbeatInterval(Duration interval) {
            this.heartbeatInterval = Checks.positive("client heartbeat", interval);
            return this;
        }

        public Builder heartbeatMisses(int misses) {
            this.heartbeatMisses = Checks.atLeast("client heartbeat misses", misses, 1);
            return this;
        }

        public ClientConfig build() {
            return new ClientConfig(this);
        }
    }
}
