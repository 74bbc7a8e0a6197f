package io.kestrel.rpc.api.config;

import java.time.Duration;
import java.util.Objects;

/**
 * The consumer side of one runtime: settings of the connections it opens to providers. A runtime
 * keeps one connection per provider address, shared by every reference, so these are settings of
 * the runtime. A reference may set its own values (see {@link ReferenceConfig#connection()}),
 * but a reference whose values differ from those of the shared connection it would use is refused
 * at refer time, naming the reference that opened the connection: no setting is silently ignored.
 * The connection settings are one {@link ConnectionSettings} ({@link #connection()}), every value set.
 * Immutable; build with {@link #builder()}.
 */
public final class ClientConfig {
    private final int ioThreads;
    private final ConnectionSettings connection;

    private ClientConfig(int ioThreads, ConnectionSettings connection) {
        this.ioThreads = ioThreads;
        this.connection = connection;
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

    /** The settings of each connection, every value set (TLS and token may be null: none). */
    public ConnectionSettings connection() {
        return connection;
    }

    /** Calls in flight per connection beyond which new calls fail at once ({@code max-pending}). Default 65536. */
    public int maxPendingCalls() {
        return connection.maxPendingCalls();
    }

    /** Largest frame body sent or accepted ({@code payload}). Default 8 MiB. */
    public int payloadBytes() {
        return connection.payloadBytes();
    }

    /** TCP connect timeout ({@code connect-timeout}). Default 3 s. */
    public Duration connectTimeout() {
        return connection.connectTimeout();
    }

    /** Idle time after which a heartbeat is sent ({@code heartbeat}). Default 10 s. */
    public Duration heartbeatInterval() {
        return connection.heartbeatInterval();
    }

    /** A connection silent for this many heartbeat intervals is closed and reconnected. Default 3. */
    public int heartbeatMisses() {
        return connection.heartbeatMisses();
    }

    /**
     * TLS for connections to providers ({@code tls-*} on a reference), or null for plaintext (the
     * default). Providers that require TLS publish it; a consumer refers them only with TLS.
     */
    public TlsConfig tls() {
        return connection.tls();
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
        return connection.token();
    }

    /**
     * These settings with the connection settings {@code reference} sets itself in their place.
     *
     * @see ReferenceConfig#connection()
     */
    public ClientConfig with(ReferenceConfig<?> reference) {
        return new ClientConfig(ioThreads, reference.connection().over(connection));
    }

    /** A builder holding these settings. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.ioThreads = ioThreads;
        b.connection = connection.toBuilder("client");
        return b;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ClientConfig c && ioThreads == c.ioThreads && connection.equals(c.connection);
    }

    @Override
    public int hashCode() {
        return Objects.hash(ioThreads, connection);
    }

    @Override
    public String toString() {
        return "ClientConfig{io-threads=" + ioThreads + ", " + connection + "}";
    }

    public static final class Builder {
        private int ioThreads = Math.max(1, Math.min(2, Runtime.getRuntime().availableProcessors()));
        private ConnectionSettings.Builder connection = new ConnectionSettings.Builder("client").maxPendingCalls(65536)
                .payloadBytes(ProtocolConfig.DEFAULT_PAYLOAD_BYTES).connectTimeout(Duration.ofSeconds(3))
                .heartbeatInterval(Duration.ofSeconds(10)).heartbeatMisses(3);

        private Builder() {
        }

        /** See {@link ClientConfig#tls()}; null for plaintext. */
        public Builder tls(TlsConfig tls) {
            connection.tls(tls);
            return this;
        }

        /** See {@link ClientConfig#token()}; null or empty for none. */
        public Builder token(String token) {
            connection.token(token);
            return this;
        }

        public Builder ioThreads(int threads) {
            this.ioThreads = Checks.atLeast("client io-threads", threads, 1);
            return this;
        }

        public Builder maxPendingCalls(int max) {
            connection.maxPendingCalls(max);
            return this;
        }

        public Builder payloadBytes(int bytes) {
            connection.payloadBytes(bytes);
            return this;
        }

        public Builder connectTimeout(Duration timeout) {
            connection.connectTimeout(timeout);
            return this;
        }

        public Builder heartbeatInterval(Duration interval) {
            connection.heartbeatInterval(interval);
            return this;
        }

        public Builder heartbeatMisses(int misses) {
            connection.heartbeatMisses(misses);
            return this;
        }

        public ClientConfig build() {
            return new ClientConfig(ioThreads, connection.build());
        }
    }
}
