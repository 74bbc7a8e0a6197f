package io.kestrel.rpc.api.config;

import java.time.Duration;
import java.util.Objects;

/**
 * The settings of the connections a consumer opens to providers, in one place. A runtime keeps one
 * connection per provider address, shared by every reference, so these are the runtime's
 * ({@link ClientConfig#connection()}, every value set); a reference may set some of them
 * ({@link ReferenceConfig#connection()}, unset ones null) and is refused at refer time when its values differ
 * from those of the shared connection it would use. Immutable; build with {@link #builder()}.
 */
public final class ConnectionSettings {
    private static final ConnectionSettings NONE = builder().build();

    private final Integer maxPendingCalls;
    private final Integer payloadBytes;
    private final Duration connectTimeout;
    private final Duration heartbeatInterval;
    private final Integer heartbeatMisses;
    private final TlsConfig tls;
    private final String token;

    private ConnectionSettings(Builder b) {
        this.maxPendingCalls = b.maxPendingCalls;
        this.payloadBytes = b.payloadBytes;
        this.connectTimeout = b.connectTimeout;
        this.heartbeatInterval = b.heartbeatInterval;
        this.heartbeatMisses = b.heartbeatMisses;
        this.tls = b.tls;
        this.token = b.token;
    }

    /** A builder with nothing set; messages about bad values name the {@code reference} setting. */
    public static Builder builder() {
        return new Builder("reference");
    }

    /** Nothing set. */
    public static ConnectionSettings none() {
        return NONE;
    }

    /** Calls in flight per connection beyond which new calls fail at once ({@code max-pending}), or null. */
    public Integer maxPendingCalls() {
        return maxPendingCalls;
    }

    /** Largest frame body sent or accepted ({@code payload}), or null. */
    public Integer payloadBytes() {
        return payloadBytes;
    }

    /** TCP connect timeout ({@code connect-timeout}), or null. */
    public Duration connectTimeout() {
        return connectTimeout;
    }

    /** Idle time after which a heartbeat is sent ({@code heartbeat}), or null. */
    public Duration heartbeatInterval() {
        return heartbeatInterval;
    }

    /** Silent heartbeat intervals after which a connection is closed and reconnected, or null. */
    public Integer heartbeatMisses() {
        return heartbeatMisses;
    }

    /** TLS to the providers ({@code tls-*}), or null: plaintext, or for a reference the runtime's. */
    public TlsConfig tls() {
        return tls;
    }

    /** The token sent once per connection ({@code token}), or null: none, or for a reference the runtime's. */
    public String token() {
        return token;
    }

    /** These settings where set, {@code base}'s where not. */
    public ConnectionSettings over(ConnectionSettings base) {
        Builder b = base.toBuilder("client");
        b.maxPendingCalls = Objects.requireNonNullElse(maxPendingCalls, base.maxPendingCalls);
        b.payloadBytes = Objects.requireNonNullElse(payloadBytes, base.payloadBytes);
        b.connectTimeout = Objects.requireNonNullElse(connectTimeout, base.connectTimeout);
        b.heartbeatInterval = Objects.requireNonNullElse(heartbeatInterval, base.heartbeatInterval);
        b.heartbeatMisses = Objects.requireNonNullElse(heartbeatMisses, base.heartbeatMisses);
        b.tls = tls != null ? tls : base.tls;
        b.token = token != null ? token : base.token;
        return b.build();
    }

    /** A builder holding these settings, whose messages name the {@code owner}'s settings ("client", "reference"). */
    Builder toBuilder(String owner) {
        Builder b = new Builder(owner);
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
        return o instanceof ConnectionSettings c && Objects.equals(maxPendingCalls, c.maxPendingCalls)
                && Objects.equals(payloadBytes, c.payloadBytes) && Objects.equals(connectTimeout, c.connectTimeout)
                && Objects.equals(heartbeatInterval, c.heartbeatInterval)
                && Objects.equals(heartbeatMisses, c.heartbeatMisses) && Objects.equals(tls, c.tls)
                && Objects.equals(token, c.token);
    }

    @Override
    public int hashCode() {
        return Objects.hash(maxPendingCalls, payloadBytes, connectTimeout, heartbeatInterval, heartbeatMisses, tls, token);
    }

    /** The set values, e.g. {@code max-pending=65536, payload=8388608, connect-timeout=3000ms}. */
    @Override
    public String toString() {
        StringBuilder s = new StringBuilder();
        append(s, "max-pending", maxPendingCalls);
        append(s, "payload", payloadBytes);
        append(s, "connect-timeout", connectTimeout != null ? connectTimeout.toMillis() + "ms" : null);
        append(s, "heartbeat", heartbeatInterval != null ? heartbeatInterval.toMillis() + "ms" : null);
        append(s, "heartbeat-misses", heartbeatMisses);
        if (tls != null) {
            s.append(s.length() > 0 ? ", " : "").append(tls);
        }
        append(s, "token", token != null ? "(set)" : null);
        return s.toString();
    }

    private static void append(StringBuilder s, String name, Object value) {
        if (value != null) {
            s.append(s.length() > 0 ? ", " : "").append(name).append('=').append(value);
        }
    }

    /** Each setter validates its value; a setting never called stays unset (null). */
    public static final class Builder {
        private final String owner;
        private Integer maxPendingCalls;
        private Integer payloadBytes;
        private Duration connectTimeout;
        private Duration heartbeatInterval;
        private Integer heartbeatMisses;
        private TlsConfig tls;
        private String token;

        Builder(String owner) {
            this.owner = owner;
        }

        /** See {@link ConnectionSettings#maxPendingCalls()}; at least 1. */
        public Builder maxPendingCalls(int max) {
            this.maxPendingCalls = Checks.atLeast(owner + " max-pending", max, 1);
            return this;
        }

        /** See {@link ConnectionSettings#payloadBytes()}; at least 1024. */
        public Builder payloadBytes(int bytes) {
            this.payloadBytes = Checks.atLeast(owner + " payload", bytes, 1024);
            return this;
        }

        /** See {@link ConnectionSettings#connectTimeout()}; positive. */
        public Builder connectTimeout(Duration timeout) {
            this.connectTimeout = Checks.positive(owner + " connect-timeout", timeout);
            return this;
        }

        /** See {@link ConnectionSettings#heartbeatInterval()}; positive. */
        public Builder heartbeatInterval(Duration interval) {
            this.heartbeatInterval = Checks.positive(owner + " heartbeat", interval);
            return this;
        }

        /** See {@link ConnectionSettings#heartbeatMisses()}; at least 1. */
        public Builder heartbeatMisses(int misses) {
            this.heartbeatMisses = Checks.atLeast(owner + " heartbeat misses", misses, 1);
            return this;
        }

        /** See {@link ConnectionSettings#tls()}; null: not set. */
        public Builder tls(TlsConfig tls) {
            this.tls = tls;
            return this;
        }

        /** See {@link ConnectionSettings#token()}; null or empty: not set. */
        public Builder token(String token) {
            this.token = Checks.token(owner + " token", token);
            return this;
        }

        public ConnectionSettings build() {
            return new ConnectionSettings(this);
        }
    }
}
