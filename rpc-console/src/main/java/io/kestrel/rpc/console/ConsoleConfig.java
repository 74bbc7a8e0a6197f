package io.kestrel.rpc.console;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;

/**
 * Settings of the web console ({@link KestrelConsole}), served on its own admin port. Off by default (the switch
 * of {@code <rpc:console enabled>} and {@code rpc.console.enabled}); when on, it is bound to 127.0.0.1 and
 * read-only. Invoking methods and taking providers offline
 * must each be allowed here, and then every such request must carry the {@link #token() token} in an
 * {@code Authorization: Bearer} header. Immutable; build with {@link #builder()}.
 */
public final class ConsoleConfig {
    /** The console's default port. */
    public static final int DEFAULT_PORT = 20890;
    /** Largest token accepted, in UTF-8 bytes (a bound on what every guarded request carries). */
    private static final int MAX_TOKEN_BYTES = 16 * 1024;

    private final boolean enabled;
    private final String host;
    private final int port;
    private final String token;
    private final boolean allowInvoke;
    private final boolean allowMutations;
    private final int maxRequestBytes;
    private final Duration window;
    private final int maxConnections;
    private final int maxConnectionsPerHost;
    private final Duration requestTimeout;

    private ConsoleConfig(Builder b) {
        this.enabled = b.enabled;
        this.host = b.host;
        this.port = b.port;
        this.token = b.token;
        this.allowInvoke = b.allowInvoke;
        this.allowMutations = b.allowMutations;
        this.maxRequestBytes = b.maxRequestBytes;
        this.window = b.window;
        this.maxConnections = b.maxConnections;
        this.maxConnectionsPerHost = b.maxConnectionsPerHost;
        this.requestTimeout = b.requestTimeout;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** No console (what the declarative settings give when {@code enabled} is not set). */
    public static ConsoleConfig disabled() {
        return builder().build();
    }

    /** Whether the console is served; {@link KestrelConsole#of} needs it on. Default false. */
    public boolean enabled() {
        return enabled;
    }

    /** Bind address. Default {@code 127.0.0.1}: only this host can reach it. */
    public String host() {
        return host;
    }

    /** Port. Default {@value #DEFAULT_PORT}; 0 picks a free port. */
    public int port() {
        return port;
    }

    /** The bearer token that invoking and mutating requests must carry; null when none is set. */
    public String token() {
        return token;
    }

    /** Whether the invoke form may call methods (generic invocation). Default false. */
    public boolean allowInvoke() {
        return allowInvoke;
    }

    /** Whether providers of this runtime may be taken offline and online again. Default false. */
    public boolean allowMutations() {
        return allowMutations;
    }

    /** Largest request body the console reads; larger requests are answered 413. Default 64 KiB. */
    public int maxRequestBytes() {
        return maxRequestBytes;
    }

    /** Over how long the live call figures (rate, errors, latency percentiles) are computed. Default 60 s. */
    public Duration window() {
        return window;
    }

    /**
     * Most connections the console keeps open at once; one more is closed as soon as it is accepted. Default
     * 64 (a browser opens at most 6 per host).
     */
    public int maxConnections() {
        return maxConnections;
    }

    /** Most connections one remote address keeps open at once (of {@link #maxConnections()}). Default 16. */
    public int maxConnectionsPerHost() {
        return maxConnectionsPerHost;
    }

    /**
     * How long a request may take to arrive in full once its first byte came, and an answer to be taken by the
     * client once written; a connection over it is closed. A connection reads its next request only once the
     * previous answer is taken, so one that never reads holds one answer. Default 30 s.
     */
    public Duration requestTimeout() {
        return requestTimeout;
    }

    @Override
    public String toString() {
        return "ConsoleConfig{" + (enabled ? host + ":" + port : "disabled") + ", invoke=" + allowInvoke
                + ", mutations=" + allowMutations + ", token=" + (token == null ? "none" : "set") + "}";
    }

    public static final class Builder {
        private boolean enabled;
        private String host = "127.0.0.1";
        private int port = DEFAULT_PORT;
        private String token;
        private boolean allowInvoke;
        private boolean allowMutations;
        private int maxRequestBytes = 64 * 1024;
        private Duration window = Duration.ofSeconds(60);
        private int maxConnections = 64;
        private int maxConnectionsPerHost = 16;
        private Duration requestTimeout = Duration.ofSeconds(30);

        private Builder() {
        }

        public Builder enabled(boolean enabled) {
            this.enabled = enabled;
            return this;
        }

        public Builder host(String host) {
            if (host == null || host.isBlank()) {
                throw new IllegalArgumentException("console host must not be empty");
            }
            this.host = host.trim();
            return this;
        }

        public Builder port(int port) {
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("console port must be 0..65535 (0 = a free port), was " + port);
            }
            this.port = port;
            return this;
        }

        /** At least 16 characters; null or blank for none. */
        public Builder token(String token) {
            String t = token == null || token.isBlank() ? null : token.trim();
            if (t != null && t.getBytes(StandardCharsets.UTF_8).length > MAX_TOKEN_BYTES) {
                throw new IllegalArgumentException("console token is longer than " + MAX_TOKEN_BYTES + " bytes");
            }
            if (t != null && t.length() < 16) {
                throw new IllegalArgumentException("console token must be at least 16 characters (it guards invoking"
                        + " and mutating requests), was " + t.length());
            }
            this.token = t;
            return this;
        }

        public Builder allowInvoke(boolean allow) {
            this.allowInvoke = allow;
            return this;
        }

        public Builder allowMutations(boolean allow) {
            this.allowMutations = allow;
            return this;
        }

        public Builder maxRequestBytes(int bytes) {
            if (bytes < 1024) {
                throw new IllegalArgumentException("console max-request-bytes must be >= 1024, was " + bytes);
            }
            this.maxRequestBytes = bytes;
            return this;
        }

        public Builder window(Duration window) {
            Objects.requireNonNull(window, "console window");
            if (window.toSeconds() < 5 || window.toHours() > 1) {
                throw new IllegalArgumentException("console window must be 5 s .. 1 h, was " + window);
            }
            this.window = window;
            return this;
        }

        public Builder maxConnections(int max) {
            if (max < 1) {
                throw new IllegalArgumentException("console max-connections must be >= 1, was " + max);
            }
            this.maxConnections = max;
            return this;
        }

        public Builder maxConnectionsPerHost(int max) {
            if (max < 1) {
                throw new IllegalArgumentException("console max-connections-per-host must be >= 1, was " + max);
            }
            this.maxConnectionsPerHost = max;
            return this;
        }

        public Builder requestTimeout(Duration timeout) {
            Objects.requireNonNull(timeout, "console request-timeout");
            if (timeout.toMillis() < 1) {
                throw new IllegalArgumentException("console request-timeout must be at least 1 ms, was " + timeout);
            }
            this.requestTimeout = timeout;
            return this;
        }

        /**
         * @throws IllegalArgumentException when invocation or mutations are allowed without a token
         */
        public ConsoleConfig build() {
            if ((allowInvoke || allowMutations) && token == null) {
                throw new IllegalArgumentException("console " + (allowInvoke ? "allow-invoke" : "allow-mutations")
                        + " is on but no console token is set: every invoking or mutating request must carry one."
                        + " Set rpc.console.token (ConsoleConfig.builder().token(..)) to a secret of 16+ characters");
            }
            return new ConsoleConfig(this);
        }
    }
}
